"""What the Les Trois page shows, as HTML or charts: the status, the rolls so far, the hint, the
score sheet, the score distribution with its figures and the chance of the moon (your turn and the
score sheet as the page shows them, the goals' distributions and the machines' policies are in
`trois_play`)."""

from __future__ import annotations

import html
from collections.abc import Callable, Hashable
from functools import partial

import altair as alt
import polars as pl

from nessus.apps.trois_play import Goal, Sheet, Shown, distributions, moon_chances
from nessus.dist import exact_str
from nessus.games import trois
from nessus.kit.dicegame import HELD, HEURISTIC, OPTIMAL, hint_table, kind_of, mini_dice, policy_bars, policy_frame
from nessus.numbers import number_html, number_text

HEURISTIC_NAME = "every 3, or the lowest die"
MEAN = Goal()


def dice_word(n: int) -> str:
    """ "1 die", "3 dice"."""
    return f"{n} di{'e' if n == 1 else 'ce'}"


def action_label(p: Shown, action: Hashable) -> str:
    """A set-aside in the game's words, with little dice."""
    aside, rolled = trois.as_aside(action), p.roll or ()
    if len(aside) == len(rolled):
        return f"set aside all: score {p.score + trois.score(aside)}"
    return f"set aside {mini_dice(aside, held=True)}, roll {len(rolled) - len(aside)}"


def step_html(rolls: int, roll: tuple[int, ...], aside: tuple[int, ...], kept: tuple[int, ...]) -> str:
    """A line of the rolls so far: the roll, the dice set aside from it, their points and the turn's."""
    a, b = trois.score(aside), trois.score(kept + aside)
    return (
        f"Roll {rolls}: {mini_dice(roll)} → set aside {mini_dice(aside, held=True)} "
        f"({a} point{'' if a == 1 else 's'}; {b} point{'' if b == 1 else 's'} in all)."
    )


def counter_html(rolls: int, aside: int, dice: int, over: bool) -> str:
    """The roll counter: a pip per die (filled once set aside) and the rolls made."""
    pips = "".join(f"<span style='color:{OPTIMAL if i < aside else '#ccc'}'>●</span>" for i in range(dice))
    text = (
        f"Turn over after {rolls} roll{'' if rolls == 1 else 's'}"
        if over
        else f"{dice} dice to roll"
        if rolls == 0
        else f"Roll {rolls} · {aside} of {dice} dice set aside"
    )
    return f"<span class='roll-counter' data-made='{rolls}' style='font-size:15px'>{pips} <b>{text}</b></span>"


def button_labels(p: Shown, aside: tuple[int, ...] | None, done: bool) -> tuple[str, str]:
    """The Roll and Set aside all buttons' labels: before a roll (`aside` None), or for the dice marked."""
    if aside is None:
        return "Roll" if done else f"Roll {dice_word(p.left)}", "Set aside all"
    rolled = p.roll or ()
    n = len(rolled) - len(aside)
    roll = f"Roll {dice_word(n)}" if n else f"End turn: score {p.score + trois.score(aside)}"
    return roll if aside else "Roll (set a die aside)", f"Set aside all: {p.score + trois.score(rolled)}"


def status_html(p: Shown, done: bool, m: Sheet | None = None, goal: Goal = MEAN, waiting: bool = False) -> str:
    """The status line: in a game (`m`) the round and what you play for; then what to do, or how the turn ended."""
    if not p.over and done:
        verdict = "The game is over." if m and m.result else "You are out of contention: the tied players play on."
    elif p.over:
        verdict = f"Turn over: score <b class='trois-score'>{p.score}</b>."
        if p.moon:
            verdict = f"<b>You shoot the moon</b> ({p.dice} sixes): you win the pot at once!"
        elif p.score == 0:
            verdict += " All 3s: every other player pays you a stake."
    elif p.roll is None and not p.kept:
        verdict = f"Your turn: press <b>Roll {p.dice} dice</b>."
    elif p.roll is None:
        verdict = f"Set aside so far: <b class='trois-score'>{p.score}</b>. Roll the other {dice_word(p.left)}."
    else:
        verdict = (
            f"Set aside so far: <b class='trois-score'>{p.score}</b>. Choose the dice to set aside from this "
            "roll (at least one)."
        )
    line = "" if m is None or m.result else round_line(m, goal, waiting)
    return f"<div class='trois-status' style='font-size:15px'>{line}{verdict}</div>"


def round_line(m: Sheet, goal: Goal, waiting: bool) -> str:
    """Which round of the game, and what you play for in it."""
    r = m.rules.rounds
    which = f"Round {m.round + 1} of {r}" if m.round < r else f"Tie-break round {m.round + 1 - r}"
    if waiting:
        aim = "your turn is over; press Next round when you are ready."
    elif goal.kind == "win" and goal.target < 0:
        aim = "you play last and only the moon can still make you lowest."
    elif goal.kind == "win" and goal.target >= 6 * m.rules.dice:
        aim = "you play last and win whatever you score."
    elif goal.kind == "win":
        aim = f"you play last: score at most <b>{goal.target}</b> to finish lowest (or shoot the moon)."
    elif m.deciding():
        aim = "a deciding round; the players after you still play, so the hint plays for the least expected score."
    else:
        aim = "the hint plays for the least expected score."
    return f"<div class='trois-round' style='font-size:13px;color:#555'>{which}: {aim}</div>"


# -- the hint and the score sheet -------------------------------------------------------------------
def hint_html(state: trois.State, p: Shown, goal: Goal, chosen: tuple[int, ...] | None) -> str:
    """The goal and every set-aside's exact value in the game `state` at your choice (for the
    least expected score if all are alike for the goal)."""
    h = state.hint(goal)
    head = f"<div style='color:#555'>Goal: <b>{html.escape(goal.text(p.dice))}</b></div>"
    if len(set(h.values.values())) == 1 and goal.kind != "mean":
        v = next(iter(h.values.values()))
        why = "the moon is lost" if goal.kind == "moon" and v == 0 else "every choice is worth the same for it"
        head += (
            f"<div class='hint-tie' style='color:#555'>Here {why}: {html.escape(goal.unit)} "
            f"{number_html(v, kind_of(goal.unit))} whatever you set aside. So play for the least expected score:</div>"
        )
        h, goal = state.hint(Goal()), Goal()
    return head + hint_table(h, chosen, partial(action_label, p), unit=goal.unit)


def sheet_html(m: Sheet, you: int, who: Callable[[int], str], style: Callable[[int], str]) -> str:
    """The score sheet: scores round by round, totals, the last turn's dice (`who`, `style`: a row's first cell,
    style)."""
    r = m.rules.rounds
    columns = max(r, m.round + 1)
    head = "".join(f"<th>{k + 1 if k < r else f'tie {k + 1 - r}'}</th>" for k in range(columns))
    rows = []
    for seat, scores in enumerate(m.scores):
        marks = {s: " <b>moon</b>" if s == 6 * m.rules.dice else " ✦" if s == 0 else "" for s in scores.values()}
        cells = [
            f"<td align='center'>{scores[k]}{marks[scores[k]]}</td>"
            if k in scores
            else "<td align='center'>…</td>"
            if k == m.round and seat == you and seat in m.live and not m.result
            else "<td align='center' style='color:#aaa'>—</td>"
            if k == m.round and seat not in m.live
            else "<td></td>"
            for k in range(columns)
        ]
        turn = m.turns[seat]
        last = mini_dice(turn, 16) if turn is not None else ""
        won = " <b style='color:#2e7d32'>★ wins</b>" if m.result and seat == m.winner else ""
        rows.append(
            f"<tr class='trois-player' style='{style(seat)}'><td>{who(seat)}{won}</td>"
            f"{''.join(cells)}<td align='center'><b>{m.total(seat)}</b></td><td>{last}</td></tr>"
        )
    lines = "".join(f"<div>{html.escape(line)}</div>" for line in m.lines)
    result = (
        f"<div class='trois-result' style='font-weight:bold;margin-top:4px'>{html.escape(m.result)}</div>"
        if m.result
        else ""
    )
    return (
        "<h4 style='margin:8px 0 2px'>Score sheet: the lowest total wins</h4>"
        "<table class='trois-sheet' style='border-collapse:collapse;width:100%;font-size:13px'>"
        f"<tr><th align='left'>player</th>{head}<th>total</th><th align='left'>this round</th></tr>{''.join(rows)}"
        f"</table><div style='font-size:13px;color:#555'>{lines}</div>{result}"
        "<small style='color:#777'>✦ a 0 (every other player pays a stake; stakes are not counted here).</small>"
    )


# -- the charts and the figures ---------------------------------------------------------------------
def score_views(dice: int, goal: Goal) -> tuple[alt.Chart, str]:
    """The score of a turn played for the goal against every 3 (or the lowest die): the chart, and the figures'
    table."""
    dists, scores, text = distributions(dice, goal), list(range(6 * dice + 1)), goal.text(dice)
    name = "optimal" if goal.kind == "mean" else "played for the goal"
    values = [float(goal.figure(d, dice)) for d in dists]
    title = alt.Title(
        f"Score of one turn with {dice} dice, playing for {text}",
        subtitle=f"{'expected score' if goal.kind == 'mean' else text}: {name} {values[0]:.4f}, "
        f"{HEURISTIC_NAME} {values[1]:.4f} (exact)",
    )
    chart = policy_bars(
        policy_frame(dict(zip((name, HEURISTIC_NAME), dists)), scores, str),
        title,
        f"score ({6 * dice}: the moon)",
        [str(s) for s in scores],
        width=500,
        height=200,
    )
    rows = [("expected score", Goal()), ("P(score 0)", Goal("target", 0)), ("P(moon)", Goal("moon"))]
    if goal.kind in ("target", "win") and goal.target > 0:
        rows.insert(2, (goal.text(dice), goal))
    body = "".join(
        f"<tr style='border-top:1px solid #eee'><td style='white-space:nowrap'>{html.escape(a)}</td>"
        + "".join(f"<td>{number_html(g.figure(d, dice), kind_of(a))}</td>" for d in dists)
        + "</tr>"
        for a, g in rows
    )
    return chart, (
        "<table class='figures' cellpadding='3' style='font-size:13px;border-collapse:collapse'><tr><th></th><th "
        f"align='left'><span style='color:{OPTIMAL}'>■</span> {name}</th><th align='left'>"
        f"<span style='color:{HEURISTIC}'>■</span> {HEURISTIC_NAME}</th></tr>{body}</table>"
        "<small style='color:#555'>Exact (expectimax over every roll). "
        + (
            "The optimal player sets aside the dice that make the expected score least. "
            if goal.kind == "mean"
            else "Played for the goal: the best choice for it, ties broken by the least expected score. "
        )
        + "The person's rule sets aside every 3, or with no 3 the single lowest die.</small>"
    )


def moon_chart(p: Shown, state: trois.State) -> alt.LayerChart:
    """P(moon) chasing it from each number of dice still to roll, the current one marked (`state`:
    the game, at your choice when a roll is in front of you)."""
    dice, chances = p.dice, moon_chances(p.dice)
    alive = all(d == 6 for d in p.kept) and not p.over and (p.roll is None or 6 in p.roll)
    here = (len(p.roll) if p.roll else p.left) if alive else 0
    frame = pl.DataFrame(
        [
            {
                "value": f"{k}",
                "probability": float(chances[k - 1]),
                "exact": exact_str(chances[k - 1]),
                "where": "you are here" if k == here else "other",
            }
            for k in range(dice, 0, -1)
        ]
    )
    if p.over:
        now = "you shot the moon!" if p.moon else "turn over"
    elif not alive:
        lost = "a die other than 6 is set aside" if any(d != 6 for d in p.kept) else "this roll has no 6"
        now = f"your turn: the moon is lost ({lost})"
    elif p.roll is not None:
        now = (
            f"your turn: the moon is still possible, P(moon) {number_text(state.hint(Goal('moon')).value)} from this "
            "roll, chasing it"
        )
    else:
        now = f"your turn: the moon is still possible, P(moon) {number_text(chances[here - 1])} before this roll"
    title = alt.Title("Shooting the moon: the chance chasing it (exact)", subtitle=now)
    base = alt.Chart(frame, title=title).encode(
        x=alt.X(
            "value:N",
            title="dice still to roll, every die set aside so far a 6",
            sort=frame["value"].to_list(),
            axis=alt.Axis(labelAngle=0),
        )
    )
    bars = base.mark_bar().encode(
        y=alt.Y("probability:Q", title="P(moon)"),
        color=alt.Color(
            "where:N", scale=alt.Scale(domain=["you are here", "other"], range=[HELD, OPTIMAL]), legend=None
        ),
        tooltip=["value", alt.Tooltip("probability:Q", format=".6f"), "exact"],
    )
    text = base.mark_text(dy=-6, fontSize=11, color="#333").encode(
        y="probability:Q", text=alt.Text("probability:Q", format=".4f")
    )
    return alt.layer(bars, text).properties(width=500, height=120)
