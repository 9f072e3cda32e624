"""What the Les Trois page draws, as HTML or altair charts: your turn (`state.Shown`: the dice, the
status, the rolls so far, the buttons' words, the hint), the score sheet, a turn's score
distribution with its figures, and the chance of the moon."""

from __future__ import annotations

import html
from collections.abc import Hashable
from functools import partial

import altair as alt
import polars as pl

from nessus.games import trois
from nessus.games.trois.state import Shown, result_text, tie_lines
from nessus.kit.dicegame import (
    HELD,
    HEURISTIC,
    OPTIMAL,
    DiceTray,
    Table,
    hint_table,
    kind_of,
    mini_dice,
    policy_bars,
    policy_frame,
)
from nessus.kit.goals import figures_html, goal_hint, plural, seat_row, swatch
from nessus.kit.goals import sheet_html as goal_sheet
from nessus.kit.goals import status_html as goal_status
from nessus.numbers import decimal_text, number_html, number_text

HEURISTIC_NAME = "every 3, or the lowest die"
HELP = (
    "<small style='color:#555'>Click the dice to set aside (at least one), then Roll the others. A 3 counts 0.</small>"
)
TRAY_CSS = (
    "<style>.trois-tray .nessus-die.locked{transform:none;filter:saturate(.35) brightness(.97)}"
    ".trois-sheet td,.trois-sheet th{padding:3px 5px}</style>"
)


class AsideTray(DiceTray):
    """A DiceTray whose locked dice (set aside on an earlier roll) stay down, greyed, labelled "final"."""

    def show_turn(self, p: Shown) -> None:
        """Your turn's dice, if any: those set aside (final), then the roll to choose from."""
        roll = p.roll or ()
        if p.kept or roll:
            self.show(p.kept + roll, locked=[True] * len(p.kept) + [False] * len(roll), active=bool(roll))

    @property
    def marked(self) -> tuple[int, ...]:
        """The dice of the roll marked to set aside, sorted."""
        return tuple(sorted(f for f, h, k in zip(self.faces, self.held, self.locked) if h and not k))

    def _note(self, i: int) -> str:
        return "<span style='color:#777'>final</span>" if self.locked[i] else super()._note(i)


NO_CHOICE, ROLL_FIRST = (
    "The turn is over: no choice is left to weigh.",
    "Roll first: the hint weighs the dice you may set aside.",
)


def action_label(p: Shown, action: Hashable) -> str:
    """A set-aside in the game's words, with little dice."""
    aside, rolled = trois.as_aside(action), p.roll or ()
    if len(aside) == len(rolled):
        return f"set aside all: score {p.after(aside)}"
    return f"set aside {mini_dice(aside, held=True)}, roll {len(rolled) - len(aside)}"


def step_html(rolls: int, roll: tuple[int, ...], aside: tuple[int, ...], kept: tuple[int, ...]) -> str:
    """A line of the rolls so far: the roll, the dice set aside from it, their points and the turn's."""
    points = plural(trois.score(aside), "point"), plural(trois.score(kept + aside), "point")
    return (
        f"Roll {rolls}: {mini_dice(roll)} → set aside {mini_dice(aside, held=True)} ({points[0]}; {points[1]} in all)."
    )


def counter_html(rolls: int, aside: int, dice: int, over: bool) -> str:
    """The roll counter: a pip per die (filled once set aside) and the rolls made."""
    pips = "".join(f"<span style='color:{OPTIMAL if i < aside else '#ccc'}'>●</span>" for i in range(dice))
    text = (
        f"Turn over after {plural(rolls, 'roll')}"
        if over
        else f"{dice} dice to roll"
        if rolls == 0
        else f"Roll {rolls} · {aside} of {dice} dice set aside"
    )
    return f"<span class='roll-counter' data-made='{rolls}' style='font-size:15px'>{pips} <b>{text}</b></span>"


def button_labels(p: Shown, aside: tuple[int, ...] | None, done: bool) -> tuple[str, str]:
    """The Roll and Set aside all buttons' labels: before a roll (`aside` None), or for the dice marked."""
    if aside is None:
        return "Roll" if done else f"Roll {plural(p.left, 'die')}", "Set aside all"
    n = len(p.roll or ()) - len(aside)
    roll = f"Roll {plural(n, 'die')}" if n else f"End turn: score {p.after(aside)}"
    return roll if aside else "Roll (set a die aside)", f"Set aside all: {p.after(p.roll or ())}"


def status_html(
    p: Shown, goal: trois.TurnObjective, game: trois.State | None = None, round_: int = 0, waiting: bool = False
) -> str:
    """The status line: in a `game` the round on show and what you play for (`waiting`: your turn
    is played); then what to do, or how the turn ended."""
    over = game is not None and game.is_terminal()
    if waiting and not p.over:
        verdict = "The game is over." if over else "You are out of contention: the tied players play on."
    elif p.moon:
        verdict = f"<b>You shoot the moon</b> ({p.dice} sixes): you win the pot at once!"
    elif p.over:
        zero = " All 3s: every other player pays you a stake." if p.score == 0 else ""
        verdict = f"Turn over: score <b class='trois-score'>{p.score}</b>.{zero}"
    elif p.roll is None and not p.kept:
        verdict = f"Your turn: press <b>Roll {p.dice} dice</b>."
    else:  # a roll in front of you (chance rolls the dice left at once)
        verdict = (
            f"Set aside so far: <b class='trois-score'>{p.score}</b>. Choose the dice to set aside from this "
            "roll (at least one)."
        )
    line = ""
    if game is not None and not over:
        aim = "your turn is over; press Next round when you are ready." if waiting else goal.aim(game.deciding())
        which = game.rules.round_name(round_).capitalize()
        line = f"<div class='trois-round' style='font-size:13px;color:#555'>{which}: {aim}</div>"
    return goal_status("trois", line + verdict)


# -- the hint and the score sheet -------------------------------------------------------------------
def hint_html(state: trois.State, p: Shown, goal: trois.TurnObjective, chosen: tuple[int, ...] | None) -> str:
    """The goal and every set-aside's exact value in the game `state` at your choice (for the
    least expected score if all are alike for the goal)."""
    h, mean, label = state.hint(goal), trois.LeastScore(p.dice), partial(action_label, p)
    if len(set(h.values.values())) > 1 or goal == mean:
        return goal_hint(goal, h, label, chosen)
    v = next(iter(h.values.values()))
    tie = (
        f"<div class='hint-tie' style='color:#555'>Here {goal.tied(v)}: {html.escape(goal.unit)} "
        f"{number_html(v, kind_of(goal.unit))} whatever you set aside. So play for the least expected score:</div>"
    )
    return goal_hint(goal, None, label, note=tie) + hint_table(state.hint(mean), chosen, label, unit=mean.unit)


def sheet_html(state: trois.State, round_: int, since: int, seats: Table) -> str:
    """The score sheet of the game `state` showing round `round_`: scores round by round, totals, each
    seat's last turn since the turn `since` (the first on this page of the sheet), the ties met since,
    the result (`seats`: who plays, you and the machines)."""
    names, you = [seats.name(s) for s in range(state.rules.players)], seats.you
    r, result, live = state.rules.rounds, result_text(state, names), state.seats
    columns = max(r, round_ + 1)
    head = "".join(f"<th>{k + 1 if k < r else f'tie {k + 1 - r}'}</th>" for k in range(columns))
    last_turns = {t.seat: t.dice for t in state.history[since:]}
    rows = []
    for seat, scores in enumerate(state.sheet()):
        marks = {s: " <b>moon</b>" if s == 6 * state.rules.dice else " ✦" if s == 0 else "" for s in scores.values()}
        cells = [
            f"<td align='center'>{scores[k]}{marks[scores[k]]}</td>"
            if k in scores
            else "<td align='center'>…</td>"
            if k == round_ and seat == you and seat in live and not result
            else "<td align='center' style='color:#aaa'>—</td>"
            if k == round_ and seat not in live
            else "<td></td>"
            for k in range(columns)
        ]
        last = mini_dice(last_turns[seat], 16) if seat in last_turns else ""
        won = " <b style='color:#2e7d32'>★ wins</b>" if result and seat == state.winner else ""
        total = f"<td align='center'><b>{sum(scores.values())}</b></td><td>{last}</td>"
        rows.append(seat_row("trois", seats, seat, f"<td>{seats.who_html(seat)}{won}</td>{''.join(cells)}{total}"))
    lines = "".join(f"<div>{html.escape(line)}</div>" for line in tie_lines(state, names, since))
    head = f"<tr><th align='left'>player</th>{head}<th>total</th><th align='left'>this round</th></tr>"
    return (
        goal_sheet(
            "trois", "Score sheet: the lowest total wins", "trois-sheet", [head, *rows], result, ";font-size:13px"
        )
        + f"<div style='font-size:13px;color:#555'>{lines}</div>"
        "<small style='color:#777'>✦ a 0 (every other player pays a stake; stakes are not counted here).</small>"
    )


# -- the charts and the figures ---------------------------------------------------------------------
def score_views(goal: trois.TurnObjective) -> tuple[alt.Chart, str]:
    """The score of a turn played for the goal against every 3 (or the lowest die): the chart, and
    the figures' table."""
    dice, name, mean = goal.dice, goal.played, trois.LeastScore(goal.dice)
    dists = trois.distribution(goal), trois.heuristic_distribution(dice)
    scores = list(range(6 * dice + 1))
    values = [number_text(goal.figure(d), kind=kind_of(goal.unit)) for d in dists]
    title = alt.Title(
        f"Score of one turn with {dice} dice, playing for {goal.text}",
        subtitle=f"{'expected score' if goal == mean else goal.text}: {name} {values[0]}, "
        f"{HEURISTIC_NAME} {values[1]} (exact)",
    )
    chart = policy_bars(
        policy_frame(dict(zip((name, HEURISTIC_NAME), dists)), scores, str),
        title,
        f"score ({6 * dice}: the moon)",
        [str(s) for s in scores],
        width=500,
        height=200,
    )
    rows = [[html.escape(a), *(number_html(g.figure(d), kind_of(a)) for d in dists)] for a, g in goal.figures()]
    how = (
        "The optimal player sets aside the dice that make the expected score least. "
        if goal == mean
        else "Played for the goal: the best choice for it, ties broken by the least expected score. "
    )
    note = (
        f"<small style='color:#555'>Exact (expectimax over every roll). {how}"
        "The person's rule sets aside every 3, or with no 3 the single lowest die.</small>"
    )
    return chart, figures_html(["", swatch(OPTIMAL, name), swatch(HEURISTIC, HEURISTIC_NAME)], rows, note)


def moon_chart(p: Shown, state: trois.State) -> alt.LayerChart:
    """P(moon) chasing it from each number of dice still to roll, the current one marked (`state`:
    the game, at your choice when a roll is in front of you)."""
    dice, chances, here = p.dice, trois.moon_chances(p.dice), p.chasing
    frame = pl.DataFrame(
        [
            {
                "value": f"{k}",
                "probability": float(chances[k - 1]),
                "chance": number_text(chances[k - 1]),
                "label": decimal_text(chances[k - 1]),
                "where": "you are here" if k == here else "other",
            }
            for k in range(dice, 0, -1)
        ]
    )
    title = alt.Title("Shooting the moon: the chance chasing it (exact)", subtitle=p.moon_text(state))
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
        tooltip=[alt.Tooltip("value:N", title="dice still to roll"), alt.Tooltip("chance:N", title="P(moon)")],
    )
    text = base.mark_text(dy=-6, fontSize=11, color="#333").encode(y="probability:Q", text="label:N")
    return alt.layer(bars, text).properties(width=500, height=120)
