"""A bridge to OpenSpiel (`pip install open-spiel`, the `test` extra): any nessus game as a
`pyspiel` Python game, so that OpenSpiel's own tests and tools (`random_sim_test`, CFR, best
response, exploitability) run on it.

OpenSpiel numbers actions and chance outcomes with integers: here the i-th legal action of a
state (in `legal_actions()` order) is action i, and the i-th chance outcome is outcome i.
Exact chance weights are given to OpenSpiel as floats (its API takes floats); nessus keeps the
fractions. A player's legal actions depend only on what that player can see, so the numbering
is the same in every state of an information state, as CFR needs.

Observations are `State.observation(p)`. A player's information state (perfect recall, what CFR
and best response read) is the sequence of their observations along the game, each new one
written down when it differs from the last: what they have seen, in order, and nothing else.

>>> import pyspiel
>>> spiel = load("renard", rules={"rounds": 2})
>>> spiel.num_players(), spiel.get_type().short_name
(1, 'nessus_renard')
>>> state = spiel.new_initial_state()
>>> round(sum(p for _, p in state.chance_outcomes()), 12)
1.0
>>> pyspiel.random_sim_test(spiel, num_sims=3, serialize=False, verbose=False)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from nessus import game, games
from nessus.game import State

PREFIX = "nessus_"


def game_type(name: str, shape: game.Shape) -> pyspiel.GameType:
    """OpenSpiel's description of the nessus game `name` (sequential, explicit chance, terminal
    rewards; observations as strings, from `State.observation`)."""
    module = games.get(name)
    utility = (
        pyspiel.GameType.Utility.GENERAL_SUM
        if shape.return_sum is None
        else pyspiel.GameType.Utility.ZERO_SUM
        if shape.return_sum == 0
        else pyspiel.GameType.Utility.CONSTANT_SUM
    )
    information = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if shape.hidden
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"{module.title} (nessus)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=shape.players,
        min_num_players=shape.players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={},
        default_loadable=True,
    )


def game_info(shape: game.Shape) -> pyspiel.GameInfo:
    """OpenSpiel's sizes of a game (at least one distinct action, as OpenSpiel requires)."""
    return pyspiel.GameInfo(
        num_distinct_actions=max(1, shape.max_actions),
        max_chance_outcomes=shape.max_chance_outcomes,
        num_players=shape.players,
        min_utility=float(shape.min_return),
        max_utility=float(shape.max_return),
        utility_sum=None if shape.return_sum is None else float(shape.return_sum),
        max_game_length=shape.max_length,
    )


class SpielGame(pyspiel.Game):
    """A nessus game, with given rules, as a pyspiel game."""

    def __init__(self, name: str, rules: Any = None) -> None:
        self.name = name
        self.module = games.get(name)
        self.rules = rules
        self.start = self.module.initial_state(rules)
        shape = self.start.shape()
        super().__init__(game_type(name, shape), game_info(shape), {})

    def new_initial_state(self) -> SpielState:
        return SpielState(self, self.start)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"params must be empty: nessus observers take none, got {params!r}")
        return Observer(perfect_recall=bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


class Path:
    """The nessus states of a game so far, newest last, as a linked list (`state`, the `before` one),
    immutable so that clones share it (a deepcopy returns it as it is). Each node keeps, once
    computed: its moves (legal actions, or chance outcomes with their weights as floats) and each
    player's observations so far (`recall`, read only when asked for)."""

    __slots__ = ("state", "player", "before", "recalled", "_moves", "_weights")

    def __init__(self, state: State, before: Path | None = None) -> None:
        self.state = state
        self.player = state.current_player()
        self.before = before
        self.recalled: dict[int, tuple[str, tuple | None]] = {}
        self._moves: list[game.Action] | None = None
        self._weights: list[float] = []

    def __deepcopy__(self, memo: dict) -> Path:
        return self

    @property
    def moves(self) -> list[game.Action]:
        """The chance outcomes at a chance node, else the legal actions, in nessus's order."""
        if self._moves is None:
            if self.state.is_chance_node():
                outcomes = self.state.chance_outcomes()
                self._moves, self._weights = [o for o, _ in outcomes], [float(p) for _, p in outcomes]
            else:
                self._moves = self.state.legal_actions()
        return self._moves

    @property
    def weights(self) -> list[float]:
        """The chance outcomes' probabilities, as floats (empty where chance does not act)."""
        self.moves  # noqa: B018 (computes both, once)
        return self._weights

    def child(self, move: int) -> Path:
        """The node after the `move`-th move (legal: taken from this state's own list)."""
        return Path(self.state._apply(self.moves[move]), self)

    def recall(self, player: int) -> tuple[str, ...]:
        """`player`'s observations along the game, each written down when it differs from the last."""
        unread: list[Path] = []
        node: Path | None = self
        while node is not None and player not in node.recalled:
            unread.append(node)
            node = node.before
        last = node.recalled[player] if node is not None else None
        for node in reversed(unread):
            view = node.state.observation(player)
            last = last if last is not None and last[0] == view else (view, last)
            node.recalled[player] = last
        seen = []
        while last is not None:
            seen.append(last[0])
            last = last[1]
        return tuple(reversed(seen))


class SpielState(pyspiel.State):
    """A pyspiel state wrapping a nessus `State` (replaced by the next one at each action). The
    states so far are a shared `Path`, so a clone (OpenSpiel's deepcopy of the attributes) copies
    one reference, and observations are computed only for the information states asked for."""

    def __init__(self, spiel_game: SpielGame, state: State) -> None:
        super().__init__(spiel_game)
        self.path = Path(state)

    @property
    def state(self) -> State:
        """The nessus state now."""
        return self.path.state

    def current_player(self) -> int:
        player = self.path.player
        if player == game.TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == game.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(self.path.moves)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(enumerate(self.path.weights))

    def _apply_action(self, action: int) -> None:
        self.path = self.path.child(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.path.moves[action])

    def is_terminal(self) -> bool:
        return self.path.player == game.TERMINAL

    def returns(self) -> list[float]:
        if not self.state.is_terminal():
            return [0.0] * self.state.shape().players
        return [float(r) for r in self.state.returns()]

    def __str__(self) -> str:
        return repr(self.state)


class Observer:
    """OpenSpiel's observer protocol: `string_from` is the nessus observation, or with perfect
    recall the player's observations so far, one a line; no tensor."""

    def __init__(self, perfect_recall: bool = False) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: SpielState, player: int) -> None:
        """Nothing to set: nessus observations are strings."""

    def string_from(self, state: SpielState, player: int) -> str:
        return "\n".join(state.path.recall(player)) if self.perfect_recall else state.state.observation(player)


def load(name: str, rules: Any = None) -> SpielGame:
    """The nessus game `name` as a pyspiel game; `rules` a Rules object or a dict of its
    parameters (defaults when None)."""
    module = games.get(name)
    if isinstance(rules, dict):
        rules = module.Rules(**rules)
    return SpielGame(name, rules)


def register(name: str) -> None:
    """Register `name` (default rules) with pyspiel, so `pyspiel.load_game("nessus_<name>")`
    loads it."""

    def __init__(self: SpielGame, params: Any = None) -> None:
        SpielGame.__init__(self, name)

    # pyspiel wants a class: a plain function as the constructor crashes the interpreter at exit
    loader = type(f"Spiel_{name}", (SpielGame,), {"__init__": __init__})
    pyspiel.register_game(load(name).get_type(), loader)
