"""Le Sept fatal (and Pig) dashboard, its words and pictures: the page's HTML and charts as pure
functions of the game played (`sept.State` or `pig.State`). Numbers go through `nessus.numbers`."""

from __future__ import annotations

import html
from collections.abc import Hashable
from functools import partial

import altair as alt
import polars as pl

from nessus import pushluck as core
from nessus.games import pig, sept
from nessus.kit import goals
from nessus.kit.dicegame import HEURISTIC, OPTIMAL, Table, hint_table, mini_dice
from nessus.numbers import decimal_text, exact_str, number_html
from nessus.solver import Hint

State = sept.State | pig.State
Rolls = tuple[tuple[int, ...], ...]
BUST = "#b00020"
CUT_OFF = 1e-6  # a turn start whose bracket is wider than this is shown as shaken by the cut-off
APPROX = partial(number_html, approx=True)  # a chance found by value iteration (a float): a decimal, never a fraction
METHODS = {"value-iteration": "≈, value iteration", "exact": "exact", "heuristic": "a rule of thumb"}


def action_label(action: Hashable, k: int, after: str = "") -> str:
    """An action in the game's words."""
    if action == "roll":
        return "roll" if k == 0 else "roll again"
    return f"hold: bank {k}{after}"


def bust_html(text: str) -> str:
    """Words about the bust, in bold red."""
    return f"<b style='color:{BUST}'>{text}</b>"


def rolls_html(rolls: Rolls, state: core.TurnState) -> str:
    """A turn's rolls as little dice with the running turn total (the bust in red)."""
    parts, total = [], 0
    for faces in rolls:
        total += 0 if state.busts(faces) else sum(faces)
        parts.append(mini_dice(faces) + (bust_html("✗") if state.busts(faces) else f"<small>→{total}</small>"))
    return " ".join(parts)


def counter_html(made: int, moves: int, rolls: Rolls = (), state: core.TurnState | None = None) -> str:
    """The roll counter: this turn's rolls (none: an empty marker) and your rolls and moves as data."""
    data = f"class='roll-counter' data-made='{made}' data-moves='{moves}'"
    if state is None:
        return f"<span {data}></span>"
    n, shown = len(rolls), rolls_html(rolls, state) if rolls else ""
    return f"<span {data} style='font-size:14px'>{shown} <b>{goals.plural(n, 'roll')} this turn</b></span>"


def total_html(k: int | None) -> str:
    """The turn total beside the dice (None: no game, an empty marker)."""
    if k is None:
        return "<div class='sept-total' data-total='0'></div>"
    return (
        f"<div class='sept-total' data-total='{k}' style='margin:0 0 22px 18px;font-size:15px'>turn total "
        f"<b style='font-size:28px'>{k}</b></div>"
    )


def turn_line(state: core.TurnState, turn: core.Played, you: int) -> str:
    """One finished turn for the log: who, the rolls (the bust in red), how it ended."""
    if turn.end == "hold":
        end = f"holds: <b>+{turn.banked}</b>"
    elif turn.end == "bust":
        end = bust_html(f"{state.BUST_WORDS}: loses {turn.lost}" if turn.lost else f"{state.BUST_WORDS}: 0")
    else:
        end = f"reaches the goal: <b>+{turn.banked}</b>"
    who = "You" if turn.player == you else "Machine"
    return f"<span class='sept-line'>{who}: {rolls_html(turn.rolls, state)} {end}</span>"


def status_html(text: str, result: str = "") -> str:
    """The status line (and the game's result in bold, when there is one)."""
    end = f"<div class='sept-result' style='font-weight:bold;font-size:16px'>{html.escape(result)}</div>"
    return goals.status_html("sept", text) + (end if result else "")


def turn_status(state: core.TurnState) -> str:
    """Where your turn played alone (the first turn of `state`) stands, in words."""
    rolls, total, end = state.first_turn()
    if end is not None:
        wiped = f"{bust_html(state.BUST_WORDS.capitalize() + '!')} The turn total is wiped"
        how = {"bust": wiped, "goal": "You reach the goal"}.get(end, "You hold")
        return f"{how}: you score <b class='sept-score'>{total}</b>. <b>Turn over.</b>"
    if rolls:
        return f"Turn total <b>{total}</b>: roll again, or hold to bank it."
    return f"One turn, playing for points: press <b>Roll</b> ({state.BUST_WORDS} wipes the turn)."


def game_status(g: State, you: int) -> str:
    """Where a game stands, after how your last turn ended (banked, or wiped by the bust) when it just did."""
    mine, theirs, turns = g.scores[you], g.scores[1 - you], g.turns_of(you)
    note, last = "", turns[-1] if turns and not g.rolls else None
    if last is not None and last.end == "hold":
        note = f"You banked {last.banked}."
    elif last is not None and last.end == "bust":  # (Pig: a roll reaching the goal goes untold)
        wiped = f"Your {last.lost} points are wiped." if last.lost else "No points this turn."
        note = f"{bust_html(g.BUST_WORDS.capitalize() + '!')} {wiped}"
    if g.is_terminal():
        return f"{note} <b>Game over.</b>"
    note = f"{note} The machine has played its turn (below). " if note else " "
    if isinstance(g, sept.State):
        rounds, r = g.rules.rounds, g.round
        stage = f"round {r} of {rounds}" if r <= rounds else "an extra round (the totals were level)"
        return f"{note}Your turn, {stage}: you <b>{mine}</b>, the machine <b>{theirs}</b>."
    return f"{note}Your turn: you <b>{mine}</b>, the machine <b>{theirs}</b>, first to <b>{g.goal}</b>."


def advice_html(law: core.RollLaw, n: int, k: int, over: bool) -> str:
    """What hold-at-N says at turn total k, and the best N for points."""
    says = f"<b>roll</b> ({k} &lt; {n})" if k < n else f"<b>hold</b> ({k} ≥ {n})"
    says = "roll (the first roll is compulsory)" if k == 0 else says
    tail = "" if over else f"Hold at N = {n} says: {says}. "
    even, top = exact_str(law.break_even), core.best_hold(law)[0]
    return (
        f"<div class='sept-advice' style='color:#444'>{tail}<small>For points the best N is {top}: "
        f"one more roll gains on average while the turn total is below {even}.</small></div>"
    )


def verdict_html(last: tuple[Hint | None, str, str] | None, objective: core.Points | core.Win) -> str:
    """What your last move (its hint, the action, where) was worth against the best (floats in a game)."""
    h, action, where = last or (None, "", "")
    if h is None:
        return ""
    fmt = APPROX if isinstance(objective, core.Win) else partial(number_html, kind="value")
    what = f"Your last move ({action} {where})"
    if h.cost(action) == 0:
        return f"<div class='sept-verdict' style='color:#2e7d32'>{what} was optimal.</div>"
    return f"<div class='sept-verdict'>{what} cost {fmt(h.cost(action))} of {objective.unit} against {h.best}.</div>"


def hint_html(g: State, objective: core.Points | core.Win, h: Hint, verdict: str) -> str:
    """The value of each move for `objective` (`state.hint(objective)`: its method named), after
    the verdict on your last move; in a game, when optimal play first holds and how accurate it is."""
    k, win = g.turn_total, isinstance(objective, core.Win)
    after = f" (you would have {g.scores[g.mover] + k})" if win else ""
    table = hint_table(
        h, None, lambda a: action_label(a, k, after), APPROX if win else None, objective.unit, METHODS[h.method]
    )
    if not win:
        goal = f"<b>{objective.text}</b> (exact; after this move you play for points)"
        return f"{verdict}<div style='color:#555'>Goal: {goal}</div>{table}"
    return (
        f"{verdict}<div style='color:#555'>Goal: <b>{objective.text}</b>, both playing optimally after this move. "
        f"Optimal play first holds at turn total <b>{g.first_hold()}</b> this turn.</div>{table}"
        f"<div class='sept-method' style='font-size:12px;color:#555'>{g.accuracy()}</div>"
    )


def sheet_html(g: State, seats: Table, machine: str) -> str:
    """The score sheet of a game (each turn's points), and your chance with optimal play by both."""
    you, rows = seats.you, []
    who = {you: "You", 1 - you: f"Machine <small>({machine})</small>"}
    banked = [[t.banked for t in g.turns_of(seat)] for seat in (0, 1)]
    playing = [seat == g.mover and not g.is_terminal() for seat in (0, 1)]
    n = max(len(b) + now for b, now in zip(banked, playing))  # the turns played and being played
    for seat, b in enumerate(banked):
        cells: list[object]
        if isinstance(g, sept.State):
            n = max(n, g.rules.rounds)
            cells = [b[r] if r < len(b) else ("…" if playing[seat] and r == len(b) else "") for r in range(n)]
            cells.append(f"<b>{g.scores[seat]}</b>")
        else:
            width, colour = round(200 * g.scores[seat] / g.goal), OPTIMAL if seat == you else HEURISTIC
            inner = f"<span style='display:block;width:{width}px;height:10px;background:{colour}'></span>"
            bar = f"<span style='display:inline-block;width:200px;height:10px;background:#eee'>{inner}</span>"
            cells = [bar, f"<b>{g.scores[seat]}</b>", len(b)]
        tds = "".join(f"<td align='center'>{c}</td>" for c in cells)
        rows.append(goals.seat_row("sept", seats, seat, f"<td>{who[seat]}</td>{tds}"))
    if isinstance(g, sept.State):
        head = [f"round {r + 1}" if r < g.rules.rounds else "extra" for r in range(n)] + ["total"]
        title, published = "Score sheet: the higher total after the last round wins (a tie: one more round)", ""
    else:
        head, title = ["", "score", "turns"], f"Score sheet: first to {g.goal} wins"
        published = "; Neller and Presser published 0.5306 for the first player" if g.goal == 100 else ""
    ths, p = "".join(f"<th>{h}</th>" for h in head), g.p_first()
    return goals.sheet_html("sept", title, "sept-sheet", [f"<tr><th align='left'>player</th>{ths}</tr>", *rows]) + (
        "<div style='font-size:12px;color:#555;margin-top:3px'>"
        f"You play {'first' if you == 0 else 'second'}. With optimal play by both, you would win "
        f"{APPROX(p if you == 0 else 1 - p)} of games (value iteration{published}).</div>"
    )


# -- the charts ------------------------------------------------------------------------------------
def boundary_chart(g: State) -> alt.LayerChart:
    """The turn total at which optimal play first holds, by the mover's position, this turn."""
    mine, theirs = g.scores[g.mover], g.scores[1 - g.mover]
    top = core.best_hold(g.LAW)[0]
    if isinstance(g, sept.State):
        holds, rounds, t = sept.first_holds(g, cut_off=CUT_OFF), g.rules.rounds, g.duel_turn
        x_title, here = "your lead at the start of this turn", mine - theirs
        stage = f"turn {t + 1} of {2 * rounds}" if t < 2 * rounds else "the extra round"
        subtitle = [f"{stage}; the dot: your lead now ({here:+d}); dashed: hold at {top}"]
        if t < 2 * rounds and len(holds) < 121:
            margin = sept.solution(g.rules).duel.margin
            subtitle.append(
                f"leads whose chance the cut-off at ±{margin} moves by more than {decimal_text(CUT_OFF)} are left out"
            )
    else:
        holds, x_title, here = pig.first_holds(g), "your score", mine
        subtitle = [f"the machine at {theirs}; the dot: your score now ({mine}); dashed: hold at {top}"]
    frame = pl.DataFrame({"x": list(holds), "holds from": list(holds.values())})
    tooltip = [alt.Tooltip("x:Q", title=x_title), "holds from"]
    y = alt.Y("holds from:Q", title="first holds at turn total")
    line = alt.Chart(frame).mark_line(color=OPTIMAL, interpolate="step-after").encode(alt.X("x:Q", title=x_title), y)
    dot = alt.Chart(frame.filter(pl.col("x") == here)).mark_point(color=HEURISTIC, size=90, filled=True)
    rule = alt.Chart(pl.DataFrame({"y": [top]})).mark_rule(color="#999999", strokeDash=[6, 3])
    title = alt.Title(
        "Optimal play to win: the turn total at which it first holds (value iteration)", subtitle=subtitle
    )
    return alt.layer(
        line.encode(tooltip=tooltip), rule.encode(y="y:Q"), dot.encode(x="x:Q", y="holds from:Q", tooltip=tooltip)
    ).properties(width=500, height=150, title=title)
