"""Nessos' exact odds (RULES.md part 3), all as Fractions: the deck and hand odds, the Bayes
posterior of an offered card being Charon given its announcement and everything the receiver
can see, the same for a chain of 2–3 offered cards, and the expected values of accept / refuse
/ pass; and `report`, the exact figures of a `Question` about one position.

What the receiver can see is summed up by the *unseen pool*: the deck minus the receiver's own
hand and every face-up card (`unseen_counts`). Every sender model draws the sender's hand from
that pool, uniformly and without replacement (RULES.md part 3):

- `naive`: the sender offers a uniformly random card of its hand;
- `bluffer` with `bluff` = q: holding at least one Charon, it offers a Charon with probability q
  (with certainty if it holds only Charon), otherwise a uniformly random creature of its hand;
- in both, a Charon is announced as a uniformly random creature value of the deck, a creature
  truthfully.

>>> pool = unseen_counts(4, hand=(0, 7, 7, 2, 10))  # the receiver holds C 7 7 2 10
>>> posterior_charon(pool, 7, deck(4).values, Sender("naive"))  # 13 Charon, two 7s unseen
Fraction(13, 31)
>>> posterior_charon(pool, 7, deck(4).values, Sender("bluffer", Fraction(1, 2)))
Fraction(2043340, 3642919)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb
from typing import TYPE_CHECKING

from nessus.games.nessos.deck import CHARON, Card, card_text, counts_of, deck
from nessus.games.nessos.deck import points as front_points
from nessus.games.nessos.rules import NAME, Rules, Setup
from nessus.numbers import exact_str
from nessus.report import Figure, Report

if TYPE_CHECKING:
    import polars as pl

MODELS = ("naive", "bluffer")
"""The sender models of RULES.md part 3."""

ELIMINATING = 3
"""A third Charon in front of a player eliminates them."""


# --- deck and hand odds -------------------------------------------------------------------------


def unseen_counts(players: int, hand: Iterable[Card] = (), seen: Iterable[Card] = ()) -> Counter[Card]:
    """The cards the receiver has not seen, by kind: the `players`-player deck minus its own
    `hand` and every face-up card in `seen` (a ValueError if those are not cards of the deck).

    >>> unseen_counts(3, hand=(0, 7), seen=(0,))[0]  # 11 Charon, two seen
    9
    """
    d = deck(players)
    hand, seen = tuple(hand), tuple(seen)
    d.check(hand, "hand")
    d.check(seen, "seen")
    d.check(hand + seen, "hand and seen together")
    pool = d.counts()
    pool.subtract(Counter(hand + seen))
    return +pool


def p_charon_among_next(unseen: Mapping[Card, int], k: int, m: int) -> Fraction:
    """P(exactly `k` Charon among the next `m` cards drawn without replacement from the pool
    `unseen` (cards by kind)): hypergeometric.

    >>> p_charon_among_next({0: 1, 5: 3}, 1, 2)  # one Charon among 4 cards, two drawn
    Fraction(1, 2)
    """
    total = sum(unseen.values())
    if not 0 <= m <= total:
        raise ValueError(f"m must be an integer from 0 to {total} (the cards in the pool), got {m!r}")
    if not 0 <= k <= m:
        raise ValueError(f"k must be an integer from 0 to m = {m}, got {k!r}")
    charon = unseen.get(CHARON, 0)
    return Fraction(comb(charon, k) * comb(total - charon, m - k), comb(total, m))


def _fresh_hand(players: int, hand_size: int) -> Counter[Card]:
    d = deck(players)
    if not 1 <= hand_size <= d.size:
        raise ValueError(f"hand_size must be an integer from 1 to {d.size}, got {hand_size!r}")
    return d.counts()


def p_hand_no_charon(players: int, hand_size: int = 5) -> Fraction:
    """P(a freshly dealt hand of `hand_size` cards holds no Charon).

    >>> p_hand_no_charon(5)  # C(40, 5) / C(55, 5)
    Fraction(5624, 29733)
    """
    return p_charon_among_next(_fresh_hand(players, hand_size), 0, hand_size)


def p_hand_3plus_charon(players: int, hand_size: int = 5) -> Fraction:
    """P(a freshly dealt hand of `hand_size` cards holds 3 Charon or more)."""
    pool = _fresh_hand(players, hand_size)
    return sum((p_charon_among_next(pool, k, hand_size) for k in range(3, hand_size + 1)), Fraction(0))


# --- the sender models --------------------------------------------------------------------------


@dataclass(frozen=True)
class Sender:
    """A model of the sender (RULES.md part 3): `model` "naive" or "bluffer", `bluff` = the
    bluffer's q, `cards` = the size of the sender's hand (drawn from the unseen pool; if the
    pool holds fewer cards, the whole pool)."""

    model: str = "naive"
    bluff: Fraction = Fraction(1, 2)
    cards: int = 5

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ValueError(f"sender must be one of {', '.join(MODELS)}, got {self.model!r}")
        if not 0 <= self.bluff <= 1:
            raise ValueError(f"bluff must be a probability from 0 to 1, got {self.bluff}")
        if self.cards < 1:
            raise ValueError(f"the sender's hand must hold at least 1 card, got {self.cards}")

    def __str__(self) -> str:
        """The model in words: "naive sender", "bluffer sender, q = 1/2"."""
        return "naive sender" if self.model == "naive" else f"bluffer sender, q = {self.bluff}"

    def offers(self, charon: int, size: int) -> tuple[Fraction, Fraction]:
        """For a hand of `size` cards holding `charon` Charon: (P(it offers a Charon), P(it
        offers one given creature card of the hand)). A group of a creature cards is offered
        with a times the second."""
        creatures = size - charon
        if self.model == "naive" or charon == 0:
            return Fraction(charon, size), Fraction(1, size)
        if creatures == 0:
            return Fraction(1), Fraction(0)
        q = Fraction(self.bluff)
        return q, (1 - q) / creatures


def _hands(pool: tuple[int, ...], size: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every composition of a hand of `size` cards drawn without replacement from `pool` (cards
    counted by group), with its probability (multivariate hypergeometric)."""
    total = comb(sum(pool), size)

    def rest(i: int, left: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if i == len(pool) - 1:
            if left <= pool[i]:
                yield (left,), comb(pool[i], left)
            return
        for a in range(min(left, pool[i]) + 1):
            for tail, ways in rest(i + 1, left - a):
                yield (a, *tail), comb(pool[i], a) * ways

    for counts, ways in rest(0, size):
        yield counts, Fraction(ways, total)


def offer_prior(unseen: Mapping[Card, int], sender: Sender) -> dict[Card, Fraction]:
    """P(the offered card is of each kind) before its announcement is heard, for every kind in
    the pool: the sender's hand summed over by composition (Charon, that kind, the rest)."""
    prior: dict[Card, Fraction] = {}
    charon = unseen.get(CHARON, 0)
    total = sum(unseen.values())
    if total == 0:
        raise ValueError("the unseen pool is empty: no card can be offered")
    size = min(sender.cards, total)
    for kind, n in sorted(unseen.items()):
        if n <= 0:
            continue
        if kind == CHARON:
            groups: tuple[int, ...] = (charon, total - charon)
        else:
            groups = (charon, n, total - charon - n)
        p = Fraction(0)
        for counts, weight in _hands(groups, size):
            p_charon, p_card = sender.offers(counts[0], size)
            p += weight * (p_charon if kind == CHARON else counts[1] * p_card)
        prior[kind] = p
    return prior


# --- Bayes --------------------------------------------------------------------------------------


def _likelihood(kind: Card, announced: int, values: Sequence[int]) -> Fraction:
    """P(the announcement is `announced` | the offered card is `kind`)."""
    if kind == CHARON:
        return Fraction(1, len(values))
    return Fraction(int(kind == announced))


def _check_announced(announced: int, values: Sequence[int]) -> None:
    if announced not in values:
        allowed = ", ".join(map(str, values))
        raise ValueError(f"announced must be a creature value of the deck ({allowed}), got {announced!r}")


def posterior_charon(unseen: Mapping[Card, int], announced: int, values: Sequence[int], sender: Sender) -> Fraction:
    """P(the offered card is Charon | it was announced `announced`), the sender's hand drawn
    from `unseen` and a Charon announced uniformly among `values` (the deck's creature values).

    For the naive sender it is K / (K + V n), K the unseen Charon, n the unseen cards of the
    announced value, V the number of values (each card is equally likely to be the one offered).
    """
    _check_announced(announced, values)
    prior = offer_prior(unseen, sender)
    charon = prior.get(CHARON, Fraction(0)) * _likelihood(CHARON, announced, values)
    creature = prior.get(announced, Fraction(0))
    if charon + creature == 0:
        raise ValueError(f"announced {announced} is impossible: no Charon and no {announced} is unseen")
    return charon / (charon + creature)


def posterior_by_bluff(
    unseen: Mapping[Card, int], values: Sequence[int], cards: int, steps: int
) -> Iterator[tuple[int, Fraction, Fraction]]:
    """(v, q, P(Charon | announced v)) for a bluffer with q = 0, 1/steps, ..., 1 holding `cards`
    cards, and every value v of the deck, from the unseen pool; a point is left out where that
    announcement is impossible (no such card unseen, and a bluffer with this q never offers Charon).

    As `posterior_charon` computes them, but faster: what a bluffer offers is linear in q (`Sender.offers`),
    so the prior of each kind is too, found once at q = 0 and q = 1."""
    at_0, at_1 = (offer_prior(unseen, Sender("bluffer", Fraction(q), cards)) for q in (0, 1))
    for v in values:
        if not unseen.get(v, 0) and not unseen.get(CHARON, 0):
            continue
        _check_announced(v, values)
        for i in range(steps + 1):
            q = Fraction(i, steps)
            prior = {k: at_0[k] + q * (at_1[k] - at_0[k]) for k in (CHARON, v) if k in at_0}
            charon = prior.get(CHARON, Fraction(0)) * _likelihood(CHARON, v, values)
            creature = prior.get(v, Fraction(0))
            if charon + creature:
                yield v, q, charon / (charon + creature)


def bayes_table(
    unseen: Mapping[Card, int], announced: int, values: Sequence[int], sender: Sender, every_value: bool = False
) -> pl.DataFrame:
    """The Bayes table of one offer (the shape of *Think Bayes*): one row per hypothesis about
    the offered card — `C` (Charon) and the announced value, or every kind in the pool with
    `every_value` — with its `prior` (P(the sender offers that kind)), `likelihood` (P(this
    announcement | that kind)), `unnormalised` (their product) and `posterior`, as floats, and
    the same exactly as "p/q" strings in `<column>_exact`.

    >>> t = bayes_table({0: 3, 7: 1, 2: 4}, 7, (2, 7), Sender())
    >>> t["hypothesis"].to_list(), t["posterior_exact"].to_list()
    (['C', '7'], ['3/5', '2/5'])
    """
    import polars as pl

    _check_announced(announced, values)
    prior = offer_prior(unseen, sender)
    kinds = sorted(prior) if every_value else [CHARON, announced]
    priors = [prior.get(k, Fraction(0)) for k in kinds]
    likelihoods = [_likelihood(k, announced, values) for k in kinds]
    unnormalised = [p * lk for p, lk in zip(priors, likelihoods)]
    total = sum(unnormalised, Fraction(0))
    if total == 0:
        raise ValueError(f"announced {announced} is impossible: no Charon and no {announced} is unseen")
    posterior = [u / total for u in unnormalised]
    columns: dict[str, list] = {"hypothesis": [card_text(k) for k in kinds]}
    for name, col in (
        ("prior", priors),
        ("likelihood", likelihoods),
        ("unnormalised", unnormalised),
        ("posterior", posterior),
    ):
        columns[name] = [float(x) for x in col]
    for name, col in (
        ("prior", priors),
        ("likelihood", likelihoods),
        ("unnormalised", unnormalised),
        ("posterior", posterior),
    ):
        columns[f"{name}_exact"] = [exact_str(x) for x in col]
    return pl.DataFrame(columns)


@dataclass(frozen=True)
class Chain:
    """The posterior of a chain of offered cards: `joint` maps which cards are Charon (a tuple
    of bools, first offered first) to its probability given every announcement."""

    joint: dict[tuple[bool, ...], Fraction]

    @property
    def each(self) -> tuple[Fraction, ...]:
        """P(card i is Charon | every announcement), for each card in offer order."""
        n = len(next(iter(self.joint)))
        return tuple(sum((p for k, p in self.joint.items() if k[i]), Fraction(0)) for i in range(n))

    @property
    def at_least_one(self) -> Fraction:
        """P(at least one of the cards is Charon | every announcement)."""
        return sum((p for k, p in self.joint.items() if any(k)), Fraction(0))


def chain_posterior(
    unseen: Mapping[Card, int], announced: Sequence[int], values: Sequence[int], sender: Sender
) -> Chain:
    """The posterior of a chain of offered cards with their `announced` values (first offered
    first; 1 to 3 cards).

    The model: each card comes from a different sender (the first player, then each player who
    added a card and passed). The senders' hands are drawn in offer order from the unseen pool
    without replacement — so they never share a card — each of `sender.cards` cards (or what is
    left of the pool), and each sender offers from its own hand by `sender`'s model, ignoring
    the cards already offered to it (the announcements it heard do not change what it offers).
    Summed exactly over every hand composition (`_by_hands`), the pool grouped as Charon, each
    announced value and the rest; for naive senders with full hands, the same sum in closed form
    (`_drawn`). One card gives `posterior_charon`.

    >>> chain = chain_posterior({0: 3, 7: 1, 2: 4}, (7, 2), (2, 7), Sender())
    >>> chain.each, chain.at_least_one
    ((Fraction(15, 26), Fraction(3, 13)), Fraction(9, 13))
    """
    if not 1 <= len(announced) <= 3:
        raise ValueError(f"announced must hold 1 to 3 values (a chain of offered cards), got {len(announced)}")
    for v in announced:
        _check_announced(v, values)
    kinds = [CHARON, *sorted(set(announced))]
    start = (*(unseen.get(k, 0) for k in kinds), sum(unseen.values()) - sum(unseen.get(k, 0) for k in kinds))
    slot = tuple(kinds.index(v) for v in announced)
    if sender.model == "naive" and sum(start) >= len(announced) * sender.cards:
        weights = _drawn(start, slot, len(values))
    else:
        weights = _by_hands(start, slot, len(values), sender)
    total = sum(weights.values(), Fraction(0))
    if total == 0:
        raise ValueError(f"the announcements {', '.join(map(str, announced))} are impossible from the unseen cards")
    return Chain({k: w / total for k, w in sorted(weights.items()) if w})


def _by_hands(
    start: tuple[int, ...], slot: tuple[int, ...], values: int, sender: Sender
) -> dict[tuple[bool, ...], Fraction]:
    """The unnormalised P(each card is Charon or not, and announced as it was), summed over the
    senders' hands drawn from the grouped pool `start` (group `slot[i]`: card i's value)."""
    per_value = Fraction(1, values)

    @cache
    def joint(i: int, pool: tuple[int, ...]) -> tuple[tuple[tuple[bool, ...], Fraction], ...]:
        """The same for cards i.., from what is left of the pool."""
        if i == len(slot):
            return (((), Fraction(1)),)
        total = sum(pool)
        if total == 0:
            return ()
        size = min(sender.cards, total)
        out: dict[tuple[bool, ...], Fraction] = {}
        for counts, weight in _hands(pool, size):
            p_charon, p_card = sender.offers(counts[0], size)
            left = tuple(a - b for a, b in zip(pool, counts))
            for is_charon, p in ((True, p_charon * per_value), (False, counts[slot[i]] * p_card)):
                if p:
                    for rest, w in joint(i + 1, left):
                        key = (is_charon, *rest)
                        out[key] = out.get(key, Fraction(0)) + weight * p * w
        return tuple(out.items())

    return dict(joint(0, start))


def _drawn(start: tuple[int, ...], slot: tuple[int, ...], values: int) -> dict[tuple[bool, ...], Fraction]:
    """`_by_hands` for naive senders whose hands are all full (the pool holds at least a hand
    per card offered), up to a common factor: each naive sender offers a uniformly random card
    of a uniformly random hand, and so — the hand's other cards unseen — a uniformly random card
    of what the earlier senders' hands left, itself a uniform sample of the pool. The cards are
    offered as if drawn one by one from the pool: each pattern weighs the counts it draws
    (Charon, then announced as the value heard with P 1 / values), over the same falling
    factorial of the pool's size for every pattern, left out."""
    out: dict[tuple[bool, ...], Fraction] = {}
    for pattern in product((True, False), repeat=len(slot)):
        left, w = list(start), Fraction(1)
        for is_charon, group in zip(pattern, slot):
            g = 0 if is_charon else group
            w *= Fraction(left[g], values if is_charon else 1)
            left[g] -= 1
        out[pattern] = w
    return out


# --- expected values ----------------------------------------------------------------------------


def points(cards: Iterable[Card]) -> int:
    """The score of `cards` face up in front of a player (`deck.points`, from cards)."""
    return front_points(counts_of(cards))


@dataclass(frozen=True)
class Valuation:
    """A points model of what cards taken face up are worth to the receiver, in points.

    - Creatures are worth the points they add (`points`, so with the {1, 2, 3} bonus counted
      against the cards already in `front` of the receiver).
    - A Charon costs `charon_penalty` points; the default, `goal` / 3, reads "three Charon lose
      the game": each is a third of the way to losing, priced as a third of the points that win.
    - Cards that bring the Charon in front to 3 eliminate: they are worth -`goal` whatever else
      they hold (everything is lost; with the default penalty this equals three Charon's cost).
    - Reaching the target counts only its points (no extra value for winning).
    - Refusing is worth 0: only the receiver's own points count, not the sender's gain (with 3–6
      players one rival's gain is not simply the receiver's loss).
    - Passing: the cards come back only if the next receiver refuses (if it accepts or passes on,
      they never return), which happens with probability `next_refuses` = r — 1/2 by default,
      for we know nothing of that player's hand; 0 is the naive bot that always accepts. If they
      come back, the receiver takes them all face up, the card it added included. That card
      leaves the hand, where it was worth r × its worth (a card in hand reaches one's front
      only when an offer of it is refused, with the same r): passing with card a is worth
      r × (E[worth(cards + a)] - worth(a)), and the receiver adds the card that makes it most.

    So with no third Charon and no {1, 2, 3} set at stake, passing is worth r × accepting: a
    lottery between accepting (if refused back) and refusing. It pays only through those
    non-linear effects (e.g. passing one's own Charon on with two in front), or through a next
    receiver who misjudges the cards — beyond this model, which keeps r fixed.
    """

    goal: int = 40
    charon_penalty: Fraction | None = None
    front: tuple[Card, ...] = ()
    next_refuses: Fraction = Fraction(1, 2)

    text = "the most expected points (a Charon costs a third of the target)"
    unit = "expected points"

    def __post_init__(self) -> None:
        if self.goal < 1:
            raise ValueError(f"goal must be a positive number of points, got {self.goal}")
        if self.charon_penalty is not None and self.charon_penalty < 0:
            raise ValueError(f"charon_penalty must be 0 or more points, got {self.charon_penalty}")
        if not 0 <= self.next_refuses <= 1:
            raise ValueError(f"next_refuses must be a probability from 0 to 1, got {self.next_refuses}")

    @property
    def penalty(self) -> Fraction:
        """A Charon's cost in points."""
        return Fraction(self.goal, 3) if self.charon_penalty is None else Fraction(self.charon_penalty)

    def worth(self, cards: Iterable[Card]) -> Fraction:
        """What taking `cards` face up is worth, in points."""
        cards = tuple(cards)
        charon = cards.count(CHARON)
        if self.front.count(CHARON) + charon >= ELIMINATING and charon:
            return Fraction(-self.goal)
        return points(self.front + cards) - points(self.front) - charon * self.penalty

    def payoff(self, final: Iterable[Card]) -> Fraction:
        """The objective's payoff (`nessus.game.Objective`): what the cards `final` taken face up
        are worth (`worth`)."""
        return self.worth(final)


@dataclass(frozen=True)
class Values:
    """The expected worth of each choice, in points (see `Valuation`): `accept`, `refuse`,
    and `pass_` with the card to add (`add`), None when passing is not allowed."""

    accept: Fraction
    refuse: Fraction
    pass_: Fraction | None
    add: Card | None


def _taken(
    chain: Chain, announced: Sequence[int], extra: tuple[Card, ...] = ()
) -> Iterator[tuple[tuple[Card, ...], Fraction]]:
    """Each way the chain may turn out (cards as they are face up) with its probability."""
    for pattern, p in chain.joint.items():
        yield tuple(CHARON if c else v for c, v in zip(pattern, announced)) + extra, p


def expected_values(
    chain: Chain,
    announced: Sequence[int],
    hand: Sequence[Card],
    valuation: Valuation,
    can_pass: bool = True,
) -> Values:
    """The expected worth of accepting, refusing and passing the offered cards (with their
    `announced` values and posterior `chain`), for a receiver holding `hand`. Passing is not
    allowed with 3 cards offered, an empty hand, or `can_pass` False (no eligible receiver).

    >>> chain = chain_posterior({0: 3, 7: 1, 2: 4}, (7,), (2, 7), Sender())
    >>> v = expected_values(chain, (7,), (2, 2), Valuation(goal=30))
    >>> v.accept, v.refuse, v.pass_  # accept: 7 * 2/5 - 10 * 3/5; pass: half of it
    (Fraction(-16, 5), Fraction(0, 1), Fraction(-8, 5))
    """
    accept = sum((p * valuation.worth(cards) for cards, p in _taken(chain, announced)), Fraction(0))
    pass_: Fraction | None = None
    add: Card | None = None
    if can_pass and hand and len(announced) < 3:
        for card in sorted(set(hand)):
            back = sum((p * valuation.worth(cards) for cards, p in _taken(chain, announced, (card,))), Fraction(0))
            value = valuation.next_refuses * (back - valuation.worth((card,)))
            if pass_ is None or value > pass_:
                pass_, add = value, card
    return Values(accept, Fraction(0), pass_, add)


@cache
def cached_posterior(
    pool: tuple[tuple[int, int], ...], announced: tuple[int, ...], values: tuple[int, ...], sender: Sender
) -> Chain:
    """`chain_posterior` for an unseen pool given as (kind, count) pairs, remembered."""
    return chain_posterior(dict(pool), announced, values, sender)


# --- the question about one position and its report ----------------------------------------------


@dataclass(frozen=True)
class Question:
    """What a receiver sees and is offered, the question `report` answers: its own `hand`, every
    card face up it can see (`seen`), the value `announced` for the card offered (0: no offer)
    and the model of its `sender`."""

    hand: tuple[Card, ...] = ()
    seen: tuple[Card, ...] = ()
    announced: int = 0
    sender: Sender = Sender()

    @staticmethod
    def of(setup: Setup) -> Question:
        """The question the command line's parameters ask (`--set hand=... announced=...`)."""
        sender = Sender(setup.sender, setup.bluff, setup.hand_size)
        return Question(setup.hand_cards, setup.seen_cards, setup.announced, sender)

    @property
    def asked(self) -> bool:
        """Whether there is a position to judge at all (a hand, cards seen or an offer)."""
        return bool(self.hand or self.seen or self.announced)


def report(setup: Setup | None = None) -> Report:
    """The exact figures: the deck and a fresh hand's odds; with a receiver's view (`hand`,
    `seen`) the next card's odds; with an offer (`announced`) the posterior that it is Charon
    and the expected points of accepting, refusing and passing it."""
    setup = setup or Setup()
    rules, question = setup.rules, Question.of(setup)
    figures = hand_figures(rules)
    if question.asked:
        figures |= question_figures(rules, question)
    return Report(NAME, setup.as_dict(), figures)


def hand_figures(rules: Rules) -> dict[str, Figure]:
    """The deck and a fresh hand's odds."""
    d, size = rules.deck, rules.hand_size
    return {
        "deck_size": Figure.of(d.size, "cards in the deck"),
        "charon_count": Figure.of(d.charon, "Charon cards in the deck"),
        "p_hand_no_charon": Figure.of(p_hand_no_charon(rules.players, size), "P(a fresh hand holds no Charon)"),
        "p_hand_3plus_charon": Figure.of(
            p_hand_3plus_charon(rules.players, size), "P(a fresh hand holds 3 Charon or more)"
        ),
    }


def question_figures(rules: Rules, question: Question) -> dict[str, Figure]:
    """The next card's odds from the receiver's view; with an offer, the posterior that it is
    Charon and the expected points of accepting, refusing and passing it."""
    hand = question.hand
    pool = unseen_counts(rules.players, hand, question.seen)
    figures = {
        "p_next_card_charon": Figure.of(
            p_charon_among_next(pool, 1, 1), "P(a card the receiver has not seen, e.g. the next drawn, is Charon)"
        )
    }
    if not question.announced:
        return figures
    announced = (question.announced,)
    chain = chain_posterior(pool, announced, rules.deck.values, question.sender)
    values = expected_values(chain, announced, hand, Valuation(goal=rules.goal))
    figures["p_charon_given_announce"] = Figure.of(
        chain.each[0], f"P(the offered card is Charon | announced {question.announced}), {question.sender.model} sender"
    )
    figures["ev_accept"] = Figure.of(values.accept, "expected points of accepting (a Charon costs target/3)")
    figures["ev_refuse"] = Figure.of(values.refuse, "expected points of refusing (the sender takes the card)")
    if values.pass_ is not None:
        added = card_text(values.add) if values.add is not None else "-"
        figures["ev_pass"] = Figure.of(
            values.pass_, f"expected points of adding a {added} and passing (refused back with P 1/2)"
        )
    return figures
