"""The one machine-play loop (`nessus.play`) on a toy game small enough to solve by hand."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest

from nessus import game
from nessus.play import play, random_legal, sample, step, tournament

THIRD = Fraction(1, 3)


@dataclass(frozen=True)
class Coin(game.State):
    """Two players in turn, each once: "roll" (chance adds 1 with probability 2/3, else 0) or
    "stop" (adds nothing). Higher score wins; a tie is shared."""

    scores: tuple[int, int] = (0, 0)
    turn: int = 0
    rolling: bool = False

    def current_player(self) -> int:
        if self.rolling:
            return game.CHANCE
        return game.TERMINAL if self.turn == 2 else self.turn

    def legal_actions(self) -> list[game.Action]:
        return [] if self.rolling or self.turn == 2 else ["roll", "stop"]

    def chance_outcomes(self) -> list[tuple[game.Action, Fraction]]:
        return [(0, THIRD), (1, 2 * THIRD)] if self.rolling else []

    def _apply(self, action: game.Action) -> Coin:
        if self.rolling:
            scores = list(self.scores)
            scores[self.turn] += int(action)  # type: ignore[call-overload]
            return Coin((scores[0], scores[1]), self.turn + 1)
        if action == "roll":
            return Coin(self.scores, self.turn, True)
        return Coin(self.scores, self.turn + 1)

    def returns(self) -> list[Fraction]:
        return game.win_shares(self.scores)

    def observation(self, player: int) -> str:
        return f"scores {self.scores}, turn {self.turn}"

    def shape(self) -> game.Shape:
        return game.Shape(2, 2, 2, 4, Fraction(0), Fraction(1))


def roller(state: game.State) -> game.Action:
    return "roll"


def stopper(state: game.State) -> game.Action:
    return "stop"


class Counting:
    """A stand-in for numpy's Generator whose integers(n) returns 0, 1, ..., n-1 in turn."""

    def __init__(self) -> None:
        self.next = 0

    def integers(self, n: int) -> int:
        value, self.next = self.next % n, self.next + 1
        return value


def test_sample_draws_each_outcome_with_its_exact_weight():
    outcomes = [("a", Fraction(1, 6)), ("b", Fraction(1, 2)), ("c", Fraction(1, 3))]
    rng = Counting()
    draws = [sample(outcomes, rng) for _ in range(6)]  # one pass over the common denominator
    assert [draws.count(x) for x in "abc"] == [1, 3, 2]


def test_sample_rejects_weights_not_summing_to_one():
    with pytest.raises(ValueError, match="sum to 1"):
        sample([("a", Fraction(1, 3))], Counting())


def test_play_stops_at_a_seat_without_policy_and_goes_on_from_there():
    rng = np.random.default_rng(0)
    waiting = play(Coin(), {0: roller}, rng)
    assert waiting.current_player() == 1
    assert step(waiting, {0: roller}, rng) is None
    end = play(waiting, {1: stopper}, rng)
    assert end.is_terminal() and end.scores[1] == 0


def test_play_stops_when_asked():
    seen: list[int] = []
    waiting = play(Coin(), [roller, stopper], np.random.default_rng(2), until=lambda s: s.current_player() == 1)
    assert waiting.current_player() == 1 and waiting.turn == 1
    end = play(waiting, [roller, stopper], np.random.default_rng(2), on_move=lambda s, a: seen.append(s.turn))
    assert end.is_terminal() and seen == [1]


def test_on_move_sees_every_action_before_it_is_applied():
    log: list[tuple[int, object]] = []
    play(Coin(), [roller, stopper], np.random.default_rng(1), on_move=lambda s, a: log.append((s.current_player(), a)))
    assert [p for p, _ in log] == [0, game.CHANCE, 1]
    assert log[2][1] == "stop"


def test_play_is_reproducible_with_a_seed():
    ends = {play(Coin(), [random_legal(rng=np.random.default_rng(4))] * 2, np.random.default_rng(4)) for _ in range(3)}
    assert len(ends) == 1


def test_tournament_win_shares_contain_the_exact_values():
    """Roller vs stopper: the roller wins with 2/3 and ties (shared) with 1/3, so its exact win
    share is 2/3 + 1/6 = 5/6; each 99.9% Wilson interval of 4000 games must contain it."""
    frame = tournament(Coin(), [roller, stopper], games=4000, seed=3, confidence=0.999)
    exact = [Fraction(5, 6), Fraction(1, 6)]
    assert frame["policy"].to_list() == ["roller", "stopper"]
    for row, p in zip(frame.iter_rows(named=True), exact):
        assert row["low"] <= p <= row["high"], row
    assert abs(sum(frame["win_share"].to_list()) - 1) < 1e-12


def test_tournament_needs_one_policy_per_seat():
    with pytest.raises(ValueError, match="one policy per seat"):
        tournament(Coin(), [roller], games=10)


def test_apply_rejects_an_illegal_action_by_name():
    with pytest.raises(ValueError, match="'jump'"):
        Coin().apply("jump")
    with pytest.raises(ValueError, match="over"):
        Coin(turn=2).apply("roll")
