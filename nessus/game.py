"""The game protocol: one playable state for every game, modelled on OpenSpiel's State API,
with exact chance.

A game module (`nessus.games.<name>`) gives `initial_state(rules=None)`, a `State`, and its
named policies `policies(rules=None) -> dict[str, Policy]`. A state is a value: `apply`
returns a new state and leaves the old one as it was, two states with the same position
compare equal, and chance is explicit, its outcomes weighted by exact fractions.

>>> from nessus import games
>>> renard = games.get("renard")
>>> state = renard.initial_state(renard.Rules(rounds=1))
>>> state.current_player() == CHANCE
True
>>> outcomes = state.chance_outcomes()
>>> len(outcomes), sum(p for _, p in outcomes)
(56, Fraction(1, 1))
>>> end = state.apply((2, 5, 6))
>>> end.is_terminal(), end.returns(), state.is_terminal()
(True, [Fraction(-1, 1)], False)

Player numbers are 0..players-1, with `CHANCE` and `TERMINAL` the ids OpenSpiel uses.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, Self

from nessus.solver import Hint

if TYPE_CHECKING:
    from nessus.report import Report
    from nessus.rules import GameRules

CHANCE = -1
"""`current_player()` at a chance node (OpenSpiel's kChancePlayerId)."""
TERMINAL = -4
"""`current_player()` once the game is over (OpenSpiel's kTerminalPlayerId)."""

Action = Hashable
"""A move or a chance outcome: hashable, and `str(action)` reads well ("hold 2 dice", (3, 5))."""


@dataclass(frozen=True)
class Shape:
    """What a solver, a test or the OpenSpiel bridge needs to know of a game's size.

    `max_actions` and `max_chance_outcomes` bound how many legal actions and chance outcomes any
    one node has; `max_length` bounds the number of moves and chance outcomes in a game (for games
    that could in principle go on for ever, a bound that a game passes with a probability too
    small to matter: the game's docstring says which). `min_return`/`max_return` bound each
    player's return, and `return_sum` is their sum in every game when it is constant (1 for win
    shares), else None (net stakes). `hidden` says whether a player ever lacks information.
    """

    players: int
    max_actions: int
    max_chance_outcomes: int
    max_length: int
    min_return: Fraction
    max_return: Fraction
    return_sum: Fraction | None = Fraction(1)
    hidden: bool = False


class State(ABC):
    """One position of a game. Subclasses are frozen dataclasses (states are values)."""

    @abstractmethod
    def current_player(self) -> int:
        """The player to move (0..players-1), `CHANCE`, or `TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The moves of the player to move, in a fixed order; empty at chance nodes and at the end."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a chance node, every outcome with its exact probability (summing to exactly 1);
        empty elsewhere."""

    @abstractmethod
    def _apply(self, action: Action) -> Self:
        """The state after a legal `action` (already checked)."""

    @abstractmethod
    def returns(self) -> list[Fraction]:
        """One payoff per player once the game is over: the win share (1, 1/k for a k-way shared
        win, 0) in games with a winner, net stakes in the banking games."""

    @abstractmethod
    def observation(self, player: int) -> str:
        """What `player` can see, as text: never a card hidden from them."""

    @abstractmethod
    def shape(self) -> Shape:
        """The game's size (see `Shape`) for this state's rules."""

    def apply(self, action: Action) -> Self:
        """A new state after `action` (a move, or a chance outcome at a chance node); the old one
        is unchanged. An action that is not legal here is a ValueError naming it."""
        if self.is_chance_node():
            allowed = [outcome for outcome, _ in self.chance_outcomes()]
        else:
            allowed = self.legal_actions()
        if action not in allowed:
            if self.is_terminal():
                raise ValueError(f"action {action!r} cannot be played: the game is over")
            shown = ", ".join(map(str, allowed[:12])) + (", …" if len(allowed) > 12 else "")
            raise ValueError(f"action must be one of the legal actions here ({shown}), got {action!r}")
        return self._apply(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether chance acts next."""
        return self.current_player() == CHANCE

    def hint(self) -> Hint:
        """Every legal action's value for the player to move (`Hint.values`), the best one, the
        method (`exact`, `value-iteration` or `heuristic`) and `cost(action)`."""
        raise ValueError(self._no_decision("a hint"))

    def hidden_variants(self, player: int) -> list[State]:
        """States that differ from this one only in what `player` cannot see (other hands,
        face-down cards): each must give `player` the same observation. Games with no hidden
        information return []."""
        return []

    def _no_decision(self, what: str) -> str:
        if self.is_terminal():
            return f"no {what} once the game is over"
        if self.is_chance_node():
            return f"no {what} at a chance node: chance acts next"
        return f"no {what} for this game"


Policy = Callable[[State], Action]
"""A way to play: the action to take in a state where a player must decide."""


def check_players(players: Sequence[int], shape: Shape) -> None:
    """A ValueError unless every player number is in 0..shape.players-1."""
    for p in players:
        if not isinstance(p, int) or not 0 <= p < shape.players:
            raise ValueError(f"player must be an integer from 0 to {shape.players - 1}, got {p!r}")


def win_shares(scores: Sequence[Fraction | int], highest: bool = True) -> list[Fraction]:
    """Each player's win share: 1/k to each of the k players with the best score, 0 to the others.

    >>> win_shares([3, 7, 7])
    [Fraction(0, 1), Fraction(1, 2), Fraction(1, 2)]
    >>> win_shares([3, 7, 7], highest=False)
    [Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)]
    """
    best = max(scores) if highest else min(scores)
    k = sum(1 for s in scores if s == best)
    return [Fraction(1, k) if s == best else Fraction(0) for s in scores]


def winner_returns(players: int, winner: int) -> list[Fraction]:
    """Returns of a game `winner` won alone: 1 to them, 0 to the others."""
    return [Fraction(int(p == winner)) for p in range(players)]


class Objective(Protocol):
    """What a player plays for, as one object that solvers, hints and pages call instead of
    switching on its type: `text` says it in words ("the most points"), `unit` names what
    `payoff` counts ("points", "chance") and `payoff(final)` is the payoff of a final position
    (an exact Fraction, or an int)."""

    @property
    def text(self) -> str:
        """The objective in words ("the most points")."""
        ...

    @property
    def unit(self) -> str:
        """What `payoff` counts ("points", "chance")."""
        ...

    def payoff(self, final: Any) -> Fraction | int:
        """The payoff of `final` (a game's own final position) for this objective."""
        ...


@dataclass(frozen=True)
class Game:
    """One game, declared once (in `nessus/games/<name>/__init__.py` as `GAME`): the registry,
    the command line, the gallery, the catalogue and the docs read it.

    `name` is the command-line name, `title` and `summary` say what it is; `Rules` is its
    frozen dataclass of validated parameters, `report(rules)` its exact figures,
    `simulate(rules, trials, seed, client=None, progress=None)` its Monte Carlo figures,
    `initial_state(rules)` its playable `State` and `policies(rules)` its named policies.
    `lesson` is its lesson (a notebook in notebooks/, without .ipynb), `dashboard` its page
    (a notebook in dashboards/) with `page_title` and `pitch` for the gallery's card, and
    `tables(rules)` the precomputed tables it stores in data/, if any (`check_tables()` the first
    rows of a table too long to check whole, see `nessus.tables`).
    """

    name: str
    title: str
    summary: str
    Rules: type[GameRules]
    report: Callable[..., Report]
    simulate: Callable[..., Report]
    initial_state: Callable[..., State]
    policies: Callable[..., dict[str, Policy]]
    lesson: str | None = None
    dashboard: str | None = None
    pitch: str = ""
    page_title: str = ""
    tables: Callable[..., Any] | None = None
    check_tables: Callable[..., Any] | None = None

    def __post_init__(self) -> None:
        if not self.page_title:
            object.__setattr__(self, "page_title", self.title)
