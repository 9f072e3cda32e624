"""Le Légit dashboard, its words and pictures: the page's HTML and charts (the roll, the log, the
figures, the score sheet, the first player's dilemma) as pure functions of the turn or the
round (the goals and plays themselves are in `legit_goals`)."""

from __future__ import annotations

import html
from collections.abc import Hashable
from functools import partial

import altair as alt
import polars as pl

from nessus.apps.legit_goals import (
    DICE,
    THRESHOLD,
    TOP,
    Chase,
    First,
    Goal,
    Mean,
    TurnPolicy,
    goal_text,
    hint_for,
    kind,
    lines,
    optimal,
    turn_value,
    unit,
)
from nessus.games import legit
from nessus.kit.common import dice_html
from nessus.kit.dicegame import HEURISTIC, OPTIMAL, face_svg, hint_table, mini_dice, policy_bars, policy_frame
from nessus.numbers import number_html, number_text

COLOURS = (OPTIMAL, "#9e9e9e", HEURISTIC, "#54a24b")  # optimal, no reroll, below 8, for the best mean
LINE = "font-size:13px;line-height:1.5;margin-top:4px"  # a sentence under a chart
NOTE = "<div style='color:#555;font-size:12px;line-height:1.4'>"


def plural(n: int, word: str) -> str:
    """`n word` or `n words`; "die" becomes "dice"."""
    return f"{n} {word if n == 1 else 'dice' if word == 'die' else word + 's'}"


def pairs(roll: tuple[int, ...]) -> list[tuple[int, int]]:
    """The 7-pairs a roll loses: min(#a, #b) pairs (a, b) of each of 1-6, 2-5, 3-4."""
    return [(a, b) for a, b in legit.PAIRS for _ in range(min(roll.count(a), roll.count(b)))]


def roll_html(turn: legit.TurnRecord) -> str:
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
    removed = (
        (
            f"<div style='margin-right:14px'><div style='font-size:12px;color:#555'>7-pairs removed</div>"
            f"<div style='display:flex'>{gone}</div></div>"
        )
        if gone
        else ""
    )
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


def verdict_html(state: legit.State, action: str, goal: Goal) -> str:
    """What choosing `action` in `state` was worth against the best choice, for the goal (a log line's end)."""
    hint = hint_for(state, goal)
    if hint.cost(action) == 0:
        return f" <span class='legit-verdict' style='color:#2e7d32'>You {action}: optimal.</span>"
    return (
        f" <span class='legit-verdict' style='color:#b00020'>You {action}: it costs "
        f"{number_html(hint.cost(action), kind(goal))} of {unit(goal)} (best: {hint.best}).</span>"
    )


def status_text(turn: legit.TurnRecord, chase: str) -> str:
    """Where your turn stands, in a sentence (`chase`: the round's cap and score to beat)."""
    if turn.over:
        return f"Your score: <b class='legit-score'>{turn.total}</b>. <b>Turn over.</b>"
    if turn.left is None:
        return "Your turn: press <b>Roll 6 dice</b>." + chase
    return (
        f"Total <b>{turn.total}</b> on {len(turn.left)} dice, {plural(turn.rerolls_left, 'reroll')} left: "
        f"<b>Keep</b> it or <b>Reroll</b> the dice left." + chase
    )


def hint_html(state: legit.State, goal: Goal) -> str:
    """The hint (`state.hint()` for the goal): what the turn is worth before its first roll, then
    keep against reroll, exactly."""
    head = f"<div style='color:#555'>Goal: <b>{html.escape(goal_text(goal))}</b></div>"
    hint = hint_for(state, goal)
    if state.legal_actions() == [legit.ROLL]:
        return (
            f"{head}Roll first: then the hint weighs keeping against rerolling. Played optimally, this turn is "
            f"worth {number_html(hint.value, kind(goal))} ({unit(goal)})."
        )
    turn = state.turns[-1]
    n = len(turn.left or ())

    def label(action: Hashable) -> str:
        return f"keep {turn.total}" if action == "keep" else f"reroll the {plural(n, 'die')} left"

    return head + hint_table(hint, None, label, partial(number_html, kind=kind(goal)), unit(goal))


def sheet_row(t: legit.TurnRecord | None, you: bool) -> tuple[str, str]:
    """A score sheet's cells for one player: the dice left after each roll, and the score."""
    if t is None:
        return ("<i>playing…</i>" if you else "<i>to play</i>"), ""
    rolls = " → ".join(
        mini_dice(left, 16) if left else "<small>0 dice</small>" for left in map(legit.remove_pairs, t.rolls)
    )
    return rolls, f"<b>{t.total}</b> <small>{plural(t.used, 'reroll')}</small>"


# -- the charts and figures ------------------------------------------------------------------------------
def score_chart(goal: Goal, cap: int) -> alt.LayerChart:
    """The exact score distribution of each way of playing, as lines with points (a rule at the score to beat)."""
    shown = lines(goal, cap)[:3]
    # policy_frame names the outcomes by any value (ints here, for a quantitative axis): its annotation says str
    frame = policy_frame({line.name: line.scores for line in shown}, range(TOP + 1), int)
    frame = frame.rename({"value": "score", "policy": "play"})
    names = [line.name for line in shown]
    title = alt.Title(
        f"Your score, at most {plural(cap, 'reroll')}, playing for {goal_text(goal)}",
        subtitle=", ".join(f"{line.name} {float(line.value):.4f}" for line in shown) + f"  ({unit(goal)})",
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
        tooltip=["play", "score", alt.Tooltip("probability:Q", format=".6f"), "exact"],
    )
    layers = [base.mark_line(strokeWidth=1.5), base.mark_point(filled=True, size=22)]
    if isinstance(goal, Chase):
        rule = pl.DataFrame({"score": [goal.best], "label": [f"to beat: {goal.best}"]})
        layers.append(alt.Chart(rule).mark_rule(color="#c62828", strokeDash=[5, 3]).encode(x="score:Q"))
        layers.append(
            alt.Chart(rule)
            .mark_text(color="#c62828", align="left", dx=4, dy=-4, baseline="top", fontSize=11)
            .encode(x="score:Q", y=alt.value(0), text="label:N")
        )
    return alt.layer(*layers, title=title).properties(width=500, height=180)


def figures_html(goal: Goal, cap: int) -> str:
    """The table beside the chart: each way of playing's exact goal value (and expected score)."""
    mean = isinstance(goal, Mean)
    body = "".join(
        f"<tr><td><span style='color:{c}'>■</span> {html.escape(line.name)}</td>"
        f"<td>{number_html(line.value, kind(goal))}</td>"
        + ("" if mean else f"<td>{number_html(line.mean, 'value')}</td>")
        + "</tr>"
        for line, c in zip(lines(goal, cap), COLOURS)
    )
    mean_head = "" if mean else "<th align='left'>expected score</th>"
    return (
        "<table class='figures' cellpadding='3' style='font-size:13px;white-space:nowrap'><tr><th align='left'>play"
        "</th>"
        f"<th align='left'>{html.escape(unit(goal))} (exact)</th>{mean_head}</tr>{body}</table>"
        f"{NOTE}Exact (a long fraction shows its decimal value: click it for the fraction). “Reroll below {THRESHOLD}” "
        f"is the best single threshold for the mean; the common “reroll below 12” does worse than never rerolling "
        f"(10.28 against 11.33 points with 3 rerolls).</div>"
    )


def dilemma_view(rules: legit.Rules) -> tuple[alt.Chart, str]:
    """The first player's dilemma (`legit.first_stops`, exact): a chart of how often they stop
    after u rerolls and their share of the win when they do, and a table with the later
    players' best mean under that cap and the least total kept, to win and for the mean."""
    stops = legit.first_stops(rules)
    order = [plural(u, "reroll") for u in stops]
    series = ("P(they stop after u rerolls)", "their share of the win if so")
    rows = [
        (name, s, float(v or 0), "never stops here" if v is None else number_text(v))
        for name, pair in zip(order, stops.values())
        for s, v in zip(series, pair)
    ]
    share = legit.first_share(rules)
    share_mean = legit.first_share(rules, optimal(Mean(), rules.rerolls))
    title = alt.Title(
        f"The first player's dilemma ({rules.players} players, up to {plural(rules.rerolls, 'reroll')})",
        subtitle=f"playing to win, exact: share of the win {float(share):.4f} (fair: {1 / rules.players:.4f})",
    )
    frame = pl.DataFrame(rows, schema=["value", "policy", "probability", "exact"], orient="row")
    chart = policy_bars(frame, title, "rerolls the first player uses (= the others' cap)", order, width=500, height=130)
    first, mean_game = optimal(First(rules.players), rules.rerolls), optimal(Mean(), rules.rerolls)
    counts = (6, 4, 2)

    def least_kept(best: TurnPolicy, u: int, n: int) -> str:
        if u == rules.rerolls:
            return "all"
        keep = [t for t in range(6 * n + 1) if best(("rolled", rules.rerolls - u, n, t)) == "keep"]
        return str(min(keep)) if keep else "none"

    body = []
    for u, (p_stop, won) in stops.items():
        cells = "".join(
            f"<td align='center'>{least_kept(first, u, n)} <small style='color:#777'>({least_kept(mean_game, u, n)})"
            f"</small></td>"
            for n in counts
        )
        won_cell = "–" if won is None else number_html(won)
        body.append(
            f"<tr class='dilemma-row' style='border-top:1px solid #ddd'><td align='center'>{u}</td>"
            f"<td>{number_html(turn_value(Mean(), u), 'value')}</td><td>{number_html(p_stop)}</td><td>{won_cell}</td>"
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


def dilemma_reading(rules: legit.Rules, first: TurnPolicy, mean_game: TurnPolicy) -> str:
    """The dilemma in a sentence: on the first roll of six dice, does the first player playing
    to win keep from a lower total than a player chasing the mean (or a higher one)?"""
    if rules.rerolls == 0:
        return (
            f"No reroll allowed: nobody has a choice, and each of the {rules.players} players wins 1/{rules.players} "
            "of the time."
        )
    win, mean = (
        min(t for t in range(TOP + 1) if best(("rolled", rules.rerolls, DICE, t)) == "keep")
        for best in (first, mean_game)
    )
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
