"""Nessos' rollout hint (`nessos.rollouts`, `State.hint(method="rollout")`) and the rollout bot:
the rollouts agree with exact values computed here independently (the last answer of a reduced
game, and a pass whose next receiver decides with a hand the passer cannot see, every such hand
enumerated), they never read what the player cannot see, a seed replays them, and bad arguments
are clear errors."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import combinations_with_replacement

import numpy as np
import pytest

from nessus.games.nessos import rollouts
from nessus.games.nessos.deck import CHARON, counts_of, points
from nessus.games.nessos.odds import Sender, chain_posterior
from nessus.games.nessos.policies import bayes, policies
from nessus.games.nessos.rules import Rules
from nessus.games.nessos.state import ACCEPT, REFUSE, Offer, Pass, State, initial_state
from nessus.play import sample

Z = 3.29  # two-sided 99.9%: several values are checked in each test


def position(rules: Rules, hands: list[list[int]], fronts: list[list[int]]) -> State:
    """The last round of `rules.rounds` about to start, player 1 to offer: these hands and these
    cards face up, the rest of the deck in the pile."""
    used = Counter(c for cards in hands + fronts for c in cards)
    assert not used - rules.deck.counts(), "more cards than the deck holds"
    pile = counts_of((rules.deck.counts() - used).elements())
    start = initial_state(rules)
    return replace(
        start,
        hands=tuple(map(counts_of, hands)),
        fronts=tuple(map(counts_of, fronts)),
        pile=pile,
        drawing=False,
        rounds=rules.rounds - 1,
    )


def unseen_by(s: State, player: int) -> dict[int, int]:
    """The deck less `player`'s hand and every card face up, counted here from the cards."""
    seen = Counter(s.hand(player)) + Counter(s.face_up())
    return dict(s.rules.deck.counts() - seen)


def win_share(fronts: list[list[int]], player: int) -> Fraction:
    """`player`'s share at the round limit (RULES.md: most points, then most cards, else shared),
    no one eliminated."""
    key = [(points(counts_of(f)), len(f)) for f in fronts]
    best = [p for p, k in enumerate(key) if k == max(key)]
    return Fraction(int(player in best), len(best))


def holds(value: float, exact: Fraction, n: int) -> bool:
    """Whether a mean of `n` rollouts is within Z standard errors of the exact chance."""
    p = float(exact)
    return abs(value - p) <= Z * math.sqrt(p * (1 - p) / n) + 1 / n


def pooled(s: State, seeds: int, **kwargs) -> tuple[dict[object, float], int]:
    """Each move's win chance over the rollouts of `seeds` hints (seeds 0, 1, ...: other worlds
    each; one hint stops as soon as its best move is clear), and their number."""
    hints = [rollouts.hint(s, seed=seed, **kwargs) for seed in range(seeds)]
    n = sum(h.rollouts for h in hints)
    assert not any(v.exact for h in hints for v in h.estimates.values())
    return {move: sum(h.estimates[move].win * h.rollouts for h in hints) / n for move in hints[0].estimates}, n


# -- the last answer of a reduced game: exact, and the rollouts agree ----------------------------
RULES_2 = Rules(players=3, rounds=2)


def last_answer() -> State:
    """Player 3 (9 2 in front: 11 points, against player 1's 20) is passed a card announced 7 by
    player 1 and one announced 5 by player 2: it may only accept or refuse, and the round ends the
    game. Only accepting a true 7 and a true 5 wins it the game (23 points)."""
    hands = [[0, 7, 7, 2, 1], [5, 5, 3, 1, 0], [9, 1, 2, 3, 3]]
    s = position(RULES_2, hands, [[10, 10], [7], [9, 2]])
    return s.apply(Offer(CHARON, 1, 7)).apply(Pass(5, 2, 5))


def exact_last_answer(s: State, sender: Sender) -> dict[object, Fraction]:
    """Accept's and refuse's exact win chances for the receiver, from the posterior of the two
    cards and the fronts they make."""
    me, sender_of_last = s.current_player(), s.chain[-1].sender
    chain = chain_posterior(unseen_by(s, me), [o.announced for o in s.chain], s.rules.deck.values, sender)
    values = {}
    for answer, taker in ((ACCEPT, me), (REFUSE, sender_of_last)):
        total = Fraction(0)
        for pattern, p in chain.joint.items():
            fronts: list[list[int]] = [list(s.front(q)) for q in range(s.players)]
            fronts[taker] += [CHARON if c else o.announced for c, o in zip(pattern, s.chain)]
            total += p * win_share(fronts, me)
        values[answer] = total
    return values


@pytest.mark.parametrize("sender", [Sender("naive", cards=5), Sender("bluffer", Fraction(1, 3), 5)])
def test_the_last_answer_is_exact_and_the_rollouts_agree(sender):
    s = last_answer()
    want = exact_last_answer(s, sender)
    exact = s.hint(sender, method="rollout")
    assert exact.rollouts == 0 and exact.method == "rollout" and all(v.exact for v in exact.estimates.values())
    assert {a: v.win for a, v in exact.estimates.items()} == pytest.approx({a: float(w) for a, w in want.items()})
    assert "every case weighed exactly" in exact.posterior and str(sender) in exact.posterior
    rolled, n = pooled(s, 16, sender=sender, exact_where_possible=False)
    assert n >= 16 * rollouts.BATCH
    for answer, value in rolled.items():
        assert holds(value, want[answer], n), (answer, value, float(want[answer]))


# -- a pass in the last round: the next receiver decides with a hand the passer cannot see --------
RULES_3 = Rules(players=3, hand_size=3, rounds=2)
FRONTS_3 = [[10, 9], [10, 3], [9, 5]]
"""Player 1 leads with 19 points, then player 2 (13) and player 3 (14)."""


def first_offer(face: int = 7, others: tuple[int, ...] = (0, 2), third: tuple[int, ...] = (9, 1, 0)) -> State:
    """Player 1 offers a card (`face`, announced 7) to player 2, who holds 5 2 1: accept (a true 7
    makes 20 points and wins), refuse (player 1 wins), or pass a card on to player 3, whose Bayes
    bot then accepts or refuses with a hand player 2 cannot see (`third`); the round ends the game."""
    return position(RULES_3, [[face, *others], [5, 2, 1], list(third)], FRONTS_3).apply(Offer(face, 1, 7))


def exact_by_enumeration(s: State) -> dict[object, Fraction]:
    """Player 2's exact win chance for each move: the first card from its posterior (a naive
    sender), player 3's hand every way it can be dealt from the rest (weighted by its number of
    deals), player 3's answer by the protocol's Bayes bot in a state built with that hand."""
    me, values = s.current_player(), s.rules.deck.values
    pool = unseen_by(s, me)
    chain = chain_posterior(pool, [7], values, Sender("naive", cards=3))
    bot, out = bayes(), {}
    moves = [ACCEPT, REFUSE, *(Pass(k, 2, k) for k in sorted(set(s.hand(me))))]
    for move in moves:
        total = Fraction(0)
        for (charon,), p in chain.joint.items():
            face = CHARON if charon else 7
            rest = Counter(pool) - Counter([face])
            deals = Fraction(0)
            for hand in combinations_with_replacement(sorted(rest), 3):
                ways = math.prod(math.comb(rest[k], n) for k, n in Counter(hand).items())
                if not ways:
                    continue
                others = tuple((rest - Counter(hand)).elements())[:2]  # player 1's other cards: not in play
                w = first_offer(face, others, hand).apply(move)
                if not w.ended:
                    w = w.apply(bot(w))
                deals += ways * w.returns()[me]
            total += p * deals / math.comb(sum(rest.values()), 3)
        out[move] = total
    return out


def test_a_pass_is_valued_as_an_enumeration_of_the_next_hand():
    s = first_offer()
    want = exact_by_enumeration(s)
    rolled, n = pooled(s, 16, bots=("bayes",) * 3)
    assert set(rolled) == set(want) and len({round(float(w), 2) for w in want.values()}) == len(want)
    for move, value in rolled.items():
        assert holds(value, want[move], n), (move, value, float(want[move]))


# -- what the hint reads, its seed, its words ------------------------------------------------------
def decisions(rules: Rules, games: int, seed: int, every: int = 3):
    """Some decisions of seeded games of Bayes bots (every `every`-th move), offers and answers."""
    rng = np.random.default_rng(seed)
    bot = bayes()
    for _ in range(games):
        s, n = initial_state(rules), 0
        while not s.is_terminal():
            if s.is_chance_node():
                s = s.apply(sample(s.chance_outcomes(), rng))
                continue
            n += 1
            if n % every == 0:
                yield s
            s = s.apply(bot(s))


def test_the_hint_never_reads_what_the_player_cannot_see():
    """States that differ only in cards the player to move cannot see (`hidden_variants`: another
    hand, the pile, an offered card) give the same worlds and the same hint with the same seed."""
    sender = Sender("bluffer", Fraction(1, 2), 5)
    kinds, checked = set(), 0
    for s in decisions(Rules(players=4), games=1, seed=3, every=3):
        me = s.current_player()
        variants = s.hidden_variants(me)
        if not variants or checked >= 24:
            continue
        kinds.add(len(s.chain))
        hint = s.hint(sender, method="rollout", seed=5, most=64)
        first = rollouts.worlds(s, sender)(np.random.default_rng(1))
        for other in variants:
            assert other.hint(sender, method="rollout", seed=5, most=64).estimates == hint.estimates
            again = rollouts.worlds(other, sender)(np.random.default_rng(1))
            assert again[0] == first[0] and (again[1] == first[1]).all()
            checked += 1
    assert checked >= 10 and {0, 1} <= kinds, (checked, kinds)


def test_a_world_keeps_what_the_player_sees_and_conserves_the_cards():
    sender = Sender("naive", cards=5)
    for s in decisions(Rules(players=5), games=1, seed=8, every=2):
        me = s.current_player()
        draw = rollouts.worlds(s, sender)
        for i in range(5):
            world, pile = draw(np.random.default_rng(i))
            assert world.observation(me) == s.observation(me)
            assert sorted(pile.tolist()) == [k for k, n in enumerate(world.pile) for _ in range(n)]
            everything = Counter(c for q in range(s.players) for c in world.hand(q) + world.front(q))
            everything += Counter(world.offered) + Counter(k for k, n in enumerate(world.pile) for _ in range(n))
            assert everything == s.rules.deck.counts()
            for o, mine in zip(world.chain, s.chain):
                assert o.card in (CHARON, o.announced) and (o.sender != me or o.card == mine.card)


def test_a_seed_replays_the_hint_and_another_seed_draws_other_worlds():
    s = first_offer()
    a, b = (s.hint(method="rollout", seed=2, most=128) for _ in range(2))
    assert a.estimates == b.estimates and a.rollouts == b.rollouts and a.seed == 2
    c = s.hint(method="rollout", seed=3, most=128)
    assert c.estimates != a.estimates


def test_the_hint_in_words_names_the_model():
    s = first_offer()
    hint = s.hint(Sender("bluffer", Fraction(1, 2), 3), method="rollout", most=64, bots=("naive", "bayes", "bluffer"))
    assert hint.method == "rollout" and hint.best in s.legal_actions()
    words = hint.words(rollouts.move_text)
    assert " to win (" in words and words.split(":")[0] in {rollouts.move_text(a) for a in hint.estimates}
    assert (
        hint.opponents
        == "the others played by their bots (player 1 naive, player 3 bluffer), your later moves by the bayes bot"
    )
    assert hint.posterior.startswith("the Bayes posterior of the card offered under a bluffer sender, q = 1/2")
    assert rollouts.move_text(Pass(CHARON, 2, 9)) == "add Charon as 9 and pass to player 3"
    assert rollouts.move_text(Offer(7, 1, 7)) == "offer 7 to player 2"


def test_the_moves_weighed_stand_for_every_legal_move():
    """Every legal move is weighed, but for a Charon's announcements: only the most plausible."""
    for s in decisions(Rules(players=4), games=1, seed=4, every=1):
        legal, weighed = s.legal_actions(), rollouts.moves(s)
        said = s.plausible(s.current_player())
        assert set(weighed) <= set(legal) and all(weighed[a] == a for a in weighed)
        left_out = set(legal) - set(weighed)
        assert all(a.card == CHARON and a.announced != said for a in left_out)  # type: ignore[attr-defined]


def test_bad_arguments_are_clear_errors():
    s = first_offer()
    with pytest.raises(ValueError, match="method must be heuristic or rollout"):
        s.hint(method="guess")
    with pytest.raises(ValueError, match=r"bots must name one bot per seat \(3\) among naive, bluffer, bayes"):
        s.hint(method="rollout", bots=("bayes", "bayes"))
    with pytest.raises(ValueError, match="bots must name one bot per seat"):
        s.hint(method="rollout", bots=("bayes", "random_legal", "bayes"))
    with pytest.raises(ValueError, match="most must be an integer of at least 2"):
        s.hint(method="rollout", most=1)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        s.hint(method="rollout", seed=-1)
    with pytest.raises(ValueError, match="player to move"):
        initial_state(RULES_3).hint(method="rollout")  # the deal: chance to move


def test_the_rollout_bot_plays_the_hint_best_move():
    bot = policies()["rollout"]
    for s in decisions(Rules(players=3), games=1, seed=6, every=5):
        move = bot(s)
        assert move in s.legal_actions() and move == bot(s)
        assert move == s.hint(method="rollout", most=64).best
