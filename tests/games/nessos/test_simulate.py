"""Nessos by Monte Carlo: the simulated hand odds agree with the exact ones, the ends of whole
games partition them, and the Bayes bot (exact posteriors) is checked as a player."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from nessus.games import nessos
from nessus.games.nessos import simulation
from nessus.games.nessos.deck import CHARON
from nessus.games.nessos.state import ACCEPT, REFUSE, Offer
from nessus.play import tournament

SEED = 11


@pytest.mark.parametrize("players", [3, 4, 6])
def test_simulated_hand_odds_contain_the_exact_ones(players):
    rules = nessos.Rules(players=players)
    exact = nessos.report(nessos.Setup(players=players)).figures
    kernel = simulation.hands_kernel(rules, np.random.default_rng(SEED), 40_000)
    for name in ("p_hand_no_charon", "p_hand_3plus_charon"):
        p = float(exact[name].exact)
        hits = kernel[name]
        se = (p * (1 - p) / hits.size) ** 0.5
        assert abs(hits.mean() - p) <= 3.29 * se, (name, hits.mean(), p)  # 99.9% normal interval


def test_simulated_games_end_one_way_each_and_count_rounds():
    rules = nessos.Setup(players=4, bots="bayes,naive,bluffer,naive")
    out = simulation.games_kernel(rules, np.random.default_rng(SEED), 60)
    ends = sum(out[k].astype(int) for k in out if k.startswith("p_game_ends_"))
    assert (ends == 1).all()
    assert (out["mean_rounds"] >= 1).all()
    shares = sum(out[f"win_share_seat_{i + 1}_{b}"] for i, b in enumerate(rules.seat_bots))
    assert np.allclose(shares, 1)


def test_rules_reject_unknown_bots():
    with pytest.raises(ValueError, match="bots must name bots"):
        nessos.Setup(bots="bayes,clever")
    assert nessos.Setup(players=5, bots="bayes,naive").seat_bots == ("bayes", "naive", "bayes", "naive", "bayes")


def first_offer(hand_a: tuple[int, ...], announced: int, offered: int) -> nessos.State:
    """A 3-player game dealt by hand: player 1 offers `offered` announced `announced` to player 2."""
    s = nessos.initial_state(nessos.Rules(players=3))
    s = s.deal_cards((offered, 1, 2, 3, 5), hand_a, (9, 9, 9, 10, 10))
    return s.apply(Offer(offered, 1, announced))


def test_bayes_refuses_an_offer_it_judges_likely_charon_and_accepts_a_likely_creature():
    """Holding every 7 but one of the 3-player deck, an offered "7" is Charon with the posterior
    the odds give; the bot refuses when that costs less than accepting and accepts otherwise."""
    bayes = nessos.policies()["bayes"]
    likely_charon = first_offer((7, 7, 7, 2, 3), 7, CHARON)
    likely_creature = first_offer((CHARON, CHARON, 5, 2, 3), 10, 10)
    assert bayes(likely_charon) == REFUSE
    assert bayes(likely_creature) == ACCEPT


def test_bayes_bot_beats_the_naive_bot_with_seats_rotated():
    """Bayes against three naive bots, the Bayes seat rotated round the table: its mean win share
    over the four seatings is above the naive bots' 1/4 baseline by more than its 99.9% interval."""
    shares = []
    for seat in range(4):
        seats = ["naive"] * 4
        seats[seat] = "bayes"
        rules = nessos.Rules(players=4)
        frame = tournament(nessos.initial_state(rules), seats, games=150, seed=seat, named=nessos.policies(rules))
        shares.append(frame["win_share"][seat])
    mean = sum(shares) / 4
    se = (mean * (1 - mean) / 600) ** 0.5
    assert mean - 3.29 * se > Fraction(1, 4), (shares, mean)
