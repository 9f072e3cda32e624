"""L'Hypogéon's page, what has no widget in it: the dice, the gauge, the status, the score sheet,
the exact odds of a game and the figures as HTML, and the charts, as pure functions of the game
(`State`), your turn and the rules."""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction

import altair as alt
import polars as pl

from nessus.games.hypogeon import odds
from nessus.games.hypogeon.policies import equilibria_text, opponents_text, rule_figures, rule_text
from nessus.games.hypogeon.rules import BUST, LIMIT
from nessus.games.hypogeon.state import State, TurnRecord, final_text, result_text, round_line, round_text
from nessus.kit.dicegame import HELD, OPTIMAL, Table, face_svg, kind_of, mini_dice, policy_bars, policy_frame
from nessus.kit.goals import figures_html as figures_table
from nessus.kit.goals import plural, seat_row, swatch
from nessus.kit.goals import sheet_html as goal_sheet
from nessus.numbers import d3_format, number_html, number_text

BUST_RED, GOLD = "#c62828", "#e0a800"
EMPTY_DIE = (
    "<svg width='46' height='46' viewBox='0 0 46 46'><rect x='2' y='2' width='42' height='42' rx='8' fill='none' "
    "stroke='#aaa' stroke-width='2' stroke-dasharray='5 4'/></svg>"
)
PLUS = "<span style='font-size:20px;color:#888;margin:0 2px'>+</span>"


def dice_row(rolls: Sequence[Sequence[int]]) -> str:
    """The dice of a turn: the first pair, then each added die after a '+' (two empty places before the first roll)."""
    dice = PLUS.join(
        "".join(f"<span class='hypogeon-die' data-face='{f}'>{face_svg(f, 46)}</span>" for f in roll) for roll in rolls
    )
    return (
        f"<div class='hypogeon-dice' data-count='{sum(map(len, rolls))}' "
        f"style='display:flex;flex-wrap:wrap;align-items:center;gap:3px;min-height:50px'>{dice or EMPTY_DIE * 2}</div>"
    )


def gauge_html(turn: TurnRecord, stand_at: int) -> str:
    """The running total on a strip from 2 to 21 (the opponents' stand-at mark, 21 in gold), and
    the roll counter (CSS class roll-counter, data-made = rolls made)."""
    total, bust = turn.total, turn.bust
    cells = []
    for t in range(2, LIMIT + 1):
        reached = t <= total
        fill = BUST_RED if bust else (GOLD if t == LIMIT and reached else OPTIMAL if reached else "#eef2f7")
        edge = f"border-left:3px solid {HELD};" if t == stand_at else "border-left:1px solid #fff;"
        colour = "#fff" if reached or bust else "#789"
        cells.append(
            f"<div title='total {t}' style='width:22px;height:24px;line-height:24px;text-align:center;font-size:10px;"
            f"background:{fill};color:{colour};{edge}'>{t}</div>"
        )
    shown = (f"color:{BUST_RED}", f"{total}: bust") if bust else ("font-size:20px", total) if turn.rolls else None
    style, text = shown or ("color:#999", "–")
    made = len(turn.rolls)
    counter = (
        f"<span class='roll-counter' data-made='{made}' style='color:#555;margin-left:10px'>"
        f"{plural(made, 'roll')}{' · turn over' if turn.over else ''}</span>"
    )
    return (
        "<div style='display:flex;align-items:center;gap:8px;margin:4px 0'><span>Total</span>"
        f"<b class='hypogeon-total' style='{style}'>{text}</b>{counter}</div>"
        f"<div class='hypogeon-gauge' style='display:flex'>{''.join(cells)}</div>"
        f"<div style='font-size:11px;color:{HELD};margin-left:{(stand_at - 2) * 22}px'>▲ they stand at {stand_at}</div>"
    )


def status_html(t: TurnRecord, players: int, stand_at: int, reply_to: int | None = None) -> str:
    """What to do next, and who you play against (`reply_to`: the k the machines reply to)."""
    if not t.rolls:
        verdict = "Your turn: press <b>Roll 2 dice</b>."
    elif t.bust:
        verdict = f"<b style='color:{BUST_RED}'>Bust</b> with {t.total}: this turn scores nothing."
    elif t.over:
        verdict = f"You stand on <b>{t.total}</b>."
    else:
        verdict = f"Total <b>{t.total}</b>: roll one more die, or stand."
    reply = f" (the best reply to {reply_to})" if reply_to else ""
    return (
        f"<div class='hypogeon-status' style='font-size:15px;margin-top:4px'>{verdict}</div>"
        f"<div style='color:#555;font-size:13px'>Against {opponents_text(players, stand_at)}{reply}.</div>"
    )


def player_cells(turn: TurnRecord | None, points: int) -> tuple[str, str, str]:
    """A player's dice, final total and points in this round (`turn` None: hidden until yours ends)."""
    if turn is None:
        return "<i style='color:#888'>plays at the same time</i>", "", ""
    if not turn.rolls:
        return "<i>to play</i>", "", ""
    dice = " + ".join(mini_dice(d, 15) for d in turn.rolls)
    if not turn.over:
        return dice, f"{turn.total}…", ""
    won = f"<b style='color:#2e7d32'>+{points}</b>" if points else ""
    return dice, f"<b>{final_text(turn.final)}</b>", won


def sheet_html(
    state: State, turn: TurnRecord, seats: Table, game: bool, start: Sequence[int], tally: odds.Tally
) -> str:
    """The round (alone: with the `tally` of your turns) or the game's score sheet (with your exact
    odds from the scores at the `start` of the round, and the rounds played, the latest first):
    every player's dice, total, points and score, the round's outcome and the game's result."""
    r, over, points = state.rules, turn.over, state.round_points
    names = [seats.name(seat) for seat in range(r.players)]
    rows = []
    for seat, score in enumerate(state.scores):
        dice, final, won = player_cells(turn if seat == 0 else state.turns[seat] if over else None, points[seat])
        who = "You" if seat == 0 else f"Player {seat + 1} <small>(stands at {r.stand_at})</small>"
        pips = "".join(f"<span style='color:{OPTIMAL if i < score else '#ccc'}'>●</span>" for i in range(r.target))
        cell = f"<td align='center'><b>{score}</b> {pips}</td>" if game else ""
        cells = f"<td>{who}</td><td>{dice}</td><td align='center'>{final}</td><td align='center'>{won}</td>{cell}"
        rows.append(seat_row("hypogeon", seats, seat, cells))
    title = f"Score sheet: first to {plural(r.target, 'point')}, round {len(state.played) + (0 if over else 1)}"
    head = "<tr><th align='left'>player</th><th align='left'>dice</th><th>total</th><th>points</th>"
    rows.insert(0, f"{head}{'<th>score</th>' if game else ''}</tr>")
    sheet = goal_sheet("hypogeon", title if game else "This round", "hypogeon-sheet", rows, style=";font-size:13px")
    if over:
        sheet += f"<div class='hypogeon-round' style='margin-top:4px'>{round_text(state.finals, names)}</div>"
    if result := html.escape(result_text(state, names)):
        sheet += f"<div class='hypogeon-result' style='font-weight:bold;margin-top:4px'>{result}</div>"
    if not game:
        return sheet + tally_html(tally)
    lines = "".join(f"<div>{round_line(n, f, names)}</div>" for n, f in reversed(list(enumerate(state.played, 1))))
    style = "max-height:110px;overflow-y:auto;font-size:12px;color:#444;border-top:1px solid #ddd;margin-top:4px"
    rounds = f"<div class='hypogeon-rounds' style='{style}'>{lines}</div>" if lines else ""
    return sheet + ("" if result else odds_html(start, *odds.reply_odds(r, start), r.stand_at)) + rounds


def odds_html(scores: Sequence[int], best: int, mine: Fraction, same: Fraction, left: Fraction, same_k: int) -> str:
    """Your exact chance of winning the game standing at the best reply `best` and like them at
    `same_k`, and the expected rounds left (`reply_odds`)."""
    head = f"Your chance of winning the game from the start of this round (scores {'–'.join(map(str, scores))}), exact"
    rows = [
        (f"standing at {best} from now on (the best reply to them)", mine),
        (f"standing at {same_k} like them", same),
        (f"expected rounds left (you standing at {best})", left),
    ]
    return figures_table(
        [head], [(words, number_html(x, "value")) for words, x in rows], nowrap=False, css="hypogeon-odds figures"
    )


def tally_html(tally: odds.Tally) -> str:
    """Alone: your points over the turns played, against what the optimal rule and the opponents' rule expect."""
    if not (n := tally.turns):
        return ""
    rows = [
        ("points you scored", f"<b>{tally.points}</b> ({number_html(Fraction(tally.points, n), 'value')} per round)"),
        ("expected with optimal play (exact)", number_html(tally.optimal, "value")),
        ("expected standing at their k, like them (exact)", number_html(tally.same, "value")),
        ("expected points your decisions cost", number_html(tally.cost, "value")),
    ]
    return figures_table([f"Your {plural(n, 'turn')} alone"], rows, nowrap=False, css="hypogeon-tally figures")


def figures_html(k: int, best: int, n: int) -> str:
    """Standing at k against standing at the best reply to k: P(bust), P(21), mean, points; the equilibria."""
    cells = [
        (html.escape(a), number_html(b, kind_of(a)), number_html(c, kind_of(a))) for a, b, c in rule_figures(k, best, n)
    ]
    head = ["", swatch(OPTIMAL, html.escape(rule_text(k))), swatch(HELD, f"best reply: {html.escape(rule_text(best))}")]
    note = "Exact: rational arithmetic over every sequence of dice, the decimals for reading. " + equilibria_text(n)
    return figures_table(head, cells, f"<small style='color:#555'>{note}</small>", nowrap=False)


def totals_chart(k: int, best: int, players: int) -> alt.Chart:
    """The final total's exact distribution standing at k and standing at the best reply to k."""
    order = [BUST, *range(min(k, best), LIMIT + 1)]
    dists = {
        f"{rule_text(k)} (them)": odds.final_total(k),
        f"best reply: {rule_text(best)}": odds.final_total(best),
    }
    title = alt.Title(
        f"Final total of a turn, standing at {k}",
        subtitle=f"P(bust) {number_text(odds.p_bust(k))}, P(21) {number_text(odds.p_21(k))}; "
        f"the best reply to {opponents_text(players, k)} stands at {best}",
    )
    frame = policy_frame(dists, order, final_text)
    return policy_bars(frame, title, "final total", [final_text(t) for t in order], width=500, height=180)


def points_chart(k: int, players: int) -> alt.Chart:
    """Your expected points per round for every stand-at rule j, against the opponents standing at k."""
    best, value = odds.best_response(k, players)
    values = odds.replies(k, players)
    frame = pl.DataFrame(
        {
            "your rule": [f"stand at {j}" for j in values],
            "j": list(values),
            "points": [float(v) for v in values.values()],
            "exact": [number_text(v, kind="value") for v in values.values()],
            "kind": ["best reply" if j == best else "like them" if j == k else "other" for j in values],
        }
    )
    title = alt.Title(
        f"Your expected points per round against {opponents_text(players, k)}",
        subtitle=f"best reply: stand at {best}, {number_text(value, kind='value')} points; like them, at {k}: "
        f"{number_text(values[k], kind='value')}",
    )
    colours = alt.Scale(domain=["best reply", "like them", "other"], range=[HELD, "#1f4e79", "#9ecae9"])
    return (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(
            x=alt.X("j:O", title="you stand at", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("points:Q", title="points per round"),
            color=alt.Color("kind:N", scale=colours, legend=alt.Legend(orient="top", title=None)),
            tooltip=["your rule", alt.Tooltip("points:Q", format=d3_format("value")), "exact"],
        )
        .properties(width=500, height=140)
    )


def by_k_charts(k: int, players: int) -> alt.HConcatChart:
    """P(bust) and P(21) for every k, and the best reply to every k with the symmetric equilibria."""
    by_k = pl.DataFrame(
        [
            {"k": j, "event": event, "probability": float(p), "exact": number_text(p)}
            for j in range(2, LIMIT + 1)
            for event, p in (("P(bust)", odds.p_bust(j)), ("P(21)", odds.p_21(j)))
        ]
    )
    colours = alt.Scale(domain=["P(bust)", "P(21)"], range=[BUST_RED, GOLD])
    lines = (
        alt.Chart(by_k, title=alt.Title("P(bust) and P(21) standing at k", subtitle="exact"))
        .mark_line(point=True)
        .encode(
            x=alt.X("k:Q", title="stand at k", scale=alt.Scale(domain=[2, LIMIT])),
            y=alt.Y("probability:Q", title="probability"),
            color=alt.Color("event:N", scale=colours, legend=alt.Legend(orient="top-left", title=None)),
            tooltip=["k", "event", alt.Tooltip("probability:Q", format=d3_format("probability")), "exact"],
        )
    )
    mark = alt.Chart(pl.DataFrame({"k": [k]})).mark_rule(color=HELD, strokeDash=[4, 3]).encode(x="k:Q")
    left = alt.layer(lines, mark).properties(width=215, height=150)

    reply = odds.best_response_table(players).drop("best_points_exact")
    eq = odds.equilibria(players)
    eq_text = "equilibrium at " + ", ".join(map(str, eq)) if eq else "no symmetric equilibrium"
    rbase = alt.Chart(
        reply, title=alt.Title(f"Best reply to k, {players} players", subtitle=f"{eq_text} (on the diagonal)")
    )
    diagonal = (
        alt.Chart(pl.DataFrame({"a": [2, LIMIT], "b": [2, LIMIT]}))
        .mark_line(color="#bbb", strokeDash=[3, 3])
        .encode(x="a:Q", y="b:Q")
    )
    x = alt.X("opponents_stand_at:Q", title="they stand at k", scale=alt.Scale(domain=[2, LIMIT]))
    y = alt.Y("best_stand_at:Q", title="best reply", scale=alt.Scale(domain=[2, LIMIT]))
    steps = rbase.mark_line(point=True, interpolate="step-after", color=OPTIMAL).encode(
        x=x,
        y=y,
        tooltip=[
            alt.Tooltip("opponents_stand_at:Q", title="they stand at"),
            alt.Tooltip("best_stand_at:Q", title="best reply"),
            alt.Tooltip("best_points:Q", title="points per round", format=d3_format("value")),
        ],
    )
    equilibria_ = (
        rbase.transform_filter("datum.equilibrium").mark_point(size=160, color=BUST_RED, filled=True).encode(x=x, y=y)
    )
    right = alt.layer(diagonal, steps, equilibria_, mark).properties(width=215, height=150)
    return alt.hconcat(left, right, spacing=30)
