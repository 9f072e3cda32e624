"""The Nessos dashboard's pictures beside the table (drawn in `table`): the live Bayes panel for
an offer you receive, and the charts (the posterior against the bluffer's q, a tournament's win
shares with their intervals).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from fractions import Fraction

import altair as alt
import polars as pl

from nessus.games.nessos.deck import CHARON, Card, card_text
from nessus.games.nessos.odds import Chain, Sender, bayes_table, posterior_by_bluff, posterior_charon
from nessus.games.nessos.state import ACCEPT, REFUSE, Pass, State
from nessus.games.nessos.table import CHARON_RED, HUMAN
from nessus.kit.common import wrap_lines
from nessus.numbers import d3_format, decimal_text, number_html
from nessus.solver import Hint

SUBTITLE_CHARS = 44
"""Characters per subtitle line (a phone's chart is about 340 px wide)."""
Q_STEPS = 20
"""The posterior chart's q from 0 to 1 in this many steps."""


def unseen(s: State) -> dict[Card, int]:
    """The cards you have not seen (the deck minus your hand and every card face up), by kind."""
    return {k: n for k, n in enumerate(s.unseen(HUMAN)) if n}


# -- the Bayes panel ------------------------------------------------------------------------------
def offer_panel_html(s: State, sender: Sender) -> str:
    """The panel for the offer waiting for you (`panel_html`) under the `sender` model, or why
    that model cannot explain it (`impossible_html`)."""
    pool = unseen(s)
    try:
        chain, hint = s.posterior(sender), s.hint(sender)
        table = bayes_table(pool, s.chain[-1].announced, s.rules.deck.values, sender)
    except ValueError as e:  # e.g. a Charon's announcement, from a bluffer with q = 0
        return impossible_html(str(e), sender)
    return panel_html(s, chain, table, hint, sender, sum(pool.values()), pool.get(CHARON, 0))


def panel_html(
    s: State,
    chain: Chain,
    table: pl.DataFrame,
    hint: Hint,
    sender: Sender,
    pool_size: int,
    pool_charon: int,
) -> str:
    """Your offer: P(each offered card is Charon), the Bayes table of the last one, and the
    expected points of accept / refuse / pass (the `hint`: the best card to pass), the best marked."""
    cards = "".join(
        f"<tr><td>card {i + 1}, announced {o.announced} by player {o.sender + 1}</td><td>{number_html(p)}</td></tr>"
        for i, (o, p) in enumerate(zip(s.chain, chain.each))
    )
    if len(s.chain) > 1:
        cards += f"<tr><td>at least one is Charon</td><td>{number_html(chain.at_least_one)}</td></tr>"
    head = "".join(f"<th>{h}</th>" for h in ("hypothesis", "prior", "likelihood", "prior × likelihood", "posterior"))
    rows = "".join(
        f"<tr><td><b>{r['hypothesis']}</b></td>"
        + "".join(
            f"<td>{number_html(Fraction(r[c + '_exact']))}</td>"
            for c in ("prior", "likelihood", "unnormalised", "posterior")
        )
        + "</tr>"
        for r in table.iter_rows(named=True)
    )
    choices = [("accept", hint.values[ACCEPT]), ("refuse", hint.values[REFUSE])]
    passes = [(a.card, v) for a, v in hint.values.items() if isinstance(a, Pass)]
    if passes:
        top = max(v for _, v in passes)
        card = next(c for c, v in passes if v == top)  # the lowest card among equals
        choices.append((f"add your {card_text(card)} and pass", top))
    best = max(v for _, v in choices)
    answers = "".join(
        f"<tr class='hint-row{' best' if v == best else ''}'><td>{html.escape(name)}</td>"
        f"<td>{number_html(v, 'value')}</td></tr>"
        for name, v in choices
    )
    last = s.chain[-1]
    alone = (
        "<div style='font-size:12px;color:#555'>Taken on its own, its sender's hand drawn from every card you "
        "have not seen; the P(Charon) above weighs the whole chain (the senders' hands never share a card).</div>"
        if len(s.chain) > 1
        else ""
    )
    return (
        f"<div class='nessos-panel'><h4 style='margin:4px 0'>Is it Charon? ({html.escape(str(sender))})</h4>"
        f"<div style='font-size:12px;color:#555'>What you have not seen: {pool_size} cards, {pool_charon} of them "
        "Charon (the deck minus your hand and every card face up). Each sender's hand is drawn from them; "
        "a Charon is announced as any value of the deck.</div>"
        f"<table class='nessos-posterior'><tr><th>offered card</th><th>P(Charon)</th></tr>{cards}</table>"
        f"<h4 style='margin:6px 0 2px'>Bayes table of the last card (announced {last.announced})</h4>"
        f"{alone}"
        f"<div class='nessus-wide'><table class='nessos-bayes hint-table'><tr>{head}</tr>{rows}</table></div>"
        f"<h4 style='margin:6px 0 2px'>Expected points of each answer</h4>"
        f"<table class='nessos-values hint-table'><tr><th>answer</th><th>expected points</th></tr>{answers}</table>"
        "<div style='font-size:12px;color:#555'>A creature is worth its value (the {1,2,3} bonus counted), a "
        f"Charon costs target/3 = {Fraction(s.rules.goal, 3)} points (a third Charon: −{s.rules.goal}), refusing 0; "
        "passed cards come back (refused) with probability 1/2.</div></div>"
    )


def note_html(text: str, heading: str = "Is it Charon?") -> str:
    """The panel with no offer to judge: a `heading` (none if empty) and a note in italics."""
    head = f"<h4 style='margin:4px 0'>{html.escape(heading)}</h4>" if heading else ""
    return f"<div class='nessos-panel'>{head}<i>{text}</i></div>"


def impossible_html(reason: str, sender: Sender) -> str:
    """The panel when the offer cannot happen under the chosen sender model."""
    why = f"This model cannot explain the offer ({html.escape(reason)}): try another q or the naive sender."
    return note_html(why, f"Is it Charon? ({sender})")


def waiting_panel_html(s: State) -> str:
    """The panel when no offer is waiting for you."""
    if s.ended:
        return note_html("The game is over: press New game.", "")
    return note_html(
        "When a card is offered to you, the exact posterior that it is Charon, its Bayes table and the expected "
        "points of accepting, refusing and passing appear here."
    )


# -- charts ---------------------------------------------------------------------------------------
def posterior_frame(pool: Mapping[Card, int], values: Sequence[int], hand_size: int, highlight: int) -> pl.DataFrame:
    """`odds.posterior_by_bluff` as a frame, `highlight` marking the value to stress (the offer's)."""
    rows = [
        {"q": float(q), "announced": str(v), "posterior": float(p), "exact": str(p), "this": v == highlight}
        for v, q, p in posterior_by_bluff(pool, values, hand_size, Q_STEPS)
    ]
    return pl.DataFrame(rows)


def posterior_chart(s: State, highlight: int, q: Fraction) -> alt.LayerChart | None:
    """The posterior that a card announced v is Charon against the bluffer's q, from the cards
    you have not seen, one line per v (`highlight` thick, or the highest value a card you have
    not seen can be announced as), a rule at the chosen q and the naive sender's posterior; None
    when no announcement is possible."""
    pool, values, hand_size = unseen(s), s.rules.deck.values, s.rules.hand_size
    possible = [a for a in values if pool.get(a) or pool.get(CHARON)]
    if not possible:
        return None
    if highlight not in possible:
        highlight = possible[-1]
    naive = posterior_charon(pool, highlight, values, Sender("naive", cards=hand_size))
    frame = posterior_frame(pool, values, hand_size, highlight)
    base = alt.Chart(
        frame,
        title=alt.Title(
            "P(Charon | announced v) by the bluffer's q",
            subtitle=wrap_lines(
                f"from the {sum(pool.values())} cards you have not seen; thick: announced {highlight}; "
                f"dashed: a naive sender ({decimal_text(naive)}); grey rule: q = {q}",
                SUBTITLE_CHARS,
            ),
        ),
    )
    lines = base.mark_line().encode(
        x=alt.X("q:Q", title="bluffer's q (P(offers a Charon it holds))"),
        y=alt.Y("posterior:Q", title="P(Charon)", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(
            "announced:N",
            sort=[str(v) for v in values],
            legend=alt.Legend(title="announced", orient="bottom", columns=5),
        ),
        strokeWidth=alt.condition("datum.this", alt.value(4), alt.value(1.2)),
        tooltip=[
            "announced",
            alt.Tooltip("q:Q", title="bluffer's q"),
            alt.Tooltip("posterior:Q", title="P(Charon)", format=d3_format("probability")),
            "exact",
        ],
    )
    rule = alt.Chart(pl.DataFrame({"q": [float(q)]})).mark_rule(color="#888").encode(x="q:Q")
    flat = (
        alt.Chart(pl.DataFrame({"naive": [float(naive)]}))
        .mark_rule(color=CHARON_RED, strokeDash=[5, 4])
        .encode(y="naive:Q")
    )
    return alt.layer(lines, rule, flat).properties(width=430, height=230)


def tournament_chart(table: pl.DataFrame, games: int) -> alt.LayerChart:
    """Each seat's win share over `games` games with its 95% Wilson interval."""
    frame = table.with_columns(
        (pl.col("seat") + 1).cast(pl.Utf8).alias("seat label"),
    ).with_columns((pl.lit("seat ") + pl.col("seat label") + pl.lit(": ") + pl.col("policy")).alias("player"))
    order = frame["player"].to_list()
    base = alt.Chart(
        frame,
        title=alt.Title(
            f"Win share over {games} games",
            subtitle=wrap_lines(
                "95% Wilson intervals; a shared win counts its share; seat 1: a Bayes bot with your sender model", 34
            ),
        ),
    )
    bars = base.mark_bar(color="#2f6ea5").encode(
        y=alt.Y("player:N", sort=order, title=None),
        x=alt.X("win_share:Q", title="win share", scale=alt.Scale(domain=[0, 1])),
        tooltip=[
            "player",
            alt.Tooltip("win_share:Q", title="win share", format=d3_format("probability")),
            alt.Tooltip("low:Q", title="95% interval from", format=d3_format("probability")),
            alt.Tooltip("high:Q", title="to", format=d3_format("probability")),
        ],
    )
    errors = base.mark_errorbar(color="#222", ticks=True).encode(
        y=alt.Y("player:N", sort=order), x=alt.X("low:Q", title="win share"), x2="high:Q"
    )
    fair = (
        alt.Chart(pl.DataFrame({"fair": [1 / table.height]}))
        .mark_rule(strokeDash=[4, 3], color="#888")
        .encode(x="fair:Q")
    )
    return alt.layer(bars, errors, fair).properties(width=430, height=30 * table.height + 20)
