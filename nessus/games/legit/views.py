"""Le Légit's page, its words and pictures: the roll, the log's lines, the hint, the score sheet,
the charts and figures and the first player's dilemma, as pure functions of the turn or the
round (HTML strings and altair charts; the objectives they are drawn for are in `policies`).
To change how the page shows the hint, see `hint_html`."""

from __future__ import annotations

import html
from collections.abc import Hashable
from fractions import Fraction
from functools import partial
from typing import cast

import altair as alt
import polars as pl

from nessus.games.legit.odds import first_share, first_stops, pairs, remove_pairs
from nessus.games.legit.policies import SIX, THRESHOLD, First, Goal, Mean, keeps_from, least_kept, plays
from nessus.games.legit.rules import Rules
from nessus.games.legit.state import ROLL, State, TurnRecord
from nessus.kit.common import dice_html
from nessus.kit.dicegame import HEURISTIC, OPTIMAL, Table, face_svg, hint_table, mini_dice, policy_bars, policy_frame
from nessus.numbers import d3_format, decimal_text, number_html, number_text
from nessus.solver import TurnPolicy

TOP = 6 * SIX
COLOURS = (OPTIMAL, "#9e9e9e", HEURISTIC, "#54a24b")  # optimal, no reroll, below 8, for the best mean
LINE = "font-size:13px;line-height:1.5;margin-top:4px"  # a sentence under a chart
NOTE = "<div style='color:#555;font-size:12px;line-height:1.4'>"


def plural(n: int, word: str) -> str:
    """`n word` or `n words`; "die" becomes "dice"."""
    return f"{n} {word if n == 1 else 'dice' if word == 'die' else word + 's'}"


def roll_html(turn: TurnRecord) -> str:
    """The last roll: its 7-pairs set apart (faded, "= 7"), then the dice left, large, and their total."""
    if turn.left is None:
        return (
            "<div class='legit-roll' style='min-height:70px;margin-bottom:6px;color:#777;display:flex;"
            "align-items:center'>Press Roll to throw the six dice.</div>"
        )
    roll, left = turn.rolls[-1], turn.left
    gone = "".join(
        f"<span class='legit-pair' title='{a} + {b} = 7: removed' style='display:inline-flex;flex-direction:column;"
        f"align-items:center;margin-right:6px;padding:2px 3px;border:1px dashed #c62828;border-radius:6px'>"
        f"<span style='display:inline-flex;gap:2px;opacity:.55'>{face_svg(a, 28)}{face_svg(b, 28)}</span>"
        f"<small style='color:#c62828;line-height:14px'>= 7</small></span>"
        for a, b in pairs(roll)
    )
    head = "<div style='margin-right:14px'><div style='font-size:12px;color:#555'>7-pairs removed</div>"
    removed = f"{head}<div style='display:flex'>{gone}</div></div>" if gone else ""
    kept = dice_html(left, empty="every die paired off")
    total = f"<span style='font-size:22px;margin-left:10px'>= <b class='legit-total'>{sum(left)}</b></span>"
    return (
        f"<div class='legit-roll' style='display:flex;align-items:flex-end;min-height:70px;margin-bottom:6px'>{removed}"
        f"<div><div style='font-size:12px;color:#555'>{plural(len(left), 'die')} left</div>"
        f"<div style='display:flex;align-items:center;min-height:48px'>{kept}{total}</div></div></div>"
    )


def roll_text(roll: tuple[int, ...], left: tuple[int, ...]) -> str:
    """A roll in a line of the log: the dice, the pairs removed, the total left."""
    gone = pairs(roll)
    lost = f"{plural(len(gone), 'pair')} removed" if gone else "no 7-pair"
    return f"{mini_dice(roll)} → {lost}, total <b>{sum(left)}</b> on {plural(len(left), 'die')}"


def verdict_html(state: State, action: str, goal: Goal) -> str:
    """What choosing `action` in `state` was worth against the best choice, for the goal (a log line's end)."""
    hint = goal.hint(state)
    if hint.cost(action) == 0:
        return f" <span class='legit-verdict' style='color:#2e7d32'>You {action}: optimal.</span>"
    return (
        f" <span class='legit-verdict' style='color:#b00020'>You {action}: it costs "
        f"{number_html(hint.cost(action), goal.kind)} of {goal.unit} (best: {hint.best}).</span>"
    )


def status_html(state: State, turn: TurnRecord, you: int | None, best: int) -> str:
    """Where your turn stands, in a sentence; in a round (`you`: your seat) what it is capped at
    and chases (`best`: the best score of the others so far)."""
    rules, cap = state.rules, turn.cap
    if turn.over:
        text = f"Your score: <b class='legit-score'>{turn.total}</b>. <b>Turn over.</b>"
    elif turn.left is None:
        text = "Your turn: press <b>Roll 6 dice</b>."
    else:
        text = (
            f"Total <b>{turn.total}</b> on {len(turn.left)} dice, {plural(turn.rerolls_left, 'reroll')} left: "
            f"<b>Keep</b> it or <b>Reroll</b> the dice left."
        )
    if you and not turn.over:
        used = plural(state.turns[0].used, "reroll")
        text += f" Score to beat: <b>{best}</b>; Player 1 used {used}, so you may use {cap}."
    elif you == 0 and not turn.over:
        others = rules.players - 1
        text += f" You are the first player: every reroll you use, the {others} other{'s' * (others > 1)} may use too."
    return f"<div class='legit-status' style='font-size:15px'>{text}</div>"


def hint_html(state: State, goal: Goal) -> str:
    """The hint (`state.hint()` for the goal): what the turn is worth before its first roll, then
    keep against reroll, exactly."""
    head = f"<div style='color:#555'>Goal: <b>{html.escape(goal.text)}</b></div>"
    hint = goal.hint(state)
    if state.legal_actions() == [ROLL]:
        return (
            f"{head}Roll first: then the hint weighs keeping against rerolling. Played optimally, this turn is "
            f"worth {number_html(hint.value, goal.kind)} ({goal.unit})."
        )
    turn = state.turns[-1]
    n = len(turn.left or ())

    def label(action: Hashable) -> str:
        return f"keep {turn.total}" if action == "keep" else f"reroll the {plural(n, 'die')} left"

    return head + hint_table(hint, None, label, partial(number_html, kind=goal.kind), goal.unit)


def result_text(state: State, seats: Table) -> str:
    """The round's result: who wins (or shares the win) with the best score ("" before its end)."""
    if not state.is_terminal():
        return ""
    best = max(state.scores)
    names = [seats.name(i) for i in state.winners]
    if len(names) > 1:
        return f"{' and '.join(names)} share the win with {best} (a tie for the best score)."
    return f"{names[0]} win{'' if names == ['You'] else 's'} with {best}."


def sheet_html(state: State, you: int, seats: Table) -> str:
    """The round, in seat order: who plays each seat (seat 1 sets the cap), the dice left after
    each roll, the score (yours once the round is over), the winners, and the result."""
    result, won_by = result_text(state, seats), state.winners
    rows = []
    for seat in range(state.rules.players):
        t = None if seat == you and not result else state.turn_of(seat)
        if t is None:
            rolls, score = ("<i>playing…</i>" if seat == you else "<i>to play</i>"), ""
        else:
            left = (mini_dice(d, 16) if d else "<small>0 dice</small>" for d in map(remove_pairs, t.rolls))
            rolls, score = " → ".join(left), f"<b>{t.total}</b> <small>{plural(t.used, 'reroll')}</small>"
        won = " <b style='color:#2e7d32'>★ wins</b>" if seat in won_by else ""
        cap = " <small style='color:#777'>(sets the cap)</small>" if seat == 0 else ""
        rows.append(
            f"<tr class='legit-player' style='{seats.row_style(seat)}'><td><b>{seat + 1}</b></td>"
            f"<td>{seats.who_html(seat)}{cap}{won}</td><td>{rolls}</td><td>{score}</td></tr>"
        )
    end = f"<div class='legit-result' style='font-weight:bold;margin-top:4px'>{html.escape(result)}</div>"
    return (
        f"<h4 style='margin:8px 0 2px'>The round, in seat order: the dice left after each roll</h4>"
        f"<table class='legit-players' cellpadding='3' style='border-collapse:collapse;width:100%'>"
        f"{''.join(rows)}</table>{end if result else ''}"
    )


# -- the charts and figures ------------------------------------------------------------------------------
def score_chart(goal: Goal, cap: int) -> alt.LayerChart:
    """The exact score distribution of each way of playing, as lines with points (a rule at the score to beat)."""
    shown = plays(goal, cap)[:3]
    # policy_frame names the outcomes by any value (ints here, for a quantitative axis): its annotation says str
    frame = policy_frame({line.name: line.scores for line in shown}, range(TOP + 1), int)
    frame = frame.rename({"value": "score", "policy": "play"})
    names = [line.name for line in shown]
    title = alt.Title(
        f"Your score, at most {plural(cap, 'reroll')}, playing for {goal.text}",
        subtitle=", ".join(f"{line.name} {decimal_text(line.value, goal.kind, 4)}" for line in shown)
        + f"  ({goal.unit})",
    )
    base = alt.Chart(frame).encode(
        x=alt.X(
            "score:Q",
            title="score (0: every die paired off)",
            scale=alt.Scale(domain=[0, TOP], nice=False),
            axis=alt.Axis(values=list(range(0, TOP + 1, 2))),
        ),
        y=alt.Y("probability:Q", title="probability"),
        color=alt.Color(
            "play:N",
            sort=names,
            scale=alt.Scale(domain=names, range=list(COLOURS[: len(names)])),
            legend=alt.Legend(orient="top", title=None),
        ),
        tooltip=["play", "score", alt.Tooltip("probability:Q", format=d3_format("probability")), "exact"],
    )
    layers = [base.mark_line(strokeWidth=1.5), base.mark_point(filled=True, size=22)]
    if goal.to_beat is not None:
        rule = alt.Chart(pl.DataFrame({"score": [goal.to_beat], "label": [f"to beat: {goal.to_beat}"]}))
        text = rule.mark_text(color="#c62828", align="left", dx=4, dy=-4, baseline="top", fontSize=11)
        layers += [
            rule.mark_rule(color="#c62828", strokeDash=[5, 3]).encode(x="score:Q"),
            text.encode(x="score:Q", y=alt.value(0), text="label:N"),
        ]
    return alt.layer(*layers, title=title).properties(width=500, height=180)


def figures_html(goal: Goal, cap: int) -> str:
    """The table beside the chart: each way of playing's exact goal value (and expected score)."""
    mean = goal == Mean()
    body = "".join(
        f"<tr><td><span style='color:{c}'>■</span> {html.escape(line.name)}</td>"
        f"<td>{number_html(line.value, goal.kind)}</td>"
        + ("" if mean else f"<td>{number_html(line.mean, 'value')}</td>")
        + "</tr>"
        for line, c in zip(plays(goal, cap), COLOURS)
    )
    mean_head = "" if mean else "<th align='left'>expected score</th>"
    return (
        "<table class='figures' cellpadding='3' style='font-size:13px;white-space:nowrap'><tr><th align='left'>play"
        "</th>"
        f"<th align='left'>{html.escape(goal.unit)} (exact)</th>{mean_head}</tr>{body}</table>"
        f"{NOTE}Exact (a long fraction shows its decimal value: click it for the fraction). “Reroll below {THRESHOLD}” "
        f"is the best single threshold for the mean; the common “reroll below 12” does worse than never rerolling "
        f"(10.28 against 11.33 points with 3 rerolls).</div>"
    )


def dilemma_view(rules: Rules) -> tuple[alt.Chart, str]:
    """The first player's dilemma (`first_stops`, exact): a chart of how often they stop
    after u rerolls and their share of the win when they do, and a table with the later
    players' best mean under that cap and the least total kept, to win and for the mean."""
    stops = first_stops(rules)
    order = [plural(u, "reroll") for u in stops]
    series = ("P(they stop after u rerolls)", "their share of the win if so")
    rows = [
        (name, s, float(v or 0), "never stops here" if v is None else number_text(v))
        for name, pair in zip(order, stops.values())
        for s, v in zip(series, pair)
    ]
    share = first_share(rules)
    share_mean = first_share(rules, Mean().choice(rules.rerolls))
    title = alt.Title(
        f"The first player's dilemma ({rules.players} players, up to {plural(rules.rerolls, 'reroll')})",
        subtitle=f"playing to win, exact: share of the win {decimal_text(share, digits=4)} "
        f"(fair: {decimal_text(Fraction(1, rules.players), digits=4)})",
    )
    frame = pl.DataFrame(rows, schema=["value", "policy", "probability", "exact"], orient="row")
    chart = policy_bars(frame, title, "rerolls the first player uses (= the others' cap)", order, width=500, height=130)
    first, mean_game = First(rules.players).choice(rules.rerolls), Mean().choice(rules.rerolls)
    counts = (6, 4, 2)
    kept = {(u, n): [least_kept(c, rules.rerolls, u, n) for c in (first, mean_game)] for u in stops for n in counts}
    body = []
    for u, (p_stop, won) in stops.items():
        cells = "".join(
            f"<td align='center'>{a} <small style='color:#777'>({b})</small></td>"
            for a, b in (kept[u, n] for n in counts)
        )
        won_cell = "–" if won is None else number_html(won)
        body.append(
            f"<tr class='dilemma-row' style='border-top:1px solid #ddd'><td align='center'>{u}</td>"
            f"<td>{number_html(Mean().worth(u), 'value')}</td><td>{number_html(p_stop)}</td><td>{won_cell}</td>"
            f"{cells}</tr>"
        )
    head = "".join(f"<th>{n} dice</th>" for n in counts)
    table = (
        "<div class='nessus-wide'>"
        f"<table class='dilemma' cellpadding='3' style='font-size:12px;border-collapse:collapse;white-space:nowrap'>"
        f"<tr style='background:#f4f4f4'><th rowspan='2'>rerolls<br>used</th><th rowspan='2'>others'<br>best mean</th>"
        f"<th rowspan='2'>P(stop<br>there)</th><th rowspan='2'>share<br>if so</th>"
        f"<th colspan='3'>keeps from, with … left: to win <span style='color:#777'>(for the mean)</span></th></tr>"
        f"<tr style='background:#f4f4f4'>{head}</tr>{''.join(body)}</table></div>"
        f"<div class='dilemma-share' style='{LINE}'>First player's share of the win: playing to win "
        f"{number_html(share)}; "
        f"playing for the best mean {number_html(share_mean)}; fair 1/{rules.players}.</div>"
        f"<div class='dilemma-reading' style='{LINE}'>{dilemma_reading(rules, first, mean_game)}</div>"
        f"{NOTE}Exact (click a decimal for its fraction). "
        "The later players know the best score so far and play for P(above) + ½ P(equal).</div>"
    )
    return chart, table


def dilemma_reading(rules: Rules, first: TurnPolicy, mean_game: TurnPolicy) -> str:
    """The dilemma in a sentence: on the first roll of six dice, does the first player playing
    to win keep from a lower total than a player chasing the mean (or a higher one)?"""
    if rules.rerolls == 0:
        return (
            f"No reroll allowed: nobody has a choice, and each of the {rules.players} players wins 1/{rules.players} "
            "of the time."
        )
    win, mean = (cast(int, keeps_from(choice, rules.rerolls, SIX)) for choice in (first, mean_game))
    head = (
        f"On the first roll, six dice left: playing to win the first player keeps from <b>{win}</b>, a mean chaser "
        f"from <b>{mean}</b>. "
    )
    if win < mean:
        return head + (
            "They stop <b>earlier</b>: every reroll they use is one more for each other player, and keeping now "
            "hands them none."
        )
    if win > mean:
        return head + (
            f"They are <b>pickier</b>: against {rules.players - 1} chasers who know the score to beat, a middling "
            "total rarely holds, even if rerolling hands everyone more rerolls."
        )
    return head + "The same threshold: the cap they set and the score they need balance out here."
