"""The Nessos page's pictures: the table (only your hand and the cards face up show their faces),
the Bayes panel for an offer to you, the posterior against the bluffer's q, a tournament's wins."""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction

import altair as alt
import polars as pl

from nessus.charts import wrap_lines
from nessus.games.nessos.deck import CHARON, Card, card_text
from nessus.games.nessos.odds import Sender, bayes_table, posterior_by_bluff, posterior_charon
from nessus.games.nessos.state import NINE, State
from nessus.numbers import d3_format, decimal_text, number_html

HUMAN = 0
"""Your seat (player 1)."""
CHARON_RED = "#b3261e"
SUBTITLE_CHARS, Q_STEPS = 44, 20  # a subtitle's line on a phone (340 px); the posterior chart's steps of q
BAYES_COLUMNS = ("prior", "likelihood", "unnormalised", "posterior")

CARD_CSS = (
    "<style>.nessos-card{display:inline-flex;align-items:center;justify-content:center;box-sizing:border-box;"
    "width:34px;height:48px;border-radius:5px;border:1px solid #555;background:#fffdf5;color:#222;"
    "font:bold 17px/1 sans-serif;margin:1px 2px;vertical-align:middle;box-shadow:1px 1px 2px rgba(0,0,0,.25)}"
    ".nessos-card.charon{background:#2b2b2b;color:#ff8a80;border-color:#000}"
    ".nessos-card.back{background:repeating-linear-gradient(45deg,#1f4e79 0 4px,#2f6ea5 4px 8px);border-color:#123;"
    "color:transparent}.nessos-card.small{width:22px;height:31px;font-size:12px;border-radius:3px;margin:1px}"
    ".nessos-count{font-size:12px;color:#555;margin-left:4px}.nessos-table td{padding:3px 4px;"
    "vertical-align:middle;border-top:1px solid rgba(128,128,128,.25)}.nessos-table{border-collapse:collapse;"
    "width:100%;font-size:13px}.nessos-offer{display:inline-flex;flex-direction:column;align-items:center;"
    "margin:2px 6px;font-size:12px}.nessos-log{font-size:12px;max-height:150px;overflow-y:auto;"
    "border-top:1px solid rgba(128,128,128,.3);margin-top:4px;padding-top:2px}"
    ".nessos-panel table{border-collapse:collapse;font-size:13px}.nessos-panel td,.nessos-panel th{padding:2px 6px;"
    "text-align:left}</style>"
)


def note(text: str) -> str:
    """A line in small grey type."""
    return f"<div style='font-size:12px;color:#555'>{text}</div>"


def card_html(card: Card | None, small: bool = False) -> str:
    """A card face up (its value, or "C" on black for Charon), or face down (None: its back)."""
    size = " small" if small else ""
    if card is None:
        return f"<span class='nessos-card back{size}' title='face down'>?</span>"
    kind, title = (" charon", "Charon") if card == CHARON else ("", f"creature {card}")
    return f"<span class='nessos-card{kind}{size}' title='{title}'>{html.escape(card_text(card))}</span>"


def cards_html(cards: Sequence[Card], small: bool = False, empty: str = "—") -> str:
    """A row of cards face up, free to wrap between cards (a player's front can hold a dozen)."""
    return "<wbr>".join(card_html(c, small) for c in cards) or f"<span style='color:#888'>{empty}</span>"


def backs_html(n: int) -> str:
    """A hidden hand: small backs (up to 6 drawn) and its count."""
    if not n:
        return "<span style='color:#888'>no cards</span>"
    backs = "<wbr>".join([card_html(None, True)] * min(n, 6))
    return backs + f"<span class='nessos-count'>{n} card{'s' if n > 1 else ''}</span>"


def table_html(s: State, who: Sequence[str]) -> str:
    """Every player (`who`: their names): points, Charon and cards in front, hand, the token."""
    rows = []
    for p in range(s.players):
        token = " <span title='first-player token'>●</span>" if p == s.token and not s.ended else ""
        hand = cards_html(s.hand(p), empty="empty") if p == HUMAN else backs_html(sum(s.hands[p]))
        if s.out[p]:
            hand = "<b style='color:#b00020'>eliminated</b>"
        charon = s.charon_in_front(p)
        rows.append(
            f"<tr class='nessos-player'><td><b>{html.escape(who[p][0].upper() + who[p][1:])}</b>{token}</td>"
            f"<td align='center'><b>{s.scores[p]}</b></td>"
            f"<td align='center' style='color:{CHARON_RED if charon else '#888'}'>{charon}/3</td>"
            f"<td>{cards_html(s.front(p), small=True)}</td></tr>"
            f"<tr><td colspan='4' class='nessos-hand'>{'your hand ' if p == HUMAN else 'hand '}{hand}</td></tr>"
        )
    return note(
        f"Round {s.rounds + 1} · first to {s.rules.goal} points · draw pile {s.pile_size} · Charon face up "
        f"{s.charon_face_up} of {NINE}"
    ) + (
        "<table class='nessos-table'><tr><th align='left'>player</th><th>points</th><th>Charon</th>"
        f"<th align='left'>face up in front</th></tr>{''.join(rows)}</table>"
    )


def chain_html(s: State) -> str:
    """The round's offered cards face down (yours face up) with their announcements, from whom to whom."""
    if not s.chain:
        return ""
    who = ["you" if p == HUMAN else f"P{p + 1}" for p in range(s.players)]
    items = "".join(
        f"<span class='nessos-offer'>{card_html(o.card if o.sender == HUMAN else None)}<span>“{o.announced}”</span>"
        f"<span>{who[o.sender]} → {who[o.receiver]}</span></span>"
        for o in s.chain
    )
    return f"<div class='nessos-chain'><b>Offered this round</b> (face down):<br>{items}</div>"


def prompt_html(s: State, made: int) -> str:
    """What you must do now (`State.prompt`; `made`: the moves you have made, for a test to wait on)."""
    head, choices = s.prompt(HUMAN)
    text = f"<b>{head}</b> {choices}" if head else "" if s.ended else "<i>The others are playing…</i>"
    return f"<div class='nessos-prompt' data-made='{made}' style='margin:4px 0'>{text}</div>"


def unseen(s: State) -> dict[Card, int]:
    """The cards you have not seen (the deck minus your hand and every card face up), by kind."""
    return {k: n for k, n in enumerate(s.unseen(HUMAN)) if n}


def heading(text: str, margin: str = "4px 0") -> str:
    """A heading of the panel."""
    return f"<h4 style='margin:{margin}'>{html.escape(text)}</h4>"


def offer_panel_html(s: State, sender: Sender) -> str:
    """The panel for an offer to you under the `sender` model: P(Charon), the Bayes table, the answers' points."""
    pool, last = unseen(s), s.chain[-1]
    try:
        chain, answers = s.posterior(sender), s.answer_points(sender)
        table = bayes_table(pool, last.announced, s.rules.deck.values, sender)
    except ValueError as e:  # e.g. a Charon's announcement, from a bluffer with q = 0
        why = f"This model cannot explain the offer ({html.escape(str(e))}): try another q or the naive sender."
        return panel_note(why, f"Is it Charon? ({sender})")
    cards = "".join(
        f"<tr><td>card {i + 1}, announced {o.announced} by player {o.sender + 1}</td><td>{number_html(p)}</td></tr>"
        for i, (o, p) in enumerate(zip(s.chain, chain.each))
    )
    if len(s.chain) > 1:
        cards += f"<tr><td>at least one is Charon</td><td>{number_html(chain.at_least_one)}</td></tr>"
    head = "".join(f"<th>{h}</th>" for h in ("hypothesis", "prior", "likelihood", "prior × likelihood", "posterior"))
    rows = "".join(
        f"<tr><td><b>{r['hypothesis']}</b></td>"
        + "".join(f"<td>{number_html(Fraction(r[c + '_exact']))}</td>" for c in BAYES_COLUMNS)
        + "</tr>"
        for r in table.iter_rows(named=True)
    )
    best = max(v for _, v in answers)
    answered = "".join(
        f"<tr class='hint-row{' best' if v == best else ''}'><td>{html.escape(name)}</td>"
        f"<td>{number_html(v, 'value')}</td></tr>"
        for name, v in answers
    )
    alone = "Taken on its own, its sender's hand drawn from every card you have not seen; the P(Charon) above "
    alone += "weighs the whole chain (the senders' hands never share a card)."
    return (
        f"<div class='nessos-panel'>{heading(f'Is it Charon? ({sender})')}"
        + note(
            f"What you have not seen: {sum(pool.values())} cards, {pool.get(CHARON, 0)} of them Charon (the deck "
            "minus your hand and every card face up). Each sender's hand is drawn from them; a Charon is announced "
            "as any value of the deck."
        )
        + f"<table class='nessos-posterior'><tr><th>offered card</th><th>P(Charon)</th></tr>{cards}</table>"
        + heading(f"Bayes table of the last card (announced {last.announced})", "6px 0 2px")
        + (note(alone) if len(s.chain) > 1 else "")
        + f"<div class='nessus-wide'><table class='nessos-bayes hint-table'><tr>{head}</tr>{rows}</table></div>"
        + heading("Expected points of each answer", "6px 0 2px")
        + f"<table class='nessos-values hint-table'><tr><th>answer</th><th>expected points</th></tr>{answered}</table>"
        + note(
            f"A creature is worth its value (the {{1,2,3}} bonus counted), a Charon costs target/3 = "
            f"{Fraction(s.rules.goal, 3)} points (a third Charon: −{s.rules.goal}), refusing 0; passed cards come back "
            "(refused) with probability 1/2."
        )
        + "</div>"
    )


def panel_note(text: str, title: str = "Is it Charon?") -> str:
    """The panel with no offer to judge: a `title` (none if empty) and a note in italics."""
    return f"<div class='nessos-panel'>{heading(title) if title else ''}<i>{text}</i></div>"


def waiting_panel_html(s: State) -> str:
    """The panel when no offer is waiting for you."""
    if s.ended:
        return panel_note("The game is over: press New game.", "")
    return panel_note(
        "When a card is offered to you, the exact posterior that it is Charon, its Bayes table and the expected "
        "points of accepting, refusing and passing appear here."
    )


def probability(field: str, title: str) -> alt.Tooltip:
    """A tooltip for a probability, in the page's number format."""
    return alt.Tooltip(f"{field}:Q", title=title, format=d3_format("probability"))


def posterior_chart(s: State, highlight: int, q: Fraction) -> alt.LayerChart | None:
    """P(Charon | announced v) against the bluffer's q, a line per v (`highlight` thick), or None if no v can be."""
    pool, values, hand_size = unseen(s), s.rules.deck.values, s.rules.hand_size
    possible = [a for a in values if pool.get(a) or pool.get(CHARON)]
    if not possible:
        return None
    if highlight not in possible:
        highlight = possible[-1]
    naive = posterior_charon(pool, highlight, values, Sender("naive", cards=hand_size))
    frame = pl.DataFrame(
        [
            {"q": float(bluff), "announced": str(v), "posterior": float(p), "exact": str(p), "this": v == highlight}
            for v, bluff, p in posterior_by_bluff(pool, values, hand_size, Q_STEPS)
        ]
    )
    subtitle = (
        f"from the {sum(pool.values())} cards you have not seen; thick: announced {highlight}; "
        f"dashed: a naive sender ({decimal_text(naive)}); grey rule: q = {q}"
    )
    title = alt.Title("P(Charon | announced v) by the bluffer's q", subtitle=wrap_lines(subtitle, SUBTITLE_CHARS))
    base = alt.Chart(frame, title=title)
    legend = alt.Legend(title="announced", orient="bottom", columns=5)
    lines = base.mark_line().encode(
        x=alt.X("q:Q", title="bluffer's q (P(offers a Charon it holds))"),
        y=alt.Y("posterior:Q", title="P(Charon)", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("announced:N", sort=[str(v) for v in values], legend=legend),
        strokeWidth=alt.condition("datum.this", alt.value(4), alt.value(1.2)),
        tooltip=["announced", alt.Tooltip("q:Q", title="bluffer's q"), probability("posterior", "P(Charon)"), "exact"],
    )
    rule = alt.Chart(pl.DataFrame({"q": [float(q)]})).mark_rule(color="#888").encode(x="q:Q")
    flat = alt.Chart(pl.DataFrame({"naive": [float(naive)]})).mark_rule(color=CHARON_RED, strokeDash=[5, 4])
    return alt.layer(lines, rule, flat.encode(y="naive:Q")).properties(width=430, height=230)


def tournament_chart(table: pl.DataFrame, games: int) -> alt.LayerChart:
    """Each seat's win share over `games` games with its 95% Wilson interval."""
    frame = table.with_columns(player=pl.lit("seat ") + (pl.col("seat") + 1).cast(pl.Utf8) + ": " + pl.col("policy"))
    order = frame["player"].to_list()
    subtitle = "95% Wilson intervals; a shared win counts its share; seat 1: a Bayes bot with your sender model"
    base = alt.Chart(frame, title=alt.Title(f"Win share over {games} games", subtitle=wrap_lines(subtitle, 34)))
    tips = [probability("win_share", "win share"), probability("low", "95% interval from"), probability("high", "to")]
    bars = base.mark_bar(color="#2f6ea5").encode(
        y=alt.Y("player:N", sort=order, title=None),
        x=alt.X("win_share:Q", title="win share", scale=alt.Scale(domain=[0, 1])),
        tooltip=["player", *tips],
    )
    errors = base.mark_errorbar(color="#222", ticks=True).encode(
        y=alt.Y("player:N", sort=order), x=alt.X("low:Q", title="win share"), x2="high:Q"
    )
    fair = alt.Chart(pl.DataFrame({"fair": [1 / table.height]})).mark_rule(strokeDash=[4, 3], color="#888")
    return alt.layer(bars, errors, fair.encode(x="fair:Q")).properties(width=430, height=30 * table.height + 20)
