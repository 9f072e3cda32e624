"""The Nessos dashboard's pictures beside the table (drawn in `table`): the live Bayes panel for
an offer you receive, the posterior against the bluffer's q and a tournament's win shares.
"""

from __future__ import annotations

import html
from fractions import Fraction

import altair as alt
import polars as pl

from nessus.games.nessos.deck import CHARON, Card
from nessus.games.nessos.odds import Sender, bayes_table, posterior_by_bluff, posterior_charon
from nessus.games.nessos.state import State
from nessus.games.nessos.table import CHARON_RED, HUMAN, note
from nessus.kit.common import wrap_lines
from nessus.numbers import d3_format, decimal_text, number_html

SUBTITLE_CHARS = 44
"""Characters per subtitle line (a phone's chart is about 340 px wide)."""
Q_STEPS = 20
"""The posterior chart's q from 0 to 1 in this many steps."""
BAYES_COLUMNS = ("prior", "likelihood", "unnormalised", "posterior")


def unseen(s: State) -> dict[Card, int]:
    """The cards you have not seen (the deck minus your hand and every card face up), by kind."""
    return {k: n for k, n in enumerate(s.unseen(HUMAN)) if n}


def heading(text: str, margin: str = "4px 0") -> str:
    """A heading of the panel."""
    return f"<h4 style='margin:{margin}'>{html.escape(text)}</h4>"


# -- the Bayes panel ------------------------------------------------------------------------------
def offer_panel_html(s: State, sender: Sender) -> str:
    """The panel for the offer waiting for you under the `sender` model: P(each offered card is
    Charon), the Bayes table of the last one and the expected points of each answer
    (`State.answer_points`), the best marked; or why that model cannot explain the offer."""
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
    alone = (
        "Taken on its own, its sender's hand drawn from every card you have not seen; the P(Charon) above weighs "
        "the whole chain (the senders' hands never share a card)."
    )
    goal = s.rules.goal
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
            f"{Fraction(goal, 3)} points (a third Charon: −{goal}), refusing 0; passed cards come back (refused) "
            "with probability 1/2."
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


# -- charts ---------------------------------------------------------------------------------------
def posterior_chart(s: State, highlight: int, q: Fraction) -> alt.LayerChart | None:
    """The posterior that a card announced v is Charon against the bluffer's q, from the cards
    you have not seen (`odds.posterior_by_bluff`), one line per v (`highlight` thick, or the
    highest value a card you have not seen can be announced as), a rule at the chosen q and the
    naive sender's posterior; None when no announcement is possible."""
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
    base = alt.Chart(
        frame,
        title=alt.Title("P(Charon | announced v) by the bluffer's q", subtitle=wrap_lines(subtitle, SUBTITLE_CHARS)),
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
    flat = alt.Chart(pl.DataFrame({"naive": [float(naive)]})).mark_rule(color=CHARON_RED, strokeDash=[5, 4])
    return alt.layer(lines, rule, flat.encode(y="naive:Q")).properties(width=430, height=230)


def tournament_chart(table: pl.DataFrame, games: int) -> alt.LayerChart:
    """Each seat's win share over `games` games with its 95% Wilson interval."""
    frame = table.with_columns((pl.col("seat") + 1).cast(pl.Utf8).alias("seat label"))
    frame = frame.with_columns(player=pl.lit("seat ") + pl.col("seat label") + pl.lit(": ") + pl.col("policy"))
    order = frame["player"].to_list()
    subtitle = "95% Wilson intervals; a shared win counts its share; seat 1: a Bayes bot with your sender model"
    base = alt.Chart(frame, title=alt.Title(f"Win share over {games} games", subtitle=wrap_lines(subtitle, 34)))
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
    fair = alt.Chart(pl.DataFrame({"fair": [1 / table.height]})).mark_rule(strokeDash=[4, 3], color="#888")
    return alt.layer(bars, errors, fair.encode(x="fair:Q")).properties(width=430, height=30 * table.height + 20)
