"""Les Royaumes' page, its pictures: the kingdoms, the dice, the log, the score sheet, the figures
and the charts, from the round and `you` (your player seat from 0, None at the bank)."""

from __future__ import annotations

import html
from fractions import Fraction

import altair as alt
import polars as pl

from nessus.game import Action
from nessus.game import State as AnyState
from nessus.games import royaumes
from nessus.games.royaumes import Result, State, place_text, result_of, result_text
from nessus.games.royaumes.state import seat_name
from nessus.games.royaumes.words import odds_lines, stakes_html
from nessus.kit import goals
from nessus.kit.common import dice_html
from nessus.kit.dicegame import HELD, OPTIMAL, mini_dice
from nessus.kit.tablegame import tinted
from nessus.numbers import Kind, d3_format, exact_str, number_html, number_text, with_decimal

KINGDOM_COLOURS = {"Gahanam": "#9d755d", "Teur": "#54a24b", "Elysium": "#4c78a8"}
FINE_STEPS = 20
MAX_LOG = 300
CELL = {"beats": ";background:#dff0d8", "bank": ";border-color:#222;background:#eee", "last": f";border-color:{HELD}"}
"""A kingdom's cell: its style for a result that beats the bank's, the bank's result, the last player roll."""
MARKS = {
    **dict.fromkeys(royaumes.BANK_WINS_ALL, "<span title='the bank wins every stake' style='color:#b00020'>✖</span>"),
    **dict.fromkeys(royaumes.BANK_PAYS_ALL, "<span title='the bank pays every player' style='color:#2e7d32'>✚</span>"),
}
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
def kingdoms_html(rnd: State) -> str:
    """The 21 results in their kingdoms, lowest to highest: the bank's result ringed, the results
    that beat it in green, the last player roll ringed in orange, the special results marked."""
    bank, last = rnd.bank_result, result_of(rnd.last_roll[1]) if rnd.last_roll else None
    duel = royaumes.kingdom_of(bank) if bank and rnd.outcome == "duel" else None
    rows = []
    for name, results in royaumes.KINGDOMS.items():
        cells = []
        for r in results:
            beats = bank is not None and duel == name and royaumes.rank_of(r) > royaumes.rank_of(bank)
            lit = [c for c, on in (("beats", beats), ("bank", r == bank), ("last", r == last)) if on]
            style = "border:2px solid transparent;border-radius:6px;padding:1px 2px;text-align:center"
            cells.append(
                f"<td class='{' '.join(['royaumes-cell', *lit])}' data-result='{result_text(r)}' "
                f"style='{style}{''.join(CELL[c] for c in lit)}'>{mini_dice(r, size=18)}"
                f"<div style='font-size:11px;line-height:13px'>{result_text(r)} {MARKS.get(r, '&nbsp;')}</div></td>"
            )
        rows.append(
            f"<tr><td style='font-weight:{'bold' if name == duel else 'normal'};color:{KINGDOM_COLOURS[name]};"
            f"padding-right:6px'>{name}<div style='font-size:10px;color:#777'>"
            f"{exact_str(royaumes.p_kingdom(name))} a roll</div></td>{''.join(cells)}</tr>"
        )
    return (
        "<table class='royaumes-kingdoms' style='border-collapse:separate;border-spacing:2px;font-size:12px'>"
        f"{''.join(rows)}</table><small style='color:#555'>Each kingdom lowest to highest. "
        "<span style='color:#b00020'>✖</span> the bank wins every stake, "
        "<span style='color:#2e7d32'>✚</span> the bank pays every player.</small>"
    )


def roll_html(dice: tuple[int, int]) -> str:
    """Two dice, big, with their result and where it stands."""
    r = result_of(dice)
    return f"{dice_html(dice)}<div style='font-size:12px'><b>{result_text(r)}</b> · {place_text(r)}</div>"


def dice_panel(rnd: State, you: int | None) -> str:
    """The bank's dice and the last player roll this round, big."""
    bank = roll_html(rnd.bank) if rnd.bank else dice_html((), empty="not rolled yet")
    player = ""
    if rnd.last_roll:
        seat, dice = rnd.last_roll
        player = (
            f"<div class='royaumes-player-dice' style='margin-left:24px'><div style='font-size:12px;color:#555'>"
            f"{html.escape(seat_name(seat, you))}: last roll</div>{roll_html(dice)}</div>"
        )
    return (
        f"<div style='display:flex;align-items:flex-end;margin:6px 0'><div class='royaumes-bank-dice'>"
        f"<div style='font-size:12px;color:#555'>{html.escape(seat_name(None, you))}</div>{bank}</div>{player}</div>"
    )


def roll_line(before: AnyState, action: Action, you: int | None) -> str:
    """A roll in the log (`action` the dice rolled from `before`): the round, who rolled, the dice, what it did."""
    assert isinstance(before, State) and isinstance(action, tuple)
    dice = (int(action[0]), int(action[1]))
    bank = before.bank is None or before.round_over
    who = seat_name(None if bank else before.settled, you)
    roll = f"{html.escape(who)} roll{'' if who.startswith('You') else 's'} {mini_dice(dice, 16)}"
    return f"<b>Round {before.round + bank}.</b> {roll} <b>{result_text(result_of(dice))}</b> {before.describe(dice)}"


def sheet_html(rnd: State, you: int | None) -> str:
    """This round and the running bankrolls of every seat."""
    rows, totals, played = [], rnd.banked(), rnd.rounds_finished
    for seat, total in enumerate(totals):
        rolls = " ".join(mini_dice(d, 14) for d in rnd.rolls[seat]) or "<span style='color:#999'>–</span>"
        rows.append(
            f"<tr class='royaumes-player' style='{tinted(seat == you)}'><td>{seat_name(seat, you)}</td>"
            f"<td>{rolls}</td><td align='center'>{rnd.fines[seat]}</td><td>{stakes_html(rnd.nets[seat])}</td>"
            f"<td><b>{stakes_html(total)}</b></td></tr>"
        )
    bank_total = -sum(totals, Fraction(0))
    rows.append(
        f"<tr class='royaumes-player bank' style='{tinted(you is None, '2px solid #bbb')}'>"
        f"<td>{html.escape(seat_name(None, you))}</td><td>{mini_dice(rnd.bank, 14) if rnd.bank else ''}</td><td></td>"
        f"<td>{stakes_html(rnd.bank_net)}</td><td><b>{stakes_html(bank_total)}</b></td></tr>"
    )
    expected = royaumes.bank_ev(rnd.rules.fine, len(totals), played)
    rounds = f"{played} round{'s' if played != 1 else ''}"
    return (
        f"<h4 style='margin:8px 0 2px'>Score sheet: {rounds} played</h4>"
        "<table class='royaumes-sheet' cellpadding='3' style='border-collapse:collapse;width:100%;font-size:13px'>"
        "<tr><th align='left'>seat</th><th align='left'>rolls this round</th><th>fines</th>"
        f"<th align='left'>this round</th><th align='left'>bankroll</th></tr>{''.join(rows)}</table>"
        f"<div class='royaumes-result' style='font-size:13px;margin-top:2px'>The bank's expected net after {rounds}: "
        f"{stakes_html(expected)} stakes; it has {stakes_html(bank_total)}.</div>"
    )


def figures_html(rules: royaumes.Rules) -> str:
    """The round's exact figures per player (SHOWN), at these rules."""
    figures = royaumes.report(rules).figures
    rows = [
        (html.escape(label), f"<span style='white-space:nowrap'>{number_html(figures[key].exact or 0, kind)}</span>")
        for key, (label, kind) in SHOWN.items()
    ]
    note = "Exact, per player per round. The fair fine is negative: even without fines the bank has the edge."
    return goals.figures_html((), rows, f"<small style='color:#555'>{note}</small>", nowrap=False)


def hint_html(rnd: State, you: int | None) -> str:
    """The odds of the round from here (`odds_lines`) and every seat's expected net for it
    (`royaumes.expected_nets`)."""
    nets = royaumes.expected_nets(rnd)
    bank_ev = -sum(nets, Fraction(0))
    head, lines = odds_lines(rnd)
    figures = "".join(f"<tr><td>{a}</td><td style='white-space:nowrap'>{b}</td></tr>" for a, b in lines)
    rows = [
        f"<tr class='hint-row' data-seat='{seat + 1}' style='{tinted(seat == you, '1px solid #eee')}'>"
        f"<td>{seat_name(seat, you)}</td><td>{rnd.seat_status(seat)}</td><td>{stakes_html(rnd.nets[seat])}</td>"
        f"<td>{stakes_html(net)}</td></tr>"
        for seat, net in enumerate(nets)
    ]
    rows.append(
        f"<tr class='hint-row' data-seat='bank' style='{tinted(you is None, '1px solid #ccc')}'>"
        f"<td>{seat_name(None, you)}</td><td></td><td>{stakes_html(rnd.bank_net)}</td><td>{stakes_html(bank_ev)}</td>"
        "</tr>"
    )
    return (
        f"<div class='hint-best' style='margin:2px 0'>Your expected net this round, from here: "
        f"<b>{stakes_html(bank_ev if you is None else nets[you])}</b> stakes</div>"
        f"<div style='color:#444;font-size:13px'>{head}</div>"
        f"<table class='figures-hint' cellpadding='2' style='font-size:13px'>{figures}</table>"
        "<table class='hint-table' cellpadding='3' style='border-collapse:collapse;width:100%;font-size:13px;"
        "margin-top:4px'><tr style='background:#f4f4f4'><th align='left'>seat</th><th align='left'>duel</th>"
        f"<th align='left'>net so far</th><th align='left'>expected net this round</th></tr>{''.join(rows)}</table>"
        "<small style='color:#555'>Exact. The fines already paid are gone; the rolls to come do not depend on them."
        "</small>"
    )


# -- charts ----------------------------------------------------------------------------------------
def ev_chart(fine: Fraction) -> alt.LayerChart:
    """A player's EV and the bank's edge per round against the fine, `fine` marked and labelled."""
    frame = pl.DataFrame(
        {"fine": float(f), "who": who, "stakes": float(v), "exact": number_text(v, kind="value"), "current": f == fine}
        for f, ev in royaumes.ev_by_fine(fine, FINE_STEPS)
        for who, v in (("player's expected value", ev), ("bank's edge", -ev))
    )
    colours = alt.Scale(domain=["player's expected value", "bank's edge"], range=[OPTIMAL, HELD])
    value = d3_format("value")
    base = alt.Chart(frame).encode(
        x=alt.X("fine:Q", title="fine per roll outside the bank's kingdom (stakes)", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("stakes:Q", title="stakes per player per round"),
        color=alt.Color("who:N", scale=colours, title=None, legend=alt.Legend(orient="top")),
        tooltip=["who", alt.Tooltip("fine:Q", format=value), alt.Tooltip("stakes:Q", format=value), "exact"],
    )
    lines = base.mark_line()
    now = frame.filter(pl.col("current"))
    rule = alt.Chart(now.head(1)).mark_rule(strokeDash=[4, 3], color="#555").encode(x="fine:Q")
    points = base.transform_filter(alt.datum.current).mark_point(filled=True, size=70)
    labels = base.transform_filter(alt.datum.current).mark_text(dx=8, align="left", fontSize=11).encode(text="exact:N")
    zero = alt.Chart(pl.DataFrame({"y": [0.0]})).mark_rule(color="#999").encode(y="y:Q")
    ev, slope = royaumes.player_ev(fine), exact_str(royaumes.fines_per_round())
    title = alt.Title(
        "A player's expected value per round, by fine (exact)",
        subtitle=f"EV = {exact_str(royaumes.player_ev(Fraction(0)))} − fine × {slope}; "
        f"at fine {exact_str(fine)}: {with_decimal(ev, 'value')}",
    )
    return alt.layer(zero, lines, rule, points, labels, title=title).properties(width=470, height=190)


def duel_chart(fine: Fraction, bank: Result | None) -> alt.LayerChart:
    """P(a player wins) for each result the bank can roll, by kingdom; the bank's result `bank` stands out."""
    now = result_text(bank) if bank else ""
    table = royaumes.duel_table(royaumes.Rules(fine=fine))
    texts = [
        pl.Series(f"{c}_text", [number_text(Fraction(x), kind=k) for x in table[f"{c}_exact"]])
        for c, (k, _) in TOOLTIPS.items()
    ]
    frame = table.with_columns(*texts, (pl.col("result") == now).alias("now"))
    kingdoms = list(royaumes.KINGDOMS)
    base = alt.Chart(frame).encode(
        x=alt.X(
            "result:N",
            sort=frame["result"].to_list(),
            title="the bank's result (each kingdom lowest to highest)",
            axis=alt.Axis(labelAngle=-45),
        ),
        y=alt.Y("p_player_wins:Q", title="P(a player wins)", scale=alt.Scale(domain=[0, 1])),
    )
    opacity = alt.condition(alt.datum.now, alt.value(1.0), alt.value(0.35)) if bank else alt.value(0.9)
    colours = alt.Scale(domain=kingdoms, range=list(KINGDOM_COLOURS.values()))
    figures = [alt.Tooltip(f"{c}_text:N", title=label) for c, (_, label) in TOOLTIPS.items()]
    bars = base.mark_bar(stroke="#222").encode(
        color=alt.Color("kingdom:N", sort=kingdoms, scale=colours, legend=alt.Legend(orient="top", title=None)),
        opacity=opacity,
        strokeWidth=alt.condition(alt.datum.now, alt.value(2), alt.value(0)),
        tooltip=[alt.Tooltip("result:N", title="bank rolls"), "kingdom", "outcome", *figures],
    )
    text = base.mark_text(dy=-6, fontSize=9, color="#333").encode(text="p_player_wins_exact:N")
    rolled = f"this round: the bank rolled {now}" if bank else "this round: the bank has not rolled yet"
    title = alt.Title(
        "P(a player wins) for each result of the bank (exact)",
        subtitle=f"✖ results: 0 (the bank takes all), ✚ results: 1 (it pays all); {rolled}",
    )
    return alt.layer(bars, text, title=title).properties(width=470, height=190)
