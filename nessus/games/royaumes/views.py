"""Les Royaumes' page, its pictures: the kingdoms, the dice, the log, the score sheet, the figures
and the charts, as pure functions of the round, the fine and the seats (the words, the status
line and the hint are in `words`, the odds in `odds`)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction

import altair as alt
import polars as pl

from nessus.games import royaumes
from nessus.games.royaumes import Result, State
from nessus.games.royaumes import words as w
from nessus.kit.common import dice_html
from nessus.kit.dicegame import HELD, OPTIMAL, mini_dice
from nessus.kit.match import log_html as kit_log
from nessus.numbers import Kind, d3_format, exact_str, number_html, number_text, with_decimal
from nessus.report import Figure

ON_CLICK, AT_ONCE = "when you press Play on", "at once"
MACHINES = (ON_CLICK, AT_ONCE)
KINGDOM_COLOURS = {"Gahanam": "#9d755d", "Teur": "#54a24b", "Elysium": "#4c78a8"}
FINE_STEPS = 20
MAX_LOG = 300
TOOLTIPS: dict[str, tuple[Kind, str]] = {  # a column of duel_table: (kind, label)
    "p_bank_rolls": ("probability", "P(bank rolls it)"),
    "p_player_wins": ("probability", "P(player wins)"),
    "expected_fines": ("value", "expected fines (rolls)"),
    "player_ev": ("value", "player's EV (stakes)"),
}
SHOWN: dict[str, tuple[str, Kind]] = {  # figure: (its name on the page, its kind)
    "p_bank_wins_all": ("P(the bank rolls 2-2, 5-3 or 6-6 and takes every stake)", "probability"),
    "p_bank_pays_all": ("P(the bank rolls 1-1, 3-2 or 6-3 and pays every player)", "probability"),
    "p_player_wins_duel": ("P(the bank rolls a duel result and the player beats it)", "probability"),
    "expected_fine_count": ("rolls outside the kingdom per player per round", "value"),
    "expected_fines": ("fines paid per player per round, in stakes", "value"),
    "player_ev": ("a player's expected net gain per round, in stakes", "value"),
    "bank_edge": ("the bank's expected gain per player per round, in stakes", "value"),
    "fair_fine": ("the fine that would make the game fair, in stakes", "value"),
}


# -- the table -------------------------------------------------------------------------------------
def kingdoms_html(bank: Result | None, last: Result | None) -> str:
    """The 21 results in their kingdoms, lowest to highest: the bank's result ringed, the results
    that beat it in green, the last player roll ringed in orange, the special results marked."""
    rows = []
    kingdom = royaumes.kingdom_of(bank) if bank and royaumes.bank_outcome(bank) == "duel" else None
    for name, results in royaumes.KINGDOMS.items():
        cells = []
        for r in results:
            style = "border:2px solid transparent;border-radius:6px;padding:1px 2px;text-align:center"
            classes = ["royaumes-cell"]
            if bank is not None and kingdom == name and royaumes.rank_of(r) > royaumes.rank_of(bank):
                style += ";background:#dff0d8"
                classes.append("beats")
            if r == bank:
                style += ";border-color:#222;background:#eee"
                classes.append("bank")
            if r == last:
                style += f";border-color:{HELD}"
                classes.append("last")
            mark = (
                "<span title='the bank wins every stake' style='color:#b00020'>✖</span>"
                if r in royaumes.BANK_WINS_ALL
                else "<span title='the bank pays every player' style='color:#2e7d32'>✚</span>"
                if r in royaumes.BANK_PAYS_ALL
                else "&nbsp;"
            )
            cells.append(
                f"<td class='{' '.join(classes)}' data-result='{w.result_text(r)}' style='{style}'>"
                f"{mini_dice(r, size=18)}<div style='font-size:11px;line-height:13px'>{w.result_text(r)} {mark}</div>"
                "</td>"
            )
        weight = "bold" if name == kingdom else "normal"
        rows.append(
            f"<tr><td style='font-weight:{weight};color:{KINGDOM_COLOURS[name]};padding-right:6px'>{name}"
            f"<div style='font-size:10px;color:#777'>{exact_str(royaumes.p_kingdom(name))} a roll</div>"
            f"</td>{''.join(cells)}</tr>"
        )
    return (
        "<table class='royaumes-kingdoms' style='border-collapse:separate;border-spacing:2px;font-size:12px'>"
        f"{''.join(rows)}</table><small style='color:#555'>Each kingdom lowest to highest. "
        "<span style='color:#b00020'>✖</span> the bank wins every stake, "
        "<span style='color:#2e7d32'>✚</span> the bank pays every player.</small>"
    )


# -- the round -------------------------------------------------------------------------------------
def dice_panel(rnd: State, bank_name: str, last: tuple[str, tuple[int, int]] | None) -> str:
    """The bank's dice and the last player roll (`last`: who rolled it and the dice), big."""
    result = rnd.bank_result
    bank = (
        dice_html(rnd.bank)
        + f"<div style='font-size:12px'><b>{w.result_text(result)}</b> · {w.place_text(result)}</div>"
        if rnd.bank and result
        else dice_html((), empty="not rolled yet")
    )
    player = ""
    if last:
        who, dice = last
        r = royaumes.result_of(dice)
        player = (
            f"<div class='royaumes-player-dice' style='margin-left:24px'><div style='font-size:12px;color:#555'>"
            f"{html.escape(who)}: last roll</div>{dice_html(dice)}"
            f"<div style='font-size:12px'><b>{w.result_text(r)}</b> · {w.place_text(r)}</div></div>"
        )
    return (
        f"<div style='display:flex;align-items:flex-end;margin:6px 0'><div class='royaumes-bank-dice'>"
        f"<div style='font-size:12px;color:#555'>{html.escape(bank_name)}</div>{bank}</div>{player}</div>"
    )


def roll_line(after: State, seat: int | None, dice: tuple[int, int], who: str, fine: Fraction) -> str:
    """A roll in the log: the round, who rolled (`seat` None: the bank), the dice, what it did."""
    roll = f"{html.escape(who)} roll{'' if who.startswith('You') else 's'} {mini_dice(dice, 16)}"
    result = w.result_text(royaumes.result_of(dice))
    return f"<b>Round {after.round}.</b> {roll} <b>{result}</b> {w.roll_text(after, seat, dice, fine)}"


def log_html(lines: Sequence[str]) -> str:
    """The rolls so far, the latest first (the last MAX_LOG; the kit's log, `data-lines` counts them all)."""
    return (
        "<div style='font-size:13px;line-height:1.7;max-height:170px;overflow-y:auto;border-top:1px solid #ddd;"
        f"margin-top:6px'>{kit_log(lines, 'royaumes-log', MAX_LOG, escape=False)}</div>"
    )


def sheet_html(
    rnd: State,
    totals: Sequence[Fraction],
    played: int,
    fine: Fraction,
    names: Sequence[str],
    bank_name: str,
    you: int | None,
) -> str:
    """This round and the running bankrolls of every seat (`you` None: you hold the bank)."""
    rows = []
    for seat, name in enumerate(names):
        rolls = " ".join(mini_dice(d, 14) for d in rnd.rolls[seat]) or "<span style='color:#999'>–</span>"
        rows.append(
            f"<tr class='royaumes-player' style='{w.mine_style(seat == you)}'><td>{html.escape(name)}</td><td>{rolls}"
            "</td>"
            f"<td align='center'>{rnd.fines[seat]}</td><td>{w.stakes_html(rnd.nets[seat])}</td>"
            f"<td><b>{w.stakes_html(totals[seat])}</b></td></tr>"
        )
    bank_total = -sum(totals, Fraction(0))
    rows.append(
        f"<tr class='royaumes-player bank' style='{w.mine_style(you is None, '2px solid #bbb')}'>"
        f"<td>{html.escape(bank_name)}</td>"
        f"<td>{mini_dice(rnd.bank, 14) if rnd.bank else ''}</td><td></td><td>{w.stakes_html(rnd.bank_net)}</td>"
        f"<td><b>{w.stakes_html(bank_total)}</b></td></tr>"
    )
    expected = royaumes.bank_ev(fine, len(names), played)
    rounds = f"{played} round{'s' if played != 1 else ''}"
    return (
        f"<h4 style='margin:8px 0 2px'>Score sheet: {rounds} played</h4>"
        "<table class='royaumes-sheet' cellpadding='3' style='border-collapse:collapse;width:100%;font-size:13px'>"
        "<tr><th align='left'>seat</th><th align='left'>rolls this round</th><th>fines</th><th align='left'>this round"
        "</th>"
        f"<th align='left'>bankroll</th></tr>{''.join(rows)}</table>"
        f"<div class='royaumes-result' style='font-size:13px;margin-top:2px'>The bank's expected net after {rounds}: "
        f"{w.stakes_html(expected)} stakes; it has {w.stakes_html(bank_total)}.</div>"
    )


def _exact(figure: Figure) -> Fraction:
    """An exact figure's value."""
    if figure.exact is None:
        raise ValueError("the figure must be exact")
    return figure.exact


def figures_html(rules: royaumes.Rules) -> str:
    """The round's exact figures per player (SHOWN), at these rules."""
    figures = royaumes.report(rules).figures
    body = "".join(
        f"<tr><td>{html.escape(label)}</td><td style='white-space:nowrap'>{number_html(_exact(figures[k]), kind)}</td>"
        "</tr>"
        for k, (label, kind) in SHOWN.items()
    )
    return (
        f"<table class='figures' cellpadding='2' style='font-size:13px'>{body}</table>"
        "<small style='color:#555'>Exact, per player per round. The fair fine is negative: even without "
        "fines the bank has the edge.</small>"
    )


# -- charts ----------------------------------------------------------------------------------------
def ev_frame(fine: Fraction) -> pl.DataFrame:
    """A player's EV and the bank's edge per round at fines 0, 1/20, ..., 1 and at `fine` (`odds.ev_by_fine`)."""
    rows: dict[str, list] = {"fine": [], "who": [], "stakes": [], "exact": [], "current": []}
    for f, ev in royaumes.ev_by_fine(fine, FINE_STEPS):
        for who, v in (("player's expected value", ev), ("bank's edge", -ev)):
            rows["fine"].append(float(f))
            rows["who"].append(who)
            rows["stakes"].append(float(v))
            rows["exact"].append(number_text(v, kind="value"))
            rows["current"].append(f == fine)
    return pl.DataFrame(rows)


def ev_chart(frame: pl.DataFrame, title: alt.Title) -> alt.LayerChart:
    """Two lines against the fine, the current fine marked by a rule and labelled points."""
    colours = alt.Scale(domain=["player's expected value", "bank's edge"], range=[OPTIMAL, HELD])
    base = alt.Chart(frame).encode(
        x=alt.X("fine:Q", title="fine per roll outside the bank's kingdom (stakes)", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("stakes:Q", title="stakes per player per round"),
        color=alt.Color("who:N", scale=colours, title=None, legend=alt.Legend(orient="top")),
        tooltip=[
            "who",
            alt.Tooltip("fine:Q", format=d3_format("value")),
            alt.Tooltip("stakes:Q", format=d3_format("value")),
            "exact",
        ],
    )
    lines = base.mark_line()
    now = frame.filter(pl.col("current"))
    rule = alt.Chart(now.head(1)).mark_rule(strokeDash=[4, 3], color="#555").encode(x="fine:Q")
    points = base.transform_filter(alt.datum.current).mark_point(filled=True, size=70)
    labels = base.transform_filter(alt.datum.current).mark_text(dx=8, align="left", fontSize=11).encode(text="exact:N")
    zero = alt.Chart(pl.DataFrame({"y": [0.0]})).mark_rule(color="#999").encode(y="y:Q")
    return alt.layer(zero, lines, rule, points, labels, title=title).properties(width=470, height=190)


def duel_frame(fine: Fraction, bank: Result | None) -> pl.DataFrame:
    """`royaumes.duel_table` at this fine, its figures also as text in the page's number format
    (columns `..._text`), with the bank's current result flagged."""
    table = royaumes.duel_table(royaumes.Rules(fine=fine))
    now = w.result_text(bank) if bank else ""
    texts = [
        pl.Series(f"{c}_text", [number_text(Fraction(x), kind=k) for x in table[f"{c}_exact"]])
        for c, (k, _) in TOOLTIPS.items()
    ]
    return table.with_columns(*texts, (pl.col("result") == now).alias("now"))


def duel_chart(frame: pl.DataFrame, title: alt.Title, highlight: bool) -> alt.LayerChart:
    """P(a player wins) for each result the bank can roll, coloured by kingdom; the bank's result
    of this round stands out."""
    order = frame["result"].to_list()
    kingdoms = list(royaumes.KINGDOMS)
    base = alt.Chart(frame).encode(
        x=alt.X(
            "result:N",
            sort=order,
            title="the bank's result (each kingdom lowest to highest)",
            axis=alt.Axis(labelAngle=-45),
        ),
        y=alt.Y("p_player_wins:Q", title="P(a player wins)", scale=alt.Scale(domain=[0, 1])),
    )
    opacity = alt.condition(alt.datum.now, alt.value(1.0), alt.value(0.35)) if highlight else alt.value(0.9)
    bars = base.mark_bar(stroke="#222").encode(
        color=alt.Color(
            "kingdom:N",
            sort=kingdoms,
            scale=alt.Scale(domain=kingdoms, range=list(KINGDOM_COLOURS.values())),
            legend=alt.Legend(orient="top", title=None),
        ),
        opacity=opacity,
        strokeWidth=alt.condition(alt.datum.now, alt.value(2), alt.value(0)),
        tooltip=[
            alt.Tooltip("result:N", title="bank rolls"),
            "kingdom",
            "outcome",
            *(alt.Tooltip(f"{c}_text:N", title=label) for c, (_, label) in TOOLTIPS.items()),
        ],
    )
    text = base.mark_text(dy=-6, fontSize=9, color="#333").encode(text="p_player_wins_exact:N")
    return alt.layer(bars, text, title=title).properties(width=470, height=190)


def ev_title(fine: Fraction) -> alt.Title:
    """The EV chart's title: the EV as a line in the fine, and its value at this fine."""
    ev = royaumes.player_ev(fine)
    return alt.Title(
        "A player's expected value per round, by fine (exact)",
        subtitle=f"EV = {exact_str(royaumes.player_ev(Fraction(0)))} − fine × {exact_str(royaumes.fines_per_round())}; "
        f"at fine {exact_str(fine)}: {with_decimal(ev, 'value')}",
    )


def duel_title(bank: Result | None) -> alt.Title:
    """The duel chart's title, naming the bank's result this round."""
    now = f"this round: the bank rolled {w.result_text(bank)}" if bank else "this round: the bank has not rolled yet"
    return alt.Title(
        "P(a player wins) for each result of the bank (exact)",
        subtitle=f"✖ results: 0 (the bank takes all), ✚ results: 1 (it pays all); {now}",
    )
