"""nessus.rollout on a toy game whose win chances are known exactly: you hold one card of 1..6,
the other player holds another, unseen; you either show (the higher card wins) or fold (a coin
decides: you win half the time)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest

from nessus import rollout
from nessus.game import TERMINAL, Shape, State

CARDS = range(1, 7)


@dataclass(frozen=True)
class Toy(State):
    mine: int
    theirs: int
    move: str | None = None

    def current_player(self) -> int:
        return 0 if self.move is None else TERMINAL

    def legal_actions(self) -> list[str]:
        return ["show", "fold"] if self.move is None else []

    def chance_outcomes(self) -> list:
        return []

    def _apply(self, action: str) -> Toy:
        return Toy(self.mine, self.theirs, action)

    def returns(self) -> list[Fraction]:
        return [Fraction(int(self.mine > self.theirs)), Fraction(int(self.mine < self.theirs))]

    def observation(self, player: int) -> str:
        return f"you hold {self.mine if player == 0 else self.theirs}"

    def shape(self) -> Shape:
        return Shape(2, 2, 0, 1, Fraction(0), Fraction(1), None, hidden=True)


def sample(state: State, rng: np.random.Generator) -> State:
    assert isinstance(state, Toy)
    others = [c for c in CARDS if c != state.mine]  # the unseen card: any other, equally likely
    return Toy(state.mine, int(rng.choice(others)))


def play_out(state: State, player: int, rng: np.random.Generator) -> tuple[float, float]:
    assert isinstance(state, Toy)
    if state.move == "fold":
        win = float(rng.random() < 0.5)
    else:
        win = float(state.returns()[player])
    return win, 10 * win


TOY = rollout.Rollouts(sample, play_out, opponents="none: the other player does not move", posterior="uniform")


@pytest.mark.parametrize("mine", [2, 4, 6])
def test_the_intervals_hold_the_exact_win_chances(mine: int) -> None:
    hint = rollout.estimate(Toy(mine, theirs=1), TOY, seed=1, most=1024)
    exact = {"show": (mine - 1) / 5, "fold": 0.5}
    for action, value in hint.estimates.items():
        assert value.win_low <= exact[action] <= value.win_high
        assert value.points_low <= 10 * exact[action] <= value.points_high
    assert hint.method == "rollout" and hint.values == {a: v.win for a, v in hint.estimates.items()}


def test_a_clear_lead_stops_early_and_a_close_one_runs_to_the_limit() -> None:
    clear = rollout.estimate(Toy(6, theirs=1), TOY, seed=2)  # show always wins: 1 against 1/2
    assert clear.separated and clear.best == "show" and clear.rollouts == rollout.FIRST
    assert clear.words().startswith("show: 100% to win (")
    close = rollout.estimate(Toy(4, theirs=1), TOY, seed=2, most=128)  # 3/5 against 1/2: too close for 128
    assert not close.separated and close.rollouts == 128
    same = rollout.estimate(Toy(4, theirs=1), TOY, {"show": "show", "show too": "show"}, seed=2)
    assert same.separated and same.rollouts == rollout.FIRST  # equal in every world: not rivals


def test_the_hint_reads_nothing_hidden_and_replays_with_its_seed() -> None:
    a = rollout.estimate(Toy(3, theirs=1), TOY, seed=5, most=128)
    b = rollout.estimate(Toy(3, theirs=6), TOY, seed=5, most=128)  # differs only in the unseen card
    assert a.estimates == b.estimates and a.rollouts == b.rollouts
    c = rollout.estimate(Toy(3, theirs=1), TOY, seed=6, most=128)
    assert c.estimates != a.estimates


def test_bad_counts_and_no_player_to_move_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="most must be an integer of at least 2"):
        rollout.estimate(Toy(3, 1), TOY, most=1)
    with pytest.raises(ValueError, match="player to move"):
        rollout.estimate(Toy(3, 1, "show"), TOY)


def test_the_page_table_says_it_in_words_with_the_model() -> None:
    from nessus.kit.hint import rollout_table

    hint = rollout.estimate(Toy(6, theirs=1), TOY, seed=2)
    page = rollout_table(hint, "fold", str.capitalize, "points")
    assert page.count("<tr class='hint-row") == 2 and "Show ◀" not in page and "Fold ◀ yours" in page
    assert "Show: 100% to win" in page and f"{hint.rollouts} rollouts a move" in page
    assert "drawn from uniform; none: the other player does not move. The best move is clear at 95%." in page


def test_the_page_table_of_exact_values_says_exact_and_counts_no_rollouts() -> None:
    from nessus.kit.hint import rollout_table

    values = {"show": rollout.Value.exactly(0.75, -1.5), "fold": rollout.Value.exactly(0.25, 2.0)}
    hint = rollout.RolloutHint(
        Toy(6, 1), {a: v.win for a, v in values.items()}, "show", True, "rollout", values, 0, True, "none", "uniform"
    )
    page = rollout_table(hint, None, str.capitalize, "points")
    assert "Exact: the hidden cards weighed by uniform; none." in page and "rollouts a move" not in page
    assert "<b>75%</b> <small>exact</small></td><td style='font-size:12px'>-1.50</td>" in page
    assert "told apart" not in page and "clear at 95%" not in page


def test_a_single_action_gets_its_first_rollouts() -> None:
    hint = rollout.estimate(Toy(4, theirs=1), TOY, {"show": "show"}, seed=3)
    value = hint.estimates["show"]
    assert hint.rollouts == value.n == rollout.FIRST and hint.separated
    assert value.win_low <= 0.6 <= value.win_high
