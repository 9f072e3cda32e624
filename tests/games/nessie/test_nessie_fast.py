"""The numpy Nessie engine against the reference engine: the same games, card for card, when
both see the same deck orders and reshuffles; the same win rates in tournaments; no card ever
lost or duplicated."""

from fractions import Fraction
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from nessus import montecarlo
from nessus.games.nessie import fast as fast
from nessus.games.nessie import play as play
from nessus.games.nessie.engine import Game, make_deck

RULES = [
    play.stop_at(1),
    play.stop_at(2),
    play.stop_at(3),
    play.stop_at(5),
    play.stop_when_risky(Fraction(3, 10)),
    play.stop_when_risky(Fraction(1, 2)),
    play.stop_when_risky(0),
    play.stop_when_risky(0.15),
]
DECK_COUNTS = np.bincount(fast.DECK, minlength=9)


class Replay:
    """One numpy Generator per game, drawn from as `Game.new` and `Game._reshuffle` draw from
    theirs: the deck order first, then one permutation per reshuffle."""

    def __init__(self, seeds: list) -> None:
        self.rngs = [np.random.default_rng(s) for s in seeds]

    def deal(self, games: np.ndarray) -> np.ndarray:
        return np.stack([self.rngs[g].permutation(fast.DECK_SIZE) for g in games])

    def reshuffle(self, games: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        out = np.zeros((len(games), int(sizes.max())), dtype=np.int64)
        for i, (g, size) in enumerate(zip(games, sizes)):
            out[i, :size] = self.rngs[g].permutation(int(size))
        return out


@pytest.fixture
def reshuffles(monkeypatch) -> list[int]:
    """The reference lists its discards card by card (A..F, 1, 2, 3) before shuffling them, as
    the fast engine does (a uniform shuffle does not care about the order before it); the
    sizes of the reshuffles are recorded."""
    sizes: list[int] = []
    shuffle = Game._reshuffle

    def listed_then_shuffled(game: Game) -> None:
        game.discard.sort(key=fast.CARDS.index)
        sizes.append(len(game.discard))
        shuffle(game)

    monkeypatch.setattr(Game, "_reshuffle", listed_then_shuffled)
    return sizes


def reference(game: Game) -> tuple:
    return game.scores(), -1 if game.finisher is None else game.finisher, game.turns, sorted(game.winners())


def outcome(out: fast.Outcome, g: int) -> tuple:
    return out.scores[g].tolist(), int(out.finisher[g]), int(out.turns[g]), np.flatnonzero(out.winners()[g]).tolist()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_games_are_those_of_the_reference_engine(players, reshuffles):
    """96 games per number of players (480 in all): six seatings drawn from RULES, four played
    to the end and two cut at a small turn limit (where play_turn's check falls matters: with 2
    players a sink at the start bounces the turn back without a check)."""
    pick = np.random.default_rng(players)
    kinds = {"finished": 0, "cut": 0, "reshuffled": 0}
    for batch, max_turns in enumerate((play.MAX_TURNS,) * 4 + (9, 40)):
        seats = [RULES[i] for i in pick.choice(len(RULES), players)]
        seeds = [[players, batch, g] for g in range(16)]
        fast_games = fast.play_games(seats, len(seeds), Replay(seeds), max_turns=max_turns)
        for g, seed in enumerate(seeds):
            before = len(reshuffles)
            game = play.play_game(seats, np.random.default_rng(seed), max_turns=max_turns)
            assert outcome(fast_games, g) == reference(game), (players, batch, g, seats)
            kinds["finished" if game.over else "cut"] += 1
            kinds["reshuffled"] += len(reshuffles) > before
    assert min(kinds.values()) >= 5, kinds


def test_tournament_kernels_agree_seat_for_seat(monkeypatch, reshuffles):
    """The fast kernel rotates the seats as the reference kernel does: the same arrays, exactly."""
    strategies = (play.stop_at(2), play.stop_when_risky(), play.stop_at(4))
    seeds = [[7, g] for g in range(30)]
    games = iter(seeds)
    original = play.play_game
    monkeypatch.setattr(play, "play_game", lambda by_seat, rng: original(by_seat, np.random.default_rng(next(games))))
    ref = play.tournament_kernel(strategies, None, len(seeds))
    ours = fast.tournament_kernel(strategies, Replay(seeds), len(seeds))
    assert ours.keys() == ref.keys()
    for name in ref:
        assert np.array_equal(ours[name], ref[name]), name
    assert reshuffles


def test_players_who_never_take_cycle_the_whole_deck(reshuffles):
    """Revealing until sinking (limit 1), nobody ever takes a card: every card goes round the
    discards, and the games stop at the turn limit."""
    seats = [play.stop_when_risky(1)] * 3
    seeds = [[11, g] for g in range(4)]
    out = fast.play_games(seats, len(seeds), Replay(seeds), max_turns=60)
    for g, seed in enumerate(seeds):
        assert outcome(out, g) == reference(play.play_game(seats, np.random.default_rng(seed), max_turns=60))
    assert not out.over.any() and fast.DECK_SIZE - 18 < max(reshuffles)  # at most 18 cards in a row


def test_tournaments_agree_with_the_reference_path():
    """The fast path (20,000 games) and the reference path (1,500 games), fixed seeds, estimate
    the same win rates and mean scores of three strategies. Six comparisons, each at the
    Bonferroni level 1 - 0.05/6: the two estimates must differ by less than sqrt(h1^2 + h2^2),
    h1 and h2 the half-widths of their intervals at that level (Wilson intervals for the win
    rates, the t intervals widened from 95% for the mean scores)."""
    strategies = {"stop at 2": play.stop_at(2), "risk > 30%": play.stop_when_risky(), "stop at 4": play.stop_at(4)}
    chosen = tuple(strategies.values())
    table = play.tournament(strategies, games=20_000, seed=5, progress=False)
    ours = montecarlo.run(partial(fast.tournament_kernel, chosen), 20_000, 5, chunk=fast.CHUNK, progress=False)
    ref = montecarlo.run(partial(play.tournament_kernel, chosen), 1_500, 5, chunk=256, progress=False)
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

    monkeypatch.setattr(play, "tournament_kernel", refuse)
    df = play.tournament({"a": play.stop_at(2), "b": play.stop_when_risky()}, games=300, seed=1, progress=False)
    assert df.columns == ["strategy", "p_win", "ci_low", "ci_high", "mean_score", "p_finished"]
    assert df["p_win"].sum() >= 1 and (df["p_finished"] == 1).all()
    monkeypatch.undo()
    monkeypatch.setattr(fast, "tournament_kernel", refuse)
    assert not fast.is_table_driven(play.lookahead())
    play.tournament({"a": play.stop_at(2), "b": play.lookahead()}, games=2, seed=1, progress=False)


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
        play.stop_at(0)
    with pytest.raises(ValueError, match="limit must be a number from 0 to 1"):
        play.stop_when_risky(Fraction(3, 2))
    with pytest.raises(ValueError, match="players .* from 2 to 6"):
        fast.play_games([play.stop_at(2)] * 7, 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="games must be an integer >= 0"):
        fast.play_games([play.stop_at(2)] * 2, -1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="max_turns must be an integer >= 0"):
        fast.play_games([play.stop_at(2)] * 2, 5, np.random.default_rng(0), max_turns=-1)
    with pytest.raises(ValueError, match="table-driven"):
        fast.play_games([play.stop_at(2), play.lookahead()], 5, np.random.default_rng(0))
