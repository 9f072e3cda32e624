"""Le Légit's page, its words and pictures as pure functions of the turn or the round (HTML and
altair charts): the roll, the log's lines, the status, the hint, the round's sheet, the score
chart and its figures, the first player's dilemma. The objectives are in `policies`."""

from __future__ import annotations

import html
from fractions import Fraction
from functools import partial

import altair as alt
import polars as pl

from nessus.games.legit.odds import first_share, pairs, remove_pairs
from nessus.games.legit.policies import SIX, THRESHOLD, Goal, Mean, dilemma_reading, dilemma_rows, plays
from nessus.games.legit.rules import Rules
from nessus.games.legit.state import ROLL, State, TurnRecord
from nessus.kit.common import dice_html, face_svg
from nessus.kit.dicegame import Table, mini_dice
from nessus.kit.goals import figures_html, goal_hint, plural, seats_html, status_html, swatch
from nessus.kit.hint import HEURISTIC, OPTIMAL, policy_bars, policy_frame
from nessus.numbers import d3_format, decimal_text, number_html, number_text

TOP = 6 * SIX
COLOURS = (OPTIMAL, "#9e9e9e", HEURISTIC, "#54a24b")  # optimal, no reroll, below 8, for the best mean
LINE = "font-size:13px;line-height:1.5;margin-top:4px"  # a sentence under a chart
NOTE = "<div style='color:#555;font-size:12px;line-height:1.4'>"


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


def roll_lines(before: TurnRecord, now: TurnRecord) -> list[str]:
    """A roll in the log: the dice, the pairs removed, the total left (and the score, if the turn ends)."""
    roll, left = now.rolls[-1], now.left or ()
    gone = pairs(roll)
    lost = f"{plural(len(gone), 'pair')} removed" if gone else "no 7-pair"
    name = "Roll" if before.left is None else f"Reroll {now.used}"
    lines = [f"{name}: {mini_dice(roll)} → {lost}, total <b>{sum(left)}</b> on {plural(len(left), 'die')}."]
    if now.over:  # no choice left: the turn ends with this total
        lines.append(f"{'No reroll left' if left else 'Every die paired off'}: the score is <b>{now.total}</b>.")
    return lines


def verdict_html(state: State, action: str, goal: Goal) -> str:
    """What choosing `action` in `state` was worth against the best choice, for the goal (a log line's end)."""
    hint = goal.hint(state)
    if hint.cost(action) == 0:
        return f" <span class='legit-verdict' style='color:#2e7d32'>You {action}: optimal.</span>"
    return (
        f" <span class='legit-verdict' style='color:#b00020'>You {action}: it costs "
        f"{number_html(hint.cost(action), goal.kind)} of {goal.unit} (best: {hint.best}).</span>"
    )


def status(state: State, turn: TurnRecord, you: int | None) -> str:
    """Where your turn stands, in a sentence; in a round (`you`: your seat) what it is capped at and chases."""
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
        text += f" Score to beat: <b>{state.best_so_far}</b>; Player 1 used {used}, so you may use {turn.cap}."
    elif you == 0 and not turn.over:
        others = state.rules.players - 1
        text += f" You are the first player: every reroll you use, the {others} other{'s' * (others > 1)} may use too."
    return status_html("legit", text)


def hint_html(state: State, goal: Goal) -> str:
    """The hint for the goal: what the turn is worth before its first roll, then keep against reroll, exactly."""
    hint = goal.hint(state)
    if state.legal_actions() == [ROLL]:
        return (
            f"{goal_hint(goal, None, str)}Roll first: then the hint weighs keeping against rerolling. Played "
            f"optimally, this turn is worth {number_html(hint.value, goal.kind)} ({goal.unit})."
        )
    return goal_hint(goal, hint, state.move_text, fmt=partial(number_html, kind=goal.kind))


def sheet_html(state: State, seats: Table) -> str:
    """The round, in seat order: who plays each seat (seat 1 sets the cap), the dice left after
    each roll, the score (yours once the round is over), the winners, and the result."""
    result = state.result_text(seats.you)
    turns: list[tuple[str, str] | None] = []
    for seat in range(state.rules.players):
        t = None if seat == seats.you and not result else state.turn_of(seat)
        if t is None:
            turns.append(None)
            continue
        left = (mini_dice(d, 16) if d else "<small>0 dice</small>" for d in map(remove_pairs, t.rolls))
        turns.append((" → ".join(left), f"<b>{t.total}</b> <small>{plural(t.used, 'reroll')}</small>"))
    title = "The round, in seat order: the dice left after each roll"
    cap = " <small style='color:#777'>(sets the cap)</small>"
    return seats_html("legit", title, seats, turns, state.winners, result, cap)


def chart_view(goal: Goal, cap: int) -> tuple[alt.LayerChart, str]:
    """The exact score of each way of playing for the goal, as lines with points (a rule at the
    score to beat), and the figures beside it: each way's exact goal value (and expected score)."""
    shown = plays(goal, cap)[:3]
    names = [line.name for line in shown]
    # policy_frame names the outcomes by any value (ints here, for a quantitative axis): its annotation says str
    frame = policy_frame({line.name: line.scores for line in shown}, range(TOP + 1), int)
    frame = frame.rename({"value": "score", "policy": "play"})
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
    mean = goal == Mean()
    head = ["play", f"{html.escape(goal.unit)} (exact)", *([] if mean else ["expected score"])]
    rows = (
        [swatch(c, html.escape(line.name)), number_html(line.value, goal.kind)]
        + ([] if mean else [number_html(line.mean, "value")])
        for line, c in zip(plays(goal, cap), COLOURS)
    )
    note = (
        f"{NOTE}Exact (a long fraction shows its decimal value: click it for the fraction). “Reroll below {THRESHOLD}”"
        " is the best single threshold for the mean; the common “reroll below 12” does worse than never rerolling "
        "(10.28 against 11.33 points with 3 rerolls).</div>"
    )
    return alt.layer(*layers, title=title).properties(width=500, height=180), figures_html(head, rows, note)


def dilemma_pending(rules: Rules, error: Exception | None = None) -> str:
    """The dilemma's place while it is solved exactly (or why it could not be)."""
    if error is not None:
        why = html.escape(f"{type(error).__name__}: {error}")
        return f"<div class='dilemma-error' style='color:#b00020'>⚠ the dilemma could not be solved: {why}</div>"
    return (
        f"<div class='dilemma-pending' style='color:#555'><i>Solving the first player's dilemma "
        f"exactly ({rules.players} players, up to {rules.rerolls} rerolls)…</i></div>"
    )


def dilemma_view(rules: Rules) -> tuple[alt.Chart, str]:
    """The first player's dilemma (`dilemma_rows`, exact): a chart of how often they stop after u
    rerolls and their share of the win when they do, and a table with the later players' best
    mean under that cap and the least total kept, to win and for the mean."""
    rows = dilemma_rows(rules)
    order = [plural(u, "reroll") for u, *_ in rows]
    series = ("P(they stop after u rerolls)", "their share of the win if so")
    bars = [
        (name, s, float(v or 0), "never stops here" if v is None else number_text(v))
        for name, (_, _, p_stop, won, _) in zip(order, rows)
        for s, v in zip(series, (p_stop, won))
    ]
    share, share_mean = first_share(rules), first_share(rules, Mean().choice(rules.rerolls))
    title = alt.Title(
        f"The first player's dilemma ({rules.players} players, up to {plural(rules.rerolls, 'reroll')})",
        subtitle=f"playing to win, exact: share of the win {decimal_text(share, digits=4)} "
        f"(fair: {decimal_text(Fraction(1, rules.players), digits=4)})",
    )
    reading = dilemma_reading(rules, lambda words: f"<b>{words}</b>")
    frame = pl.DataFrame(bars, schema=["value", "policy", "probability", "exact"], orient="row")
    chart = policy_bars(frame, title, "rerolls the first player uses (= the others' cap)", order, width=500, height=130)
    body = "".join(
        f"<tr class='dilemma-row' style='border-top:1px solid #ddd'><td align='center'>{u}</td>"
        f"<td>{number_html(mean, 'value')}</td><td>{number_html(p_stop)}</td>"
        f"<td>{'–' if won is None else number_html(won)}</td>"
        + "".join(f"<td align='center'>{a} <small style='color:#777'>({b})</small></td>" for a, b in kept)
        + "</tr>"
        for u, mean, p_stop, won, kept in rows
    )
    table = (
        "<div class='nessus-wide'>"
        f"<table class='dilemma' cellpadding='3' style='font-size:12px;border-collapse:collapse;white-space:nowrap'>"
        f"<tr style='background:#f4f4f4'><th rowspan='2'>rerolls<br>used</th><th rowspan='2'>others'<br>best mean</th>"
        f"<th rowspan='2'>P(stop<br>there)</th><th rowspan='2'>share<br>if so</th>"
        f"<th colspan='3'>keeps from, with … left: to win <span style='color:#777'>(for the mean)</span></th></tr>"
        f"<tr style='background:#f4f4f4'><th>6 dice</th><th>4 dice</th><th>2 dice</th></tr>{body}</table></div>"
        f"<div class='dilemma-share' style='{LINE}'>First player's share of the win: playing to win "
        f"{number_html(share)}; playing for the best mean {number_html(share_mean)}; fair 1/{rules.players}.</div>"
        f"<div class='dilemma-reading' style='{LINE}'>{reading}</div>"
        f"{NOTE}Exact (click a decimal for its fraction). "
        "The later players know the best score so far and play for P(above) + ½ P(equal).</div>"
    )
    return chart, table
