"""L'Hypogéon dashboard, what has no widget in it: the machines' turns and the round's score,
the exact odds of a game, the page's words and HTML (dice, gauge, status, score sheet, figures)
and its charts, as pure functions of the turn, the rules and the scores."""

from __future__ import annotations

import html
from collections.abc import Hashable, Sequence
from fractions import Fraction
from functools import cache

import altair as alt
import numpy as np
import polars as pl

from nessus.games import hypogeon
from nessus.games.hypogeon import BUST, LIMIT, Rules, TurnRecord
from nessus.kit.dicegame import HELD, OPTIMAL, face_svg, kind_of, mini_dice, policy_bars, policy_frame
from nessus.numbers import number_html, number_text

STAND_AT_K, BEST_REPLY = "stand at k", "best reply to k"
MACHINES = (STAND_AT_K, BEST_REPLY)
BUST_RED, GOLD = "#c62828", "#e0a800"
Tally = tuple[int, Fraction, Fraction, Fraction]  # a turn alone: points scored, expected optimally, like them, cost


# -- words ------------------------------------------------------------------------------------------
def total_text(final: object) -> str:
    """A final total in words: the number, or "bust"."""
    return "bust" if final == BUST else str(final)


def rule_text(k: int) -> str:
    """A stand-at rule in words."""
    return "stand on the first roll" if k == 2 else f"stand at {k}"


def opponents_text(n: int, k: int) -> str:
    """The n - 1 opponents in words: "2 opponents standing at 17"."""
    return f"{n - 1} opponent{'s' if n > 2 else ''} standing at {k}"


def optimal_play(rules: Rules) -> str:
    """The optimal rule of any shape against the opponents, in words ("stand from 19 on")."""
    stands = hypogeon.stand_totals(rules.stand_at, rules.players)
    if stands and stands == tuple(range(stands[0], LIMIT + 1)):
        return f"stand from {stands[0]} on, roll below"
    return "stand on " + ", ".join(map(str, stands)) + ", roll on the other totals"


def action_label(turn: TurnRecord, action: Hashable) -> str:
    """An action in the game's words."""
    return f"stand on {turn.total}" if action == "stand" else "roll one more die"


# -- the game ---------------------------------------------------------------------------------------
def round_result(finals: Sequence[int]) -> tuple[int | None, int]:
    """(the seat that scores or None, its points) for the players' final totals (BUST = 0)."""
    seat, points = hypogeon.round_points(np.array(finals, dtype=np.int8)[:, None])
    return (int(seat[0]), int(points[0])) if points[0] else (None, 0)


def round_text(finals: Sequence[int], seat: int | None, points: int, name: str) -> str:
    """The round's outcome in a sentence ("You score 2 points with a sole 21."); `name`: the scorer's."""
    if seat is None:
        return f"Nobody scores: {'everyone is bust' if max(finals) == BUST else f'a tie for best on {max(finals)}'}."
    how = "a sole 21" if points == 2 else f"the single best total, {finals[seat]}"
    return f"{name} score{'' if seat == 0 else 's'} {points} point{'s' if points == 2 else ''} with {how}."


@cache
def win_odds(rules: Rules, scores: tuple[int, ...]) -> tuple[list[Fraction], Fraction]:
    """Exact (P(each seat wins the game), E[rounds left]) from these scores (cached)."""
    return hypogeon.game_odds_from(rules, scores)


# -- the turn ---------------------------------------------------------------------------------------
def dice_row(rolls: Sequence[Sequence[int]]) -> str:
    """The dice of a turn: the first pair, then each added die after a '+'."""
    if not rolls:
        empty = (
            "<svg width='46' height='46' viewBox='0 0 46 46'><rect x='2' y='2' width='42' height='42' rx='8' "
            "fill='none' "
            "stroke='#aaa' stroke-width='2' stroke-dasharray='5 4'/></svg>"
        )
        return (
            f"<div class='hypogeon-dice' data-count='0' style='display:flex;gap:3px;min-height:50px'>{empty * 2}</div>"
        )
    plus = "<span style='font-size:20px;color:#888;margin:0 2px'>+</span>"
    parts = plus.join(
        "".join(f"<span class='hypogeon-die' data-face='{f}'>{face_svg(f, 46)}</span>" for f in dice) for dice in rolls
    )
    return (
        f"<div class='hypogeon-dice' data-count='{sum(len(r) for r in rolls)}' "
        f"style='display:flex;flex-wrap:wrap;align-items:center;gap:3px;min-height:50px'>{parts}</div>"
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
    if bust:
        word = f"<b class='hypogeon-total' style='color:{BUST_RED}'>{total}: bust</b>"
    elif turn.rolls:
        word = f"<b class='hypogeon-total' style='font-size:20px'>{total}</b>"
    else:
        word = "<b class='hypogeon-total' style='color:#999'>–</b>"
    made = len(turn.rolls)
    counter = (
        f"<span class='roll-counter' data-made='{made}' style='color:#555;margin-left:10px'>"
        f"{made} roll{'' if made == 1 else 's'}{' · turn over' if turn.over else ''}</span>"
    )
    return (
        f"<div style='display:flex;align-items:center;gap:8px;margin:4px 0'><span>Total</span>{word}{counter}</div>"
        f"<div class='hypogeon-gauge' style='display:flex'>{''.join(cells)}</div>"
        f"<div style='font-size:11px;color:{HELD};margin-left:{(stand_at - 2) * 22}px'>▲ they stand at {stand_at}</div>"
    )


def verdict_html(cost: Fraction | int) -> str:
    """A decision's verdict for the log: "✓ best", or what it cost."""
    if cost == 0:
        return "<span class='verdict' style='color:#2e7d32'>✓ best</span>"
    return f"<span class='verdict' style='color:{BUST_RED}'>✗ costs {number_text(cost, kind='value')} points</span>"


def status_html(t: TurnRecord, rules: Rules, reply_to: int | None = None) -> str:
    """What to do next, and who you play against (`reply_to`: the k the machines reply to)."""
    if not t.rolls:
        verdict = "Your turn: press <b>Roll 2 dice</b>."
    elif t.bust:
        verdict = f"<b style='color:{BUST_RED}'>Bust</b> with {t.total}: this turn scores nothing."
    elif t.over:
        verdict = f"You stand on <b>{t.total}</b>."
    else:
        verdict = f"Total <b>{t.total}</b>: roll one more die, or stand."
    them = f"Against {opponents_text(rules.players, rules.stand_at)}" + (
        f" (the best reply to {reply_to})" if reply_to else ""
    )
    return (
        f"<div class='hypogeon-status' style='font-size:15px;margin-top:4px'>{verdict}</div>"
        f"<div style='color:#555;font-size:13px'>{them}.</div>"
    )


def log_html(decisions: Sequence[str], cost: Fraction, over: bool) -> str:
    """Your decisions this turn, and (at its end) what they cost against the best play."""
    lines = "".join(f"<li>{line}</li>" for line in decisions)
    total = ""
    if over and len(decisions) > 1:
        total = (
            f"<div class='hypogeon-cost'>Your decisions this turn cost <b>{number_html(cost, 'value')}</b> expected "
            "points "
            "against the best play.</div>"
            if cost
            else "<div class='hypogeon-cost' style='color:#2e7d32'>Every decision this turn was optimal.</div>"
        )
    return (
        f"<div class='hypogeon-log' style='font-size:13px;line-height:1.6'><ol style='margin:2px 0;padding-left:22px'>"
        f"{lines}</ol>{total}</div>"
    )


def hint_intro(rules: Rules, game: bool) -> str:
    """What the hint's values are (in a game: that they leave out the scores)."""
    return (
        "<div style='color:#555;font-size:12px;margin-bottom:3px'>Each value is your <b>expected points in this round"
        "</b> "
        f"(2 for a sole 21, 1 for a sole best total) against {opponents_text(rules.players, rules.stand_at)}, playing "
        "optimally "
        "afterwards: exact, by expectimax over every total."
        + (" It does not weigh the scores of the game (the chance of winning the game)." if game else "")
        + "</div>"
    )


# -- the score sheet --------------------------------------------------------------------------------
def player_cells(turn: TurnRecord | None, seat: int, round_points: tuple[int | None, int]) -> tuple[str, str, str]:
    """A player's dice, final total and points in this round (`turn` None: hidden until yours ends)."""
    if turn is None:
        return "<i style='color:#888'>plays at the same time</i>", "", ""
    if not turn.rolls:
        return "<i>to play</i>", "", ""
    dice = " + ".join(mini_dice(d, 15) for d in turn.rolls)
    if not turn.over:
        return dice, f"{turn.total}…", ""
    scorer, points = round_points
    return dice, f"<b>{total_text(turn.final)}</b>", f"<b style='color:#2e7d32'>+{points}</b>" if scorer == seat else ""


def score_pips(score: int, target: int) -> str:
    """A score cell in a game: the score and a pip per point to the target."""
    pips = "".join(f"<span style='color:{OPTIMAL if i < score else '#ccc'}'>●</span>" for i in range(target))
    return f"<td align='center'><b>{score}</b> {pips}</td>"


def sheet_html(title: str, rows: Sequence[str], game: bool, outcome: str, result: str) -> str:
    """The round's (or game's) table of players, the round's outcome and the game's result."""
    head = "<th>score</th>" if game else ""
    outcome = f"<div class='hypogeon-round' style='margin-top:4px'>{outcome}</div>" if outcome else ""
    result = (
        f"<div class='hypogeon-result' style='font-weight:bold;margin-top:4px'>{html.escape(result)}</div>"
        if result
        else ""
    )
    return (
        f"<h4 style='margin:8px 0 2px'>{title}</h4><table class='hypogeon-sheet' cellpadding='3' "
        f"style='border-collapse:collapse;width:100%;font-size:13px'><tr><th align='left'>player</th>"
        f"<th align='left'>dice</th><th>total</th><th>points</th>{head}</tr>{''.join(rows)}</table>{outcome}{result}"
    )


def rounds_html(rounds: Sequence[str]) -> str:
    """The rounds played so far, the latest first."""
    lines = "".join(f"<div>{line}</div>" for line in reversed(rounds))
    return (
        (
            f"<div class='hypogeon-rounds' style='max-height:110px;overflow-y:auto;font-size:12px;color:#444;"
            f"border-top:1px solid #ddd;margin-top:4px'>{lines}</div>"
        )
        if lines
        else ""
    )


def odds_html(scores: Sequence[int], best: int, mine: Fraction, same_k: int, same: Fraction, left: Fraction) -> str:
    """Your exact chance of winning the game standing at the best reply `best` and like them at
    `same_k`, and the expected rounds left."""
    return (
        f"<table class='hypogeon-odds figures' cellpadding='2' style='font-size:13px;margin-top:6px'>"
        f"<tr><th align='left' colspan='2'>Your chance of winning the game from the start of this round "
        f"(scores {'–'.join(map(str, scores))}), exact</th></tr>"
        f"<tr><td>standing at {best} from now on (the best reply to them)</td><td>{number_html(mine, 'value')}</td>"
        "</tr>"
        f"<tr><td>standing at {same_k} like them</td><td>{number_html(same, 'value')}</td></tr>"
        f"<tr><td>expected rounds left (you standing at {best})</td><td>{number_html(left, 'value')}</td></tr></table>"
    )


def tally_html(tally: Sequence[Tally]) -> str:
    """Alone: your points over the turns played, against what the optimal rule and the opponents' rule expect."""
    if not (n := len(tally)):
        return ""
    got = sum(t[0] for t in tally)
    optimal, same, cost = (sum((t[i] for t in tally), Fraction(0)) for i in (1, 2, 3))
    return (
        f"<table class='hypogeon-tally figures' cellpadding='2' style='font-size:13px;margin-top:6px'>"
        f"<tr><th align='left' colspan='2'>Your {n} turn{'s' if n > 1 else ''} alone</th></tr>"
        f"<tr><td>points you scored</td><td><b>{got}</b> ({got / n:.3f} per round)</td></tr>"
        f"<tr><td>expected with optimal play (exact)</td><td>{number_html(optimal, 'value')}</td></tr>"
        f"<tr><td>expected standing at their k, like them (exact)</td><td>{number_html(same, 'value')}</td></tr>"
        f"<tr><td>expected points your decisions cost</td><td>{number_html(cost, 'value')}</td></tr></table>"
    )


# -- figures and charts -----------------------------------------------------------------------------
def figures_html(k: int, best: int, n: int) -> str:
    """Standing at k against standing at the best reply to k: P(bust), P(21), mean, points; the equilibria."""
    rows = [
        ("P(bust)", hypogeon.p_bust(k), hypogeon.p_bust(best)),
        ("P(21)", hypogeon.p_21(k), hypogeon.p_21(best)),
        ("mean final total when not bust", hypogeon.mean_if_not_bust(k), hypogeon.mean_if_not_bust(best)),
        (
            f"expected points per round against {opponents_text(n, k)}",
            hypogeon.points(k, k, n),
            hypogeon.points(best, k, n),
        ),
    ]
    body = "".join(
        f"<tr><td>{html.escape(a)}</td><td>{number_html(b, kind_of(a))}</td><td>{number_html(c, kind_of(a))}</td></tr>"
        for a, b, c in rows
    )
    eq = hypogeon.equilibria(n)
    eq_text = (
        f"Standing at {' or '.join(map(str, eq))} is a symmetric equilibrium for {n} players: nobody gains by "
        "another rule of any shape."
        if eq
        else f"For {n} players no k is its own best reply: there is no symmetric equilibrium in stand-at rules."
    )
    return (
        "<table class='figures' cellpadding='3' style='font-size:13px'><tr><th></th>"
        f"<th align='left'><span style='color:{OPTIMAL}'>■</span> {html.escape(rule_text(k))}</th>"
        f"<th align='left'><span style='color:{HELD}'>■</span> best reply: {html.escape(rule_text(best))}</th>"
        f"</tr>{body}</table>"
        "<small style='color:#555'>Exact: rational arithmetic over every sequence of dice, the decimals for reading. "
        f"{eq_text}</small>"
    )


def totals_chart(k: int, best: int, players: int) -> alt.Chart:
    """The final total's exact distribution standing at k and standing at the best reply to k."""
    order = [BUST, *range(min(k, best), LIMIT + 1)]
    dists = {
        f"{rule_text(k)} (them)": hypogeon.final_total(k),
        f"best reply: {rule_text(best)}": hypogeon.final_total(best),
    }
    title = alt.Title(
        f"Final total of a turn, standing at {k}",
        subtitle=f"P(bust) {float(hypogeon.p_bust(k)):.4f}, P(21) {float(hypogeon.p_21(k)):.4f}; "
        f"the best reply to {opponents_text(players, k)} stands at {best}",
    )
    return policy_bars(
        policy_frame(dists, order, total_text),
        title,
        "final total",
        [total_text(t) for t in order],
        width=500,
        height=180,
    )


def points_chart(k: int, players: int) -> alt.Chart:
    """Your expected points per round for every stand-at rule j, against the opponents standing at k."""
    best, value = hypogeon.best_response(k, players)
    values = {j: hypogeon.points(j, k, players) for j in range(2, LIMIT + 1)}
    frame = pl.DataFrame(
        {
            "your rule": [f"stand at {j}" for j in values],
            "j": list(values),
            "points": [float(v) for v in values.values()],
            "exact": [number_text(v) for v in values.values()],
            "kind": ["best reply" if j == best else "like them" if j == k else "other" for j in values],
        }
    )
    title = alt.Title(
        f"Your expected points per round against {opponents_text(players, k)}",
        subtitle=(
            f"best reply: stand at {best}, {float(value):.4f} points; like them, at {k}: {float(values[k]):.4f} (exact)"
        ),
    )
    return (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(
            x=alt.X("j:O", title="you stand at", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("points:Q", title="points per round"),
            color=alt.Color(
                "kind:N",
                scale=alt.Scale(domain=["best reply", "like them", "other"], range=[HELD, "#1f4e79", "#9ecae9"]),
                legend=alt.Legend(orient="top", title=None),
            ),
            tooltip=["your rule", alt.Tooltip("points:Q", format=".6f"), "exact"],
        )
        .properties(width=500, height=140)
    )


def by_k_charts(k: int, players: int) -> alt.HConcatChart:
    """P(bust) and P(21) for every k, and the best reply to every k with the symmetric equilibria."""
    events = [
        (j, event, p)
        for j in range(2, LIMIT + 1)
        for event, p in (("P(bust)", hypogeon.p_bust(j)), ("P(21)", hypogeon.p_21(j)))
    ]
    odds = pl.DataFrame(
        {
            "k": [j for j, _, _ in events],
            "event": [e for _, e, _ in events],
            "probability": [float(p) for _, _, p in events],
            "exact": [number_text(p) for _, _, p in events],
        }
    )
    lines = (
        alt.Chart(odds, title=alt.Title("P(bust) and P(21) standing at k", subtitle="exact"))
        .mark_line(point=True)
        .encode(
            x=alt.X("k:Q", title="stand at k", scale=alt.Scale(domain=[2, LIMIT])),
            y=alt.Y("probability:Q", title="probability"),
            color=alt.Color(
                "event:N",
                scale=alt.Scale(domain=["P(bust)", "P(21)"], range=[BUST_RED, GOLD]),
                legend=alt.Legend(orient="top-left", title=None),
            ),
            tooltip=["k", "event", alt.Tooltip("probability:Q", format=".6f"), "exact"],
        )
    )
    mark = alt.Chart(pl.DataFrame({"k": [k]})).mark_rule(color=HELD, strokeDash=[4, 3]).encode(x="k:Q")
    left = alt.layer(lines, mark).properties(width=215, height=150)

    table = hypogeon.best_response_table(players)
    eq = table.filter(pl.col("equilibrium"))["opponents_stand_at"].to_list()
    reply = table.select("opponents_stand_at", "best_stand_at", "best_points", "equilibrium").with_columns(
        pl.col("best_points").round(6).alias("points per round")
    )
    eq_text = "equilibrium at " + ", ".join(map(str, eq)) if eq else "no symmetric equilibrium"
    rbase = alt.Chart(
        reply, title=alt.Title(f"Best reply to k, {players} players", subtitle=f"{eq_text} (on the diagonal)")
    )
    diagonal = (
        alt.Chart(pl.DataFrame({"a": [2, LIMIT], "b": [2, LIMIT]}))
        .mark_line(color="#bbb", strokeDash=[3, 3])
        .encode(x="a:Q", y="b:Q")
    )
    steps = rbase.mark_line(point=True, interpolate="step-after", color=OPTIMAL).encode(
        x=alt.X("opponents_stand_at:Q", title="they stand at k", scale=alt.Scale(domain=[2, LIMIT])),
        y=alt.Y("best_stand_at:Q", title="best reply", scale=alt.Scale(domain=[2, LIMIT])),
        tooltip=[
            alt.Tooltip("opponents_stand_at:Q", title="they stand at"),
            alt.Tooltip("best_stand_at:Q", title="best reply"),
            "points per round",
        ],
    )
    equilibria = (
        rbase.transform_filter("datum.equilibrium")
        .mark_point(size=160, color=BUST_RED, filled=True)
        .encode(x="opponents_stand_at:Q", y="best_stand_at:Q")
    )
    right = alt.layer(diagonal, steps, equilibria, mark).properties(width=215, height=150)
    return alt.hconcat(left, right, spacing=30)
