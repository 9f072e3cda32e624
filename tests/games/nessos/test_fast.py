"""The vectorised Nessos engine (`nessos.fast`) against the game protocol's engine and bots:
the Bayes bot's every decision exactly, the naive and bluffing bots' within their random
choices, cards conserved round after round, and whole games distributed as the generic play
loop plays them (fixed seeds, 99.9% intervals of the difference)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from nessus.dice import uniform_below
from nessus.games import nessos
from nessus.games.nessos import fast, simulation
from nessus.games.nessos.deck import CHARON, KINDS
from nessus.games.nessos.odds import Sender
from nessus.games.nessos.policies import TOP_VALUES, bayes, bluffer, naive
from nessus.games.nessos.state import ACCEPT, REFUSE, Offer, Pass, State
from nessus.play import play, sample

Z = 3.29  # two-sided 99.9%


def test_nth_kind_is_the_rth_card_in_kind_order():
    rng = np.random.default_rng(3)
    hands = [sorted(rng.integers(0, KINDS, rng.integers(1, 11)).tolist()) for _ in range(300)]
    words = np.array([sum(fast.HAND_WORD[k] for k in hand) for hand in hands], dtype=fast.U)
    for r in range(10):
        has = np.array([len(h) > r for h in hands])
        got = fast.nth_kind(words[has], np.full(has.sum(), r))
        assert got.tolist() == [h[r] for h in hands if len(h) > r]


def test_uniform_below_is_uniform_and_checks_its_bounds():
    rng = np.random.default_rng(5)
    for m in (1, 2, 3, 7, 55, 256):
        n = 20_000 * m
        counts = np.bincount(uniform_below(rng, np.full(n, m)), minlength=m)
        assert len(counts) == m
        p = 1 / m
        # each count within 4.5 standard deviations (Bonferroni over at most 256 values at 99.9%)
        assert np.all(abs(counts / n - p) <= 4.5 * (p * (1 - p) / n) ** 0.5), m
    with pytest.raises(ValueError, match="bounds must be integers from 1 to 256"):
        uniform_below(rng, np.array([0, 3]))
    with pytest.raises(ValueError, match="bounds must be integers from 1 to 256"):
        uniform_below(rng, np.array([257]))


def decisions(rules: nessos.Rules, games: int, seed: int):
    """Every decision node of `games` random games (bots and random moves mixed, so that chains of
    passed cards and late-game hands occur)."""
    rng = np.random.default_rng(seed)
    named = nessos.policies(rules)
    movers = [named["random_legal"], named["bluffer"], named["naive"], named["bayes"]]
    for _ in range(games):
        s = nessos.initial_state(rules)
        while not s.is_terminal():
            if s.is_chance_node():
                s = s.apply(sample(s.chance_outcomes(), rng))
                continue
            yield s
            s = s.apply(movers[int(rng.integers(len(movers)))](s))


def fast_move(s: State, bot: str, seed: int = 0):
    """What the fast engine's `bot` does in state `s`, as a protocol action."""
    g, chain = fast.from_states([s])
    table = fast.Table(s.rules, np.random.default_rng(seed), [bot] * s.rules.players)
    rows = np.arange(1)
    if not s.chain:
        table.offer(g, rows, bot, chain)
        return Offer(int(chain.card[0, 0]), int(chain.receiver[0, 0]), int(chain.said[0, 0]))
    step = len(s.chain) - 1
    move = table.answer(g, rows, bot, chain, step)[0]
    if move == fast.PASS:
        return Pass(int(chain.card[step + 1, 0]), int(chain.receiver[step + 1, 0]), int(chain.said[step + 1, 0]))
    return ACCEPT if move == fast.ACCEPT else REFUSE


@pytest.mark.parametrize(("players", "hand_size", "games"), [(3, 5, 12), (4, 3, 10), (6, 5, 6)])
def test_the_bayes_bot_decides_as_the_protocol_bot(players, hand_size, games):
    rules = nessos.Rules(players=players, hand_size=hand_size)
    bot = bayes()
    seen = Counter()
    for s in decisions(rules, games, seed=players):
        want = bot(s)
        assert fast_move(s, "bayes") == want, s.observation(s.current_player())
        seen[type(want).__name__ if want not in (ACCEPT, REFUSE) else str(want)] += 1
    assert {"Offer", "accept", "refuse", "Pass"} <= set(seen), seen  # every kind of decision was checked


def test_the_bayes_bot_with_another_sender_model_decides_as_the_protocol_bot():
    rules = nessos.Rules(players=4)
    sender = Sender("bluffer", Fraction(1, 3), 5)
    bot = bayes(sender)
    for s in decisions(rules, 4, seed=9):
        g, chain = fast.from_states([s])
        if s.chain:
            table = fast.Table(rules, np.random.default_rng(0), ["bayes"] * 4, sender)
            move = table.answer(g, np.arange(1), "bayes", chain, len(s.chain) - 1)[0]
            want = bot(s)
            assert (move == fast.ACCEPT) == (want == ACCEPT) and (move == fast.PASS) == isinstance(want, Pass)


@pytest.mark.parametrize("players", [3, 5])
def test_the_naive_and_bluffing_bots_move_as_the_protocol_bots_may(players):
    rules = nessos.Rules(players=players)
    high = rules.deck.values[-TOP_VALUES:]
    for i, s in enumerate(decisions(rules, 8, seed=20 + players)):
        me = s.current_player()
        for bot in ("naive", "bluffer"):
            move = fast_move(s, bot, seed=i)
            assert move in s.legal_actions(), (bot, move)
            wary = s.charon_in_front(me) >= 2
            if not s.chain:
                assert move.announced == move.card or move.card == CHARON
                if bot == "bluffer" and CHARON in s.hand(me):
                    assert move.card == CHARON and move.announced in high
            elif bot == "naive" or not wary:
                assert move == (REFUSE if wary else ACCEPT)
            else:
                may_bluff = any(isinstance(a, Pass) and a.card == CHARON for a in s.legal_actions())
                assert (move.card == CHARON and move.announced in high) if may_bluff else move == REFUSE


def cards_of_games(table: fast.Table, g: fast.Games) -> np.ndarray:
    """Each game's cards by kind: hands, face up and the pile (the chain is empty between rounds)."""
    p = table.rules.players
    out = np.zeros((g.n, KINDS), dtype=np.int64)
    for k in range(KINDS):
        out[:, k] += fast.count_of(g.shown, k)
        out[:, k] += fast.count_of(g.hand, k).reshape(g.n, p).sum(axis=1)
        pile = g.cards.reshape(g.n, -1)
        out[:, k] += ((pile == k) & (np.arange(pile.shape[1]) < g.pile[:, None])).sum(axis=1)
    return out


@pytest.mark.parametrize("bots_at_table", ["naive", "bluffer,bayes,naive"])
def test_cards_are_conserved_round_after_round(bots_at_table):
    rules = nessos.Rules(players=4)
    table = fast.Table(rules, np.random.default_rng(8), nessos.Setup(players=4, bots=bots_at_table).seat_bots)
    g = table.deal(500)
    deck = np.array([rules.deck.counts()[k] for k in range(KINDS)])
    while g.n:
        assert (cards_of_games(table, g) == deck).all()
        sizes = g.size.reshape(g.n, -1)
        assert (sizes <= rules.hand_size).all() and (sizes >= 0).all()
        assert (fast.front_field(g.front, "cards").reshape(g.n, -1).sum(axis=1) == g.face_up).all()
        how, _ = table.round(g)
        g = g.keep(how == 0)


def compare(setup: nessos.Setup, n_fast: int, n_loop: int) -> None:
    """How games end, their rounds and each seat's win share: the fast engine against the play loop."""
    rules = setup.rules
    out = fast.play(rules, np.random.default_rng(11), n_fast, setup.seat_bots)
    named = nessos.policies(rules)
    rng = np.random.default_rng(12)
    ends = [play(nessos.initial_state(rules), [named[b] for b in setup.seat_bots], rng) for _ in range(n_loop)]
    columns = {
        **{
            f"ended {name}": ((out["ended"] == code), [e.ended == name for e in ends])
            for code, name in enumerate(fast.ENDS, 1)
        },
        "rounds": (out["rounds"], [e.rounds for e in ends]),
        **{f"seat {s}": (out["shares"][:, s], [float(e.returns()[s]) for e in ends]) for s in range(rules.players)},
    }
    for name, (a, b) in columns.items():
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        # the standard error of the difference if both come from one distribution (pooled)
        se = (np.concatenate([a, b]).var() * (1 / a.size + 1 / b.size)) ** 0.5
        assert abs(a.mean() - b.mean()) <= Z * se, (name, a.mean(), b.mean())


@pytest.mark.parametrize(
    ("players", "table", "extra"),
    [
        (3, "bayes,bluffer,naive", {}),
        (4, "naive", {}),
        (6, "bluffer,bayes", {}),
        (4, "bayes,naive", {"hand_size": 2, "rounds": 8}),
    ],
)
def test_whole_games_agree_with_the_generic_loop(players, table, extra):
    compare(nessos.Setup(players=players, bots=table, **extra), 40_000, 500)


def test_the_simulation_uses_the_fast_engine_and_the_loop_for_random_bots():
    fast_run = simulation.games_kernel(nessos.Setup(players=3, bots="naive"), np.random.default_rng(1), 3_000)
    loop_run = simulation.games_kernel(nessos.Setup(players=3, bots="random_legal,naive"), np.random.default_rng(1), 30)
    assert fast_run.keys() - {"win_share_seat_1_naive", "win_share_seat_2_naive", "win_share_seat_3_naive"} == (
        loop_run.keys() - {"win_share_seat_1_random_legal", "win_share_seat_2_naive", "win_share_seat_3_random_legal"}
    )
    assert sum(fast_run[f"win_share_seat_{s}_naive"].sum() for s in (1, 2, 3)) == pytest.approx(3_000)
    with pytest.raises(ValueError, match="bots must name one bot per seat"):
        fast.Table(nessos.Rules(players=3), np.random.default_rng(0), ["random_legal"] * 3)


def starts(rules: nessos.Rules, bots: list, seed: int) -> dict[str, State]:
    """States of one seeded game to play on from: a card offered, two cards passed, cards being
    drawn after a round, a first player to offer, and the end."""
    rng, found, s = np.random.default_rng(seed), {}, nessos.initial_state(rules)
    while not s.is_terminal():
        kind = "drawing" if s.is_chance_node() and s.rounds else f"chain of {len(s.chain)}"
        found.setdefault(kind, s) if s.rounds >= 2 or kind == "chain of 2" else None
        s = s.apply(sample(s.chance_outcomes(), rng) if s.is_chance_node() else bots[s.current_player()](s))
    return found | {"the end": s}


@pytest.mark.parametrize("laid", [False, True], ids=["drawn uniformly", "piles laid in order"])
def test_games_played_on_from_any_state_agree_with_the_generic_loop(laid):
    """`play_from` against the protocol's play loop from the same states: each seat's win share and
    final points (with the piles drawn uniformly, or laid in a random order and drawn from the top).
    The protocol's bluffer and naive bot are keyed by another seed in each game: from one state,
    their random choices then vary from game to game as the fast engine's do."""
    rules, names = nessos.Rules(players=3), ("bayes", "bluffer", "naive")
    found = starts(rules, [bayes(), bluffer(), naive()], seed=5)
    assert set(found) == {"chain of 0", "chain of 1", "chain of 2", "drawing", "the end"}, set(found)
    rng = np.random.default_rng(6)
    for kind, s in found.items():
        n = 2_000
        piles = (
            [rng.permutation([k for k, c in enumerate(s.pile) for _ in range(c)]) for _ in range(n)] if laid else None
        )
        out = fast.play_from([s] * n, rng, names, piles=piles)
        assert out["shares"].sum(axis=1) == pytest.approx(np.ones(n))
        ends = [play(s, [bayes(), bluffer(g), naive(g)], rng) for g in range(60 if not s.is_terminal() else 1)]
        loop = {"shares": [[float(r) for r in e.returns()] for e in ends], "points": [e.scores for e in ends]}
        for name in ("shares", "points"):
            for seat in range(3):
                a, b = out[name][:, seat].astype(float), np.array(loop[name], dtype=float)[:, seat]
                se = (np.concatenate([a, b]).var() * (1 / a.size + 1 / b.size)) ** 0.5
                assert abs(a.mean() - b.mean()) <= Z * se + 1e-9, (kind, name, seat, a.mean(), b.mean())
