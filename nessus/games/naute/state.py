"""Le Naute as the game protocol (`nessus.game`): `State` is a whole game, every seat's
expeditions in turn, each roll a chance node over the sorted dice with exact weights; the
returns are win shares (equal highest totals share the win). "roll" is the only move while
hunting; with ship, captain and crew aboard, "stop" or a `Keep` of cargo dice.

>>> state = initial_state(Rules(players=2, expeditions=2))
>>> state = state.apply("roll").apply((1, 3, 4, 5, 6))
>>> state.aboard, state.cargo, [str(a) for a in state.legal_actions()]
(3, 4, ['stop', 'keep 1', 'keep 3', 'keep none'])
>>> state.hint().best  # two rolls left: reroll both for more
Keep(())
>>> after = state.apply("stop")
>>> after.cargos, after.current_player(), after.returns()
((4,), 1, [Fraction(0, 1), Fraction(0, 1)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from nessus import game as protocol
from nessus.dice import Roll, roll_faces, roll_outcomes, rolls
from nessus.games.naute.expedition import Keep, Node, keep_options
from nessus.games.naute.policies import Above, CargoMean, Goal
from nessus.games.naute.rules import CARGO_DICE, DICE, ROLLS, TOP, Rules, set_aside
from nessus.solver import Hint


@dataclass(frozen=True)
class State(protocol.State):
    """A whole game of Le Naute (the game protocol): `expeditions` rounds, each seat one
    expedition per round in seat order; the highest total cargo wins (equal highest totals
    share the win). `cargos` are the finished expeditions' cargo in order of play; the
    expedition being played has `left` rolls allowed, `aboard` of ship, captain and crew, the
    cargo dice `kept` and `free` (just rolled), its rolls in `history`, and `rolling` is True
    while chance rolls.
    """

    rules: Rules
    cargos: tuple[int, ...] = ()
    left: int = ROLLS
    aboard: int = 0
    kept: Roll = ()
    free: Roll = ()
    history: tuple[Roll, ...] = ()
    rolling: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.left, int) or not 0 <= self.left <= ROLLS:
            raise ValueError(f"left must be an integer from 0 to {ROLLS}, got {self.left!r}")
        if not isinstance(self.aboard, int) or not 0 <= self.aboard <= 3:
            raise ValueError(f"aboard must be an integer from 0 to 3, got {self.aboard!r}")
        if self.aboard and self.left == ROLLS:
            raise ValueError("aboard must be 0 before the first roll")
        cargo = len(self.kept) + len(self.free)
        if self.aboard < 3 and cargo:
            raise ValueError("kept and free must be empty until ship, captain and crew are aboard")
        if cargo > DICE - 3 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in self.kept + self.free):
            raise ValueError(
                f"kept and free must hold at most {DICE - 3} dice from 1 to 6, got {self.kept!r}, {self.free!r}"
            )
        if any(not isinstance(c, int) or not 0 <= c <= TOP for c in self.cargos):
            raise ValueError(f"cargos must be integers from 0 to {TOP}, got {self.cargos!r}")

    # -- where the game stands -------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The seat whose expedition it is."""
        return len(self.cargos) % self.rules.players

    @property
    def round(self) -> int:
        """The expedition (round) being played, from 0 (`expeditions` once the game is over)."""
        return len(self.cargos) // self.rules.players

    @property
    def _over(self) -> bool:
        """Every expedition has been played."""
        return len(self.cargos) >= self.rules.players * self.rules.expeditions

    def scores(self) -> list[list[int]]:
        """Every seat's cargo, expedition by expedition."""
        p = self.rules.players
        return [list(self.cargos[seat::p]) for seat in range(p)]

    def totals(self) -> list[int]:
        """Every seat's total cargo so far."""
        return [sum(s) for s in self.scores()]

    @property
    def crew(self) -> bool:
        """Ship, captain and crew are aboard."""
        return self.aboard >= 3

    @property
    def cargo(self) -> int:
        """The expedition's cargo so far (0 without ship, captain and crew)."""
        return sum(self.kept) + sum(self.free) if self.crew else 0

    @property
    def target(self) -> int | None:
        """The score the seat to play must beat on the game's last expedition: the best other
        total minus its own, when it can still be overtaken and is not already behind it
        (None: play for the expected cargo)."""
        if self._over or self.round != self.rules.expeditions - 1:
            return None
        totals = self.totals()
        gap = max(t for i, t in enumerate(totals) if i != self.seat) - totals[self.seat]
        return gap if 0 <= gap < TOP else None

    def dice_to_roll(self, kept: Sequence[int] | None = None) -> int:
        """The dice the next roll throws: hunting, those not aboard; with the crew aboard, the
        cargo dice not kept (`kept`: the cargo dice to keep, by default those kept)."""
        return DICE - self.aboard if not self.crew else CARGO_DICE - len(self.kept if kept is None else kept)

    def chosen(self, kept: Roll) -> protocol.Action:
        """The move that keeping the cargo dice `kept` means: roll (hunting), stop (both kept) or the keep."""
        if not self.crew:
            return "roll"
        return "stop" if len(kept) == CARGO_DICE else Keep(kept)

    def result_text(self, you: int | None = None) -> str:
        """Who won the game in a sentence (a tie shares first place); "" before its end.

        >>> State(Rules(players=2, expeditions=1), (7, 5)).result_text(you=1)
        'Player 1 wins with 7 cargo.'
        """
        if not self._over:
            return ""
        totals = self.totals()
        top = [i for i, t in enumerate(totals) if t == max(totals)]
        names = " and ".join("you" if i == you else f"player {i + 1}" for i in top)
        if len(top) > 1:
            return f"Shared first place: {names}, with {max(totals)} cargo."
        return f"{names.capitalize()} win{'' if top == [you] else 's'} with {max(totals)} cargo."

    def objective(self) -> Goal:
        """What the seat to play maximises: P(cargo > target) on the last expedition, else the expected cargo."""
        target = self.target
        return CargoMean() if target is None else Above(target)

    @property
    def node(self) -> Node:
        """The solver's state of the expedition being played (at a decision)."""
        if not self.crew:
            return ("hunt", self.left, self.aboard)
        if self.rules.cargo_holds == "sticky":
            return ("cargo", self.left, self.kept, self.free)
        return ("cargo", self.left, (), tuple(sorted(self.kept + self.free)))

    # -- the protocol ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._over:
            return protocol.TERMINAL
        return protocol.CHANCE if self.rolling else self.seat

    def legal_actions(self) -> list[protocol.Action]:
        if self._over or self.rolling:
            return []
        if not self.crew:
            return ["roll"]
        return ["stop", *(Keep(k) for k in keep_options(self.kept, self.free, self.rules.cargo_holds))]

    def chance_outcomes(self) -> list[tuple[protocol.Action, Fraction]]:
        if self._over or not self.rolling:
            return []
        return roll_outcomes(self.dice_to_roll())

    def _apply(self, action: protocol.Action) -> State:
        if self.rolling:
            assert isinstance(action, tuple)
            after = self.outcome(action)
            return after._finish() if after.left == 0 else after
        if action == "roll":
            return replace(self, rolling=True)
        if action == "stop":
            return self._finish()
        assert isinstance(action, tuple)
        return replace(self, kept=tuple(sorted(action)), free=(), rolling=True)

    def outcome(self, faces: Sequence[int]) -> State:
        """At a chance node, the expedition once `faces` are rolled, before it is scored (after
        its last roll `apply` goes on to the next expedition; this shows how it ended)."""
        if not self.rolling:
            raise ValueError("no roll is due here: the dice are rolled after roll or keep")
        faces = tuple(sorted(faces))
        if self.crew:
            kept, free = (
                (self.kept, faces) if self.rules.cargo_holds == "sticky" else ((), tuple(sorted(self.kept + faces)))
            )
            return replace(
                self, left=self.left - 1, kept=kept, free=free, history=self.history + (faces,), rolling=False
            )
        aboard, cargo = set_aside(self.aboard, faces)
        return replace(
            self, left=self.left - 1, aboard=aboard, free=cargo, history=self.history + (faces,), rolling=False
        )

    def _finish(self) -> State:
        """The expedition is over with its cargo: the next one starts."""
        return State(self.rules, self.cargos + (self.cargo,))

    def returns(self) -> list[Fraction]:
        if not self._over:
            return [Fraction(0)] * self.rules.players
        return protocol.win_shares(self.totals())

    def observation(self, player: int) -> str:
        protocol.check_players([player], self.shape())
        totals = ", ".join(f"player {s + 1}: {t}" for s, t in enumerate(self.totals()))
        if self._over:
            return f"you are player {player + 1}; the game is over; totals {totals}"
        dice = f", cargo kept {' '.join(map(str, self.kept)) or 'none'}, free {' '.join(map(str, self.free)) or 'none'}"
        return (
            f"you are player {player + 1}; expedition {self.round + 1} of {self.rules.expeditions}, player "
            f"{self.seat + 1} "
            f"to play, roll {len(self.history)} of {ROLLS}, {self.aboard} of ship, captain and crew aboard"
            f"{dice if self.crew else ''}; totals {totals}"
        )

    def shape(self) -> protocol.Shape:
        r = self.rules
        return protocol.Shape(
            players=r.players,
            max_actions=1 + CARGO_DICE + 1,
            max_chance_outcomes=len(rolls(DICE).outcomes),
            max_length=2 * ROLLS * r.players * r.expeditions,
            min_return=Fraction(0),
            max_return=Fraction(1),
        )

    def hint(self, objective: Goal | None = None) -> Hint:
        """Every legal action's exact value for the seat to play (default objective:
        `objective()`; `CargoMean()` or `Above(t)` for another), from the core solver."""
        if self.current_player() < 0:
            return super().hint()
        h = (objective or self.objective()).solved(self.rules.cargo_holds).hint(self.node)
        values = {Keep.move(a): v for a, v in h.values.items()}
        return Hint(h.state, values, Keep.move(h.best), h.maximise, "exact")

    # -- convenience: the moves as a person makes them -------------------------------------------
    def roll(self, rng: np.random.Generator | None = None, dice: Sequence[int] | None = None) -> State:
        """Roll the dice in play (the given faces in any order, or drawn with `rng`): hunting,
        the 5 - aboard dice; with the crew aboard, the cargo dice not kept (after `keep`)."""
        if self._over:
            raise ValueError("the game is over")
        state = self.apply("roll") if not self.rolling and not self.crew else self
        if not state.rolling:
            raise ValueError("keep some cargo dice (or none) before rolling again, or stop")
        return state.apply(roll_faces(state.dice_to_roll(), rng, dice))

    def keep(self, faces: Sequence[int]) -> State:
        """Keep these cargo dice (those already kept included, under sticky holds); chance rolls the others next."""
        if why := self._no_cargo():
            raise ValueError(f"no cargo to keep: {why}")
        want = Keep(faces)
        if want not in self.legal_actions():
            allowed = keep_options(self.kept, self.free, self.rules.cargo_holds)
            raise ValueError(f"faces must be one of the allowed keeps {allowed}, got {tuple(faces)!r}")
        return self.apply(want)

    def stop(self) -> State:
        """Take the cargo as it is: the next expedition."""
        if why := self._no_cargo():
            raise ValueError(f"cannot stop: {why}")
        return self.apply("stop")

    def _no_cargo(self) -> str:
        """Why no cargo move (keep or stop) can be made now ("" when one can)."""
        if self._over:
            return "the game is over"
        if self.rolling:
            return "roll first"
        return "" if self.crew else "ship, captain and crew first"


def initial_state(rules: Rules | None = None) -> State:
    """The start of a game: seat 0's first expedition, before its first roll."""
    return State(rules or Rules())


def last_expedition(target: int, rules: Rules | None = None) -> State:
    """The second seat's expedition in a game of one expedition for two, the first having
    scored `target`: its objective is P(cargo > target) (0 <= target < 12)."""
    rules = rules or Rules()
    return State(Rules(expeditions=1, players=2, cargo_holds=rules.cargo_holds), (target,))
