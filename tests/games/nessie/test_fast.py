"""The numpy Nessie engine against the protocol State played by the generic loop: the same
games, card for card, when both see the same deck orders and reshuffles; the same win rates in
tournaments; no card ever lost or duplicated."""

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

import nessus.play
from nessus import montecarlo
from nessus.games import nessie
from nessus.games.nessie import CARD_KINDS, MAX_TURNS, Rules, State, initial_state, policies
from nessus.games.nessie import fast as fast
from nessus.games.nessie.cards import make_deck

SEED = 11

RULES = [
    policies.stop_at(1),
    policies.stop_at(2),
    policies.stop_at(3),
    policies.stop_at(5),
    policies.stop_when_risky(Fraction(3, 10)),
    policies.stop_when_risky(Fraction(1, 2)),
    policies.stop_when_risky(0),
    policies.stop_when_risky(0.15),
]
DECK_COUNTS = np.bincount(fast.DECK, minlength=9)


def replayed(seats, seed, max_turns: int = MAX_TURNS, sizes: list[int] | None = None) -> State:
    """The protocol State played to the end, seat i by seats[i], each reveal the next card of the
    deck order `fast.PerGame([seed])` deals (the pile's end first) and, when the pile is empty,
    of the discards listed card by card (A..F, 1, 2, 3) and permuted as it reshuffles them. The
    ordered pile is checked at every reveal to hold exactly the State's counted pile; the sizes
    of the reshuffles go to `sizes`."""
    rng = np.random.default_rng(seed)
    deck = make_deck()
    pile = [deck[i] for i in rng.permutation(len(deck))]
    state = replace(initial_state(Rules(players=len(seats))), max_turns=max_turns)
    while not state.is_terminal():
        if not state.is_chance_node():
            state = state.apply(seats[state.current_player()](state))
            continue
        if not pile:
            counts = dict(zip(CARD_KINDS, state.discards))
            listed = [c for c in fast.CARDS for _ in range(counts[c])]
            pile = [listed[i] for i in rng.permutation(len(listed))]
            if sizes is not None:
                sizes.append(len(listed))
        counted = state.draw if sum(state.draw) else state.discards
        assert Counter(pile) == Counter({c: n for c, n in zip(CARD_KINDS, counted) if n})
        state = state.apply(pile.pop())
    return state


def reference(state: State) -> tuple:
    return state.scores(), -1 if state.finisher is None else state.finisher, state.turns, sorted(state.winners())


def outcome(out: fast.Outcome, g: int) -> tuple:
    return out.scores[g].tolist(), int(out.finisher[g]), int(out.turns[g]), np.flatnonzero(out.winners()[g]).tolist()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_games_are_those_of_the_protocol_state(players):
    """96 games per number of players (480 in all), the State fed the same cards: six seatings
    drawn from RULES, four played to the end and two cut at a small turn limit (where the
    limit's check falls matters: with 2 players a sink at the start bounces the turn back
    without a check)."""
    pick = np.random.default_rng(players)
    kinds = {"finished": 0, "cut": 0, "reshuffled": 0}
    for batch, max_turns in enumerate((MAX_TURNS,) * 4 + (9, 40)):
        seats = [RULES[i] for i in pick.choice(len(RULES), players)]
        seeds = [[players, batch, g] for g in range(16)]
        fast_games = fast.play_games(seats, len(seeds), fast.PerGame(seeds), max_turns=max_turns)
        for g, seed in enumerate(seeds):
            sizes: list[int] = []
            end = replayed(seats, seed, max_turns, sizes)
            assert outcome(fast_games, g) == reference(end), (players, batch, g, seats)
            kinds["finished" if end.finisher is not None else "cut"] += 1
            kinds["reshuffled"] += bool(sizes)
    assert min(kinds.values()) >= 5, kinds


def test_tournament_kernels_agree_seat_for_seat(monkeypatch):
    """The fast kernel rotates the seats as the protocol kernel does: the same arrays, exactly,
    when the protocol's games are fed the same cards."""
    rules = (policies.stop_at(2), policies.stop_when_risky(), policies.stop_at(4))
    seeds = [[7, g] for g in range(30)]
    games, sizes = iter(seeds), list[int]()
    monkeypatch.setattr(nessus.play, "play", lambda start, seats, rng: replayed(seats, next(games), sizes=sizes))
    ref = fast.protocol_kernel(rules, np.random.default_rng(0), len(seeds))
    ours = fast.tournament_kernel(rules, fast.PerGame(seeds), len(seeds))
    assert ours.keys() == ref.keys()
    for name in ref:
        assert np.array_equal(ours[name], ref[name]), name
    assert sizes


def test_players_who_never_take_cycle_the_whole_deck():
    """Revealing until sinking (limit 1), nobody ever takes a card: every card goes round the
    discards, and the games stop at the turn limit."""
    seats = [policies.stop_when_risky(1)] * 3
    seeds = [[11, g] for g in range(4)]
    out, sizes = fast.play_games(seats, len(seeds), fast.PerGame(seeds), max_turns=60), list[int]()
    for g, seed in enumerate(seeds):
        assert outcome(out, g) == reference(replayed(seats, seed, 60, sizes))
    assert not out.over.any() and fast.DECK_SIZE - 18 < max(sizes)  # at most 18 cards in a row


def test_tournaments_agree_with_the_protocol_path():
    """The fast path (20,000 games) and the protocol path (1,500 games), fixed seeds, estimate
    the same win rates and mean scores of three strategies. Six comparisons, each at the
    Bonferroni level 1 - 0.05/6: the two estimates must differ by less than sqrt(h1^2 + h2^2),
    h1 and h2 the half-widths of their intervals at that level (Wilson intervals for the win
    rates, the t intervals widened from 95% for the mean scores)."""
    strategies = {
        "stop at 2": policies.stop_at(2),
        "risk > 30%": policies.stop_when_risky(),
        "stop at 4": policies.stop_at(4),
    }
    chosen = tuple(strategies.values())
    table = fast.tournament(strategies, games=20_000, seed=5, progress=False)
    ours = montecarlo.run(partial(fast.tournament_kernel, chosen), 20_000, 5, chunk=fast.CHUNK, progress=False)
    ref = montecarlo.run(partial(fast.protocol_kernel, chosen), 1_500, 5, chunk=256, progress=False)
    assert table["p_win"].to_list() == [ours[f"p_win_{i}"].value for i in range(3)]  # the tournament's fast path
    level = 1 - 0.05 / 6
    for name in [f"{quantity}_{i}" for quantity in ("p_win", "mean_score") for i in range(3)]:
        halves = []
        for e in (ours[name], ref[name]):
            if e.kind == "proportion":
                lo, hi = montecarlo.wilson(round(e.value * e.trials), e.trials, confidence=level)
                halves.append((hi - lo) / 2)
            else:
                halves.append((e.ci[1] - e.ci[0]) / 2 * norm.ppf(0.5 + level / 2) / norm.ppf(0.975))
        assert abs(ours[name].value - ref[name].value) < np.hypot(*halves), (name, ours[name], ref[name])


def test_tournament_uses_the_fast_engine_only_for_table_driven_strategies(monkeypatch):
    def refuse(*args):
        raise AssertionError("wrong engine")

    monkeypatch.setattr(fast, "protocol_kernel", refuse)
    df = fast.tournament({"a": policies.stop_at(2), "b": policies.stop_when_risky()}, games=300, seed=1, progress=False)
    assert df.columns == ["policy", "p_win", "low", "high", "mean_score", "p_finished"]
    assert df["p_win"].sum() >= 1 and (df["p_finished"] == 1).all()
    monkeypatch.undo()
    monkeypatch.setattr(fast, "tournament_kernel", refuse)
    assert not fast.is_table_driven(policies.lookahead())
    fast.tournament({"a": policies.stop_at(2), "b": policies.lookahead()}, games=2, seed=1, progress=False)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 6),
    rules=st.lists(st.sampled_from(RULES), min_size=6, max_size=6),
)
def test_no_card_is_lost_or_duplicated(seed, players, rules):
    """After every move of 32 random games (reshuffles included): the cards in the draw pile,
    discards, row and hands are the deck; the counts kept of the row and the draw pile are those
    of their cards; each hand's letters are one run of the chain."""
    table = fast.Batch(
        np.tile(np.arange(players), (32, 1)), rules[:players], fast.Shuffler(np.random.default_rng(seed))
    )
    while table.in_play.any():
        table.step()
        assert (table.cards() == DECK_COUNTS).all()
        row_cards = [np.bincount(table.row[g, 1 : 1 + table.row_len[g]], minlength=9) for g in range(table.size)]
        assert (fast._counts(table.row_word >> 16) == np.array(row_cards)).all()
        if table.risky:
            draw_cards = [np.bincount(table.draw[g, : table.drawn[g]], minlength=9) for g in range(table.size)]
            assert (fast._counts(table.pool) == np.array(draw_cards)).all()
        letters = fast._letters(table.hands)
        assert ((letters & (letters + (letters & -letters))) == 0).all()  # each hand's letters: one run of the chain


def test_the_shuffler_deals_orders():
    shuffler = fast.Shuffler(np.random.default_rng(3))
    assert (np.sort(shuffler.deal(np.arange(5)), axis=1) == np.arange(84)).all()
    sizes = np.array([1, 40, 7])
    order = shuffler.reshuffle(np.arange(3), sizes)
    assert all(sorted(order[i, :s]) == list(range(s)) for i, s in enumerate(sizes))
    assert (fast.DECK == [fast.CARDS.index(c) for c in make_deck()]).all()


def test_bad_parameters_are_clear_errors():
    with pytest.raises(ValueError, match="cards must be an integer >= 1"):
        policies.stop_at(0)
    with pytest.raises(ValueError, match="limit must be a number from 0 to 1"):
        policies.stop_when_risky(Fraction(3, 2))
    with pytest.raises(ValueError, match="players .* from 2 to 6"):
        fast.play_games([policies.stop_at(2)] * 7, 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="games must be an integer >= 0"):
        fast.play_games([policies.stop_at(2)] * 2, -1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="max_turns must be an integer >= 0"):
        fast.play_games([policies.stop_at(2)] * 2, 5, np.random.default_rng(0), max_turns=-1)
    with pytest.raises(ValueError, match="table-driven"):
        fast.play_games([policies.stop_at(2), policies.lookahead()], 5, np.random.default_rng(0))


def test_exact_figures_lie_in_the_simulated_intervals():
    """A player who never stops, revealing 200,000 shuffled decks (fixed seed: deterministic).

    The 12 curve points are checked together, so each gets a Wilson interval at the Bonferroni
    level 1 - 0.05/12: all hold at once with probability >= 95%. The mean uses its t interval
    at the same level."""
    trials, level = 200_000, 1 - 0.05 / 13
    exact = nessie.report().figures
    simulated = nessie.simulate(trials=trials, seed=SEED).figures
    for k in range(1, 13):
        name = f"p_sink_by_reveal_{k}"
        lo, hi = montecarlo.wilson(round(simulated[name].value * trials), trials, confidence=level)
        assert lo <= exact[name].value <= hi, (name, exact[name].value, (lo, hi))
    mean = simulated["expected_reveals_until_sink"]
    half = (mean.ci[1] - mean.ci[0]) / 2 * norm.ppf(0.5 + level / 2) / norm.ppf(0.975)
    assert abs(exact["expected_reveals_until_sink"].value - mean.value) <= half
