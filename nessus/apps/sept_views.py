"""Le Sept fatal (and Pig) dashboard, its words and pictures: the page's HTML and charts as pure
functions of the turn or the game (the games themselves as the page plays them are in
`sept_play`)."""

from __future__ import annotations

import html
from collections.abc import Callable, Hashable
from functools import partial

import altair as alt
import polars as pl

from nessus import pushluck as core
from nessus.apps.sept_play import (
    APPROX,
    BUST,
    CUT_OFF,
    KINDS,
    PIG,
    SEPT,
    Kind,
    Rolls,
    Solution,
    State,
    alone,
    bracket,
    means_frame,
    method_note,
    turn_frame,
)
from nessus.dist import exact_str
from nessus.games.pushluck import pig, sept
from nessus.kit.dicegame import HEURISTIC, OPTIMAL, hint_table, mini_dice, probability_bars
from nessus.numbers import number_html
from nessus.pushluck import Played
from nessus.solver import Hint


def action_label(action: Hashable, k: int, after: str = "") -> str:
    """An action in the game's words."""
    if action == "roll":
        return "roll" if k == 0 else "roll again"
    return f"hold: bank {k}{after}"


def bust_html(text: str) -> str:
    """Words about the bust, in bold red."""
    return f"<b style='color:{BUST}'>{text}</b>"


def rolls_html(rolls: Rolls, kind: Kind) -> str:
    """This turn's rolls as little dice with the running turn total (the bust in red)."""
    parts, total = [], 0
    for faces in rolls:
        if kind.busts(faces):
            parts.append(f"{mini_dice(faces)}{bust_html('✗')}")
        else:
            total += sum(faces)
            parts.append(f"{mini_dice(faces)}<small>→{total}</small>")
    return " ".join(parts)


def counter_html(made: int, moves: int, rolls: Rolls = (), kind: Kind | None = None) -> str:
    """The roll counter: this turn's rolls (none: an empty marker) and your rolls and moves as data."""
    if kind is None:
        return f"<span class='roll-counter' data-made='{made}' data-moves='{moves}'></span>"
    n = len(rolls)
    return (
        f"<span class='roll-counter' data-made='{made}' data-moves='{moves}' style='font-size:14px'>"
        f"{rolls_html(rolls, kind) if rolls else ''} <b>{n} roll{'' if n == 1 else 's'} this turn</b></span>"
    )


def total_html(k: int) -> str:
    """The turn total beside the dice."""
    return (
        f"<div class='sept-total' data-total='{k}' style='margin:0 0 22px 18px;font-size:15px'>turn total "
        f"<b style='font-size:28px'>{k}</b></div>"
    )


def your_note(kind: Kind, turn: Played) -> str:
    """How your turn ended in a game: banked, or wiped by the bust."""
    if turn.end == "hold":
        return f"You banked {turn.banked}."
    if turn.end != "bust":
        return ""  # Pig: the roll reached the goal
    k = turn.lost
    return f"{bust_html(kind.bust_face.capitalize() + '!')} " + (
        f"Your {k} points are wiped." if k else "No points this turn."
    )


def turn_end(kind: Kind, turn: Played) -> str:
    """The log's words for how a turn ended."""
    if turn.end == "hold":
        return f"holds: <b>+{turn.banked}</b>"
    if turn.end == "bust":
        return bust_html(f"{kind.bust_face}: loses {turn.lost}" if turn.lost else f"{kind.bust_face}: 0")
    return f"reaches the goal: <b>+{turn.banked}</b>"


def turn_lines(g: State, you: int, kind: Kind, last: int = 6) -> list[str]:
    """The game's last turns, one log line each: who, the rolls (the bust in red), how it ended."""
    return [
        f"<div class='sept-line'>{'You' if t.player == you else 'Machine'}: "
        f"{rolls_html(t.rolls, kind)} {turn_end(kind, t)}</div>"
        for t in g.history[-last:]
    ]


def status_html(text: str, result: str = "") -> str:
    """The status line (and the game's result in bold, when there is one)."""
    end = (
        f"<div class='sept-result' style='font-weight:bold;font-size:16px'>{html.escape(result)}</div>"
        if result
        else ""
    )
    return f"<div class='sept-status' style='font-size:15px'>{text}</div>{end}"


def turn_status(kind: Kind, state: State) -> str:
    """Where your turn played alone (the first turn of `state`) stands, in words."""
    rolls, total, end = alone(state)
    if end == "bust":
        return (
            f"{bust_html(kind.bust_face.capitalize() + '!')} The turn total is wiped: you score "
            f"<b class='sept-score'>0</b>. <b>Turn over.</b>"
        )
    if end is not None:
        how = "You reach the goal" if end == "goal" else "You hold"
        return f"{how}: you score <b class='sept-score'>{total}</b>. <b>Turn over.</b>"
    if rolls:
        return f"Turn total <b>{total}</b>: roll again, or hold to bank it."
    return f"One turn, playing for points: press <b>Roll</b> ({kind.bust_face} wipes the turn)."


def game_status(g: State, you: int, note: str) -> str:
    """Where a game stands, after `note` (how your last turn ended), in words."""
    mine, theirs = g.scores[you], g.scores[1 - you]
    note = f"{note} The machine has played its turn (below). " if note and not g.is_terminal() else note + " "
    if g.is_terminal():
        return f"{note}<b>Game over.</b>"
    if isinstance(g, sept.State):
        rounds, r = g.rules.rounds, g.round
        stage = f"round {r} of {rounds}" if r <= rounds else "an extra round (the totals were level)"
        return f"{note}Your turn, {stage}: you <b>{mine}</b>, the machine <b>{theirs}</b>."
    return f"{note}Your turn: you <b>{mine}</b>, the machine <b>{theirs}</b>, first to <b>{g.goal}</b>."


def result_text(g: State, you: int) -> str:
    """The result of a finished game, in words ("" while it goes on)."""
    if not g.is_terminal():
        return ""
    mine, theirs = g.scores[you], g.scores[1 - you]
    if g.winner == -1:
        return f"A tie, {mine} to {theirs}: half a win each."
    return f"You win, {mine} to {theirs}." if g.winner == you else f"The machine wins, {theirs} to {mine}."


def advice_html(kind: Kind, n: int, k: int, over: bool) -> str:
    """What hold-at-N says at turn total k, and the best N for points."""
    if over:
        says = ""
    elif k == 0:
        says = "roll (the first roll is compulsory)"
    else:
        says = f"<b>roll</b> ({k} &lt; {n})" if k < n else f"<b>hold</b> ({k} ≥ {n})"
    tail = f"Hold at N = {n} says: {says}. " if says else ""
    return (
        f"<div class='sept-advice' style='color:#444'>{tail}<small>For points the best N is {kind.best[0]}: one more "
        f"roll gains on average while the turn total is below {exact_str(kind.roll.break_even)}.</small></div>"
    )


def verdict_html(last: tuple[Hint | None, str, str] | None, game: bool) -> str:
    """What your last move (its hint, the action, where) was worth against the best (floats in a game)."""
    if last is None:
        return ""
    h, action, where = last
    if h is None:
        return ""
    fmt, unit = (APPROX, "P(win)") if game else (partial(number_html, kind="value"), "expected turn score")
    what = f"Your last move ({action} {where})"
    if h.cost(action) == 0:
        return f"<div class='sept-verdict' style='color:#2e7d32'>{what} was optimal.</div>"
    return f"<div class='sept-verdict'>{what} cost {fmt(h.cost(action))} of {unit} against {h.best}.</div>"


def points_hint_html(state: State, verdict: str) -> str:
    """Alone: the exact expected turn score after each move (`state.hint(core.Points())`), after the
    verdict on your last move."""
    k = state.turn_total
    return (
        verdict + "<div style='color:#555'>Goal: <b>the expected score of this turn</b> (exact; after this move you "
        "play for points)</div>"
        + hint_table(state.hint(core.Points()), None, lambda a: action_label(a, k), unit="expected turn score")
    )


METHODS = {"value-iteration": "≈, value iteration", "exact": "exact", "heuristic": "a rule of thumb"}


def win_hint_html(g: State, sol: Solution, h: Hint, verdict: str) -> str:
    """In a game: P(you win) after each move (`state.hint()`: its method named), when optimal play first holds,
    and how accurate the chances are."""
    after = f" (you would have {g.scores[g.mover] + g.turn_total})"
    table = hint_table(
        h, None, lambda a: action_label(a, g.turn_total, after), fmt=APPROX, unit="P(you win)", method=METHODS[h.method]
    )
    return (
        verdict
        + "<div style='color:#555'>Goal: <b>P(you win)</b>, both playing optimally after this move. Optimal play "
        f"first holds at turn total <b>{g.first_hold()}</b> this turn.</div>{table}"
        f"<div class='sept-method' style='font-size:12px;color:#555'>{method_note(g, sol)}</div>"
    )


def sheet_html(g: State, sol: Solution, you: int, machine: str, row_style: Callable[[int], str]) -> str:
    """The score sheet of a game (each turn's points from the game's history), and your chance
    with optimal play by both."""
    totals, rows = g.scores, []
    banked = [[t.banked for t in g.history if t.player == seat] for seat in (0, 1)]
    who = {you: "You", 1 - you: f"Machine <small>({machine})</small>"}
    if isinstance(g, sept.State):
        rounds = g.rules.rounds
        n = max(rounds, *(len(b) + (seat == g.mover and not g.is_terminal()) for seat, b in enumerate(banked)))
        head = "".join(f"<th>{f'round {r + 1}' if r < rounds else 'extra'}</th>" for r in range(n))
        for seat, b in enumerate(banked):
            now = seat == g.mover and not g.is_terminal()
            cells = "".join(
                f"<td align='center'>{b[r] if r < len(b) else ('…' if now and r == len(b) else '')}</td>"
                for r in range(n)
            )
            rows.append(
                f"<tr class='sept-player' style='{row_style(seat)}'><td>{who[seat]}</td>{cells}"
                f"<td align='center'><b>{totals[seat]}</b></td></tr>"
            )
        title = "Score sheet: the higher total after the last round wins (a tie: one more round)"
        table = f"<tr><th align='left'>player</th>{head}<th>total</th></tr>{''.join(rows)}"
    else:
        for seat, b in enumerate(banked):
            width = round(200 * totals[seat] / g.goal)
            bar = (
                "<span style='display:inline-block;width:200px;height:10px;background:#eee'>"
                "<span style='display:block;"
                f"width:{width}px;height:10px;background:{OPTIMAL if seat == you else HEURISTIC}'></span></span>"
            )
            rows.append(
                f"<tr class='sept-player' style='{row_style(seat)}'><td>{who[seat]}</td><td>{bar}</td>"
                f"<td align='center'><b>{totals[seat]}</b></td><td align='center'>{len(b)}</td></tr>"
            )
        title = f"Score sheet: first to {g.goal} wins"
        table = f"<tr><th align='left'>player</th><th></th><th>score</th><th>turns</th></tr>{''.join(rows)}"
    p = (
        sol.p_first if isinstance(sol, sept.Solution) else float(sol.starts[0])
    )  # P(the first player wins), both optimal
    published = (
        "; Neller and Presser published 0.5306 for the first player"
        if isinstance(g, pig.State) and g.goal == 100
        else ""
    )
    return (
        f"<h4 style='margin:8px 0 2px'>{title}</h4><table class='sept-sheet' cellpadding='3' "
        f"style='border-collapse:collapse;width:100%'>{table}</table>"
        "<div style='font-size:12px;color:#555;margin-top:3px'>"
        f"You play {'first' if you == 0 else 'second'}. With optimal "
        f"play by both, you would win ≈ {p if you == 0 else 1 - p:.6f} of games (value iteration{published}).</div>"
    )


def log_html(lines: list[str]) -> str:
    """The last turns of a game, one line each."""
    return (
        f"<div class='sept-log' style='font-size:13px;line-height:1.8;margin-top:4px'><b>Last turns</b>"
        f"{''.join(lines) or '<div>none yet</div>'}</div>"
    )


# -- the charts ------------------------------------------------------------------------------------
def turn_chart(kind: Kind, n: int) -> alt.LayerChart:
    """The exact score of one turn holding at n, as bars."""
    d, frame = core.hold_at_distribution(kind.roll, n), turn_frame(kind.name, n)
    title = alt.Title(
        f"{kind.name}: the score of one turn holding at {n} (exact)",
        subtitle=f"average {float(d.mean()):.4f} points; P(score 0) = {float(d[0]):.4f}",
    )
    return probability_bars(
        frame,
        title,
        f"turn score (0: the turn ended on {kind.bust_face})",
        frame["value"].to_list(),
        width=500,
        height=150,
    )


def figures_html(kind: Kind, n: int) -> str:
    """The exact figures of holding at n, and of the best N for points."""
    d, (best, best_mean) = core.hold_at_distribution(kind.roll, n), kind.best
    return (
        "<table class='figures' cellpadding='3' style='font-size:13px;white-space:nowrap'>"
        f"<tr><th align='left'>holding at {n}</th><th align='left'>exact</th></tr>"
        f"<tr><td>expected turn score</td><td>{number_html(d.mean(), 'value')}</td></tr>"
        f"<tr><td>P(the turn scores 0)</td><td>{number_html(d[0])}</td></tr>"
        f"<tr><td>best N for points: {best}</td><td>{number_html(best_mean, 'value')}</td></tr></table>"
    )


def means_chart(kind: Kind, n: int) -> alt.LayerChart:
    """The exact expected turn score for every N, with the best N and yours marked."""
    best, best_mean = kind.best
    base = alt.Chart(means_frame(kind.name)).encode(
        x=alt.X("N:Q", title="hold at N", scale=alt.Scale(domain=[1, kind.widest]))
    )
    line = base.mark_line(color=OPTIMAL, point=alt.OverlayMarkDef(size=14, color=OPTIMAL)).encode(
        y=alt.Y("mean:Q", title="expected turn score"), tooltip=["N", alt.Tooltip("mean:Q", format=".6f"), "exact"]
    )
    marks = pl.DataFrame({"N": [best, n], "what": [f"best N = {best}", f"your N = {n}"]})
    rules = (
        alt.Chart(marks)
        .mark_rule(strokeDash=[6, 3])
        .encode(
            x="N:Q",
            color=alt.Color(
                "what:N", scale=alt.Scale(range=["#999999", HEURISTIC]), legend=alt.Legend(orient="top", title=None)
            ),
        )
    )
    off = f"(your N = {n} is off the right edge) " if n > kind.widest else ""
    return alt.layer(line, rules).properties(
        width=500,
        height=150,
        title=alt.Title(
            "Expected score of one turn holding at N (exact)",
            subtitle=f"{off}best N = {best}: {float(best_mean):.4f} points",
        ),
    )


def boundary_key(g: State) -> tuple:
    """What the hold boundary chart of this turn depends on."""
    mine, theirs = g.scores[g.mover], g.scores[1 - g.mover]
    return (SEPT, g.rules.rounds, g.duel_turn, g.lead) if isinstance(g, sept.State) else (PIG, g.goal, theirs, mine)


def boundary_chart(g: State, sol: Solution) -> alt.LayerChart:
    """The turn total at which optimal play first holds, by the mover's position, this turn."""
    mine, theirs = g.scores[g.mover], g.scores[1 - g.mover]
    subtitle: str | list[str]
    if isinstance(g, sept.State) and isinstance(sol, sept.Solution):
        t = g.duel_turn
        leads = [0] if t == 2 * g.rules.rounds else range(-60, 61)
        kept = [x for x in leads if bracket(sol, t, x) <= CUT_OFF]
        frame = pl.DataFrame({"x": kept, "holds from": [sol.hold_boundary(t, x) for x in kept]})
        x_title, here = "your lead at the start of this turn", mine - theirs
        stage = f"turn {t + 1} of {2 * g.rules.rounds}" if t < 2 * g.rules.rounds else "the extra round"
        subtitle = f"{stage}; the dot: your lead now ({here:+d}); dashed: hold at {KINDS[SEPT].best[0]}"
        if len(kept) < len(leads):
            subtitle = [
                subtitle,
                f"leads whose chance the cut-off at ±{sol.duel.margin} moves by more than {CUT_OFF:g} are left out",
            ]
    elif isinstance(g, pig.State) and isinstance(sol, core.Solved):
        frame = pl.DataFrame(
            {"x": range(g.goal), "holds from": [core.hold_boundary(sol, i * g.goal + theirs) for i in range(g.goal)]}
        )
        x_title, here = "your score", mine
        subtitle = f"the machine at {theirs}; the dot: your score now ({mine}); dashed: hold at {KINDS[PIG].best[0]}"
    else:
        raise ValueError("the game and its solution must be of the same game")
    tooltip = [alt.Tooltip("x:Q", title=x_title), "holds from"]
    line = (
        alt.Chart(frame)
        .encode(x=alt.X("x:Q", title=x_title))
        .mark_line(color=OPTIMAL, interpolate="step-after")
        .encode(y=alt.Y("holds from:Q", title="first holds at turn total"), tooltip=tooltip)
    )
    dot = (
        alt.Chart(frame.filter(pl.col("x") == here))
        .mark_point(color=HEURISTIC, size=90, filled=True)
        .encode(x="x:Q", y="holds from:Q", tooltip=tooltip)
    )
    best = KINDS[SEPT if isinstance(g, sept.State) else PIG].best[0]
    rule = alt.Chart(pl.DataFrame({"y": [best]})).mark_rule(color="#999999", strokeDash=[6, 3]).encode(y="y:Q")
    return alt.layer(line, rule, dot).properties(
        width=500,
        height=150,
        title=alt.Title(
            "Optimal play to win: the turn total at which it first holds (value iteration)", subtitle=subtitle
        ),
    )
