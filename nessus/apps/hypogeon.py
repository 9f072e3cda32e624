"""L'Hypogéon dashboard: play turns of 21 with dice (2d6, then one die at a time) with the exact
value of rolling and of standing beside you, alone against opponents who stand at k, or a
whole game against machine players to the points target.

Left: the dice, the total on a gauge from 2 to 21, Roll / Stand, your decisions and what each
cost, the hint panel, and the round (alone) or the score sheet (a game) with your exact chance
of winning it. Right: the exact distribution of the final total under "stand at k" and under
the best reply to k, your expected points per round for every rule you could follow, P(bust) and
P(21) by k, and the best reply to every k with the symmetric equilibria.
"""

from __future__ import annotations

import html
from collections.abc import Hashable, Sequence
from fractions import Fraction
from functools import cache

import altair as alt
import ipywidgets as widgets
import numpy as np
import polars as pl

from nessus.apps.common import TableHTML
from nessus.apps.dicegame import HELD, OPTIMAL, TableDashboard, face_svg, hint_table, kind_of, mini_dice, policy_bars, policy_frame
from nessus.games import hypogeon
from nessus.games.hypogeon import BUST, LIMIT, Rules, Turn
from nessus.numbers import number_html, number_text

STAND_AT_K, BEST_REPLY = "stand at k", "best reply to k"
MACHINES = (STAND_AT_K, BEST_REPLY)
BUST_RED, GOLD = "#c62828", "#e0a800"


def total_text(final: int) -> str:
    """A final total in words: the number, or "bust"."""
    return "bust" if final == BUST else str(final)


def rule_text(k: int) -> str:
    """A stand-at rule in words."""
    return "stand on the first roll" if k == 2 else f"stand at {k}"


def opponents_text(n: int, k: int) -> str:
    """The n - 1 opponents in words: "2 opponents standing at 17"."""
    return f"{n - 1} opponent{'s' if n > 2 else ''} standing at {k}"


# -- the game ---------------------------------------------------------------------------------------
def play_machine(rules: Rules, stand_at: int, rng: np.random.Generator) -> Turn:
    """A whole turn of a machine player standing at `stand_at`."""
    turn = Turn.start(rules).roll(rng)
    while not turn.over:
        turn = turn.roll(rng) if turn.total < stand_at else turn.stand()
    return turn


def round_result(finals: Sequence[int]) -> tuple[int | None, int]:
    """(the seat that scores or None, its points) for the players' final totals (BUST = 0)."""
    seat, points = hypogeon.round_points(np.array(finals, dtype=np.int8)[:, None])
    return (int(seat[0]), int(points[0])) if points[0] else (None, 0)


@cache
def win_odds(rules: Rules, scores: tuple[int, ...]) -> tuple[list[Fraction], Fraction]:
    """Exact (P(each seat wins the game), E[rounds left]) from these scores (cached)."""
    return hypogeon.game_odds_from(rules, scores)


def dice_row(rolls: Sequence[Sequence[int]]) -> str:
    """The dice of a turn: the first pair, then each added die after a '+'."""
    if not rolls:
        empty = ("<svg width='46' height='46' viewBox='0 0 46 46'><rect x='2' y='2' width='42' height='42' rx='8' fill='none' "
                 "stroke='#aaa' stroke-width='2' stroke-dasharray='5 4'/></svg>")
        return f"<div class='hypogeon-dice' data-count='0' style='display:flex;gap:3px;min-height:50px'>{empty * 2}</div>"
    parts = []
    for i, dice in enumerate(rolls):
        if i:
            parts.append("<span style='font-size:20px;color:#888;margin:0 2px'>+</span>")
        parts.append("".join(f"<span class='hypogeon-die' data-face='{f}'>{face_svg(f, 46)}</span>" for f in dice))
    return (f"<div class='hypogeon-dice' data-count='{sum(len(r) for r in rolls)}' "
            f"style='display:flex;flex-wrap:wrap;align-items:center;gap:3px;min-height:50px'>{''.join(parts)}</div>")


def gauge_html(turn: Turn, stand_at: int) -> str:
    """The running total on a strip from 2 to 21 (the opponents' stand-at mark, 21 in gold), and
    the roll counter (CSS class roll-counter, data-made = rolls made)."""
    total, bust = turn.total, turn.bust
    cells = []
    for t in range(2, LIMIT + 1):
        reached = t <= total
        fill = BUST_RED if bust else (GOLD if t == LIMIT and reached else OPTIMAL if reached else "#eef2f7")
        edge = f"border-left:3px solid {HELD};" if t == stand_at else "border-left:1px solid #fff;"
        colour = "#fff" if reached or bust else "#789"
        cells.append(f"<div title='total {t}' style='width:22px;height:24px;line-height:24px;text-align:center;font-size:10px;"
                     f"background:{fill};color:{colour};{edge}'>{t}</div>")
    if bust:
        word = f"<b class='hypogeon-total' style='color:{BUST_RED}'>{total}: bust</b>"
    elif turn.rolls:
        word = f"<b class='hypogeon-total' style='font-size:20px'>{total}</b>"
    else:
        word = "<b class='hypogeon-total' style='color:#999'>–</b>"
    made = len(turn.rolls)
    counter = (f"<span class='roll-counter' data-made='{made}' style='color:#555;margin-left:10px'>"
               f"{made} roll{'' if made == 1 else 's'}{' · turn over' if turn.over else ''}</span>")
    return (f"<div style='display:flex;align-items:center;gap:8px;margin:4px 0'><span>Total</span>{word}{counter}</div>"
            f"<div class='hypogeon-gauge' style='display:flex'>{''.join(cells)}</div>"
            f"<div style='font-size:11px;color:{HELD};margin-left:{(stand_at - 2) * 22}px'>▲ they stand at {stand_at}</div>")


def optimal_play(rules: Rules) -> str:
    """The optimal rule of any shape against the opponents, in words ("stand from 19 on")."""
    stands = hypogeon.stand_totals(rules.stand_at, rules.players)
    if stands and stands == tuple(range(stands[0], LIMIT + 1)):
        return f"stand from {stands[0]} on, roll below"
    return "stand on " + ", ".join(map(str, stands)) + ", roll on the other totals"


def action_label(turn: Turn, action: Hashable) -> str:
    """An action in the game's words."""
    return f"stand on {turn.total}" if action == "stand" else "roll one more die"


# -- charts -----------------------------------------------------------------------------------------
def totals_chart(k: int, best: int, players: int) -> alt.Chart:
    """The final total's exact distribution standing at k and standing at the best reply to k."""
    lo = min(k, best)
    order = [BUST, *range(lo, LIMIT + 1)]
    dists = {f"{rule_text(k)} (them)": hypogeon.final_total(k), f"best reply: {rule_text(best)}": hypogeon.final_total(best)}
    frame = policy_frame(dists, order, total_text)
    title = alt.Title(f"Final total of a turn, standing at {k}",
                      subtitle=f"P(bust) {float(hypogeon.p_bust(k)):.4f}, P(21) {float(hypogeon.p_21(k)):.4f}; "
                               f"the best reply to {opponents_text(players, k)} stands at {best}")
    return policy_bars(frame, title, "final total", [total_text(t) for t in order], width=500, height=180)


def points_chart(k: int, players: int) -> alt.Chart:
    """Your expected points per round for every stand-at rule j, against the opponents standing at k."""
    best, value = hypogeon.best_response(k, players)
    values = {j: hypogeon.points(j, k, players) for j in range(2, LIMIT + 1)}
    frame = pl.DataFrame({
        "your rule": [f"stand at {j}" for j in values],
        "j": list(values),
        "points": [float(v) for v in values.values()],
        "exact": [number_text(v) for v in values.values()],
        "kind": ["best reply" if j == best else "like them" if j == k else "other" for j in values],
    })
    title = alt.Title(f"Your expected points per round against {opponents_text(players, k)}",
                      subtitle=f"best reply: stand at {best}, {float(value):.4f} points; like them, at {k}: {float(values[k]):.4f} (exact)")
    return alt.Chart(frame, title=title).mark_bar().encode(
        x=alt.X("j:O", title="you stand at", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("points:Q", title="points per round"),
        color=alt.Color("kind:N", scale=alt.Scale(domain=["best reply", "like them", "other"], range=[HELD, "#1f4e79", "#9ecae9"]),
                        legend=alt.Legend(orient="top", title=None)),
        tooltip=["your rule", alt.Tooltip("points:Q", format=".6f"), "exact"],
    ).properties(width=500, height=140)


def by_k_charts(k: int, players: int) -> alt.HConcatChart:
    """P(bust) and P(21) for every k, and the best reply to every k with the symmetric equilibria."""
    rows = {"k": [], "event": [], "probability": [], "exact": []}
    for j in range(2, LIMIT + 1):
        for event, p in (("P(bust)", hypogeon.p_bust(j)), ("P(21)", hypogeon.p_21(j))):
            rows["k"].append(j)
            rows["event"].append(event)
            rows["probability"].append(float(p))
            rows["exact"].append(number_text(p))
    odds = pl.DataFrame(rows)
    now = pl.DataFrame({"k": [k]})
    base = alt.Chart(odds, title=alt.Title("P(bust) and P(21) standing at k", subtitle="exact"))
    lines = base.mark_line(point=True).encode(
        x=alt.X("k:Q", title="stand at k", scale=alt.Scale(domain=[2, LIMIT])),
        y=alt.Y("probability:Q", title="probability"),
        color=alt.Color("event:N", scale=alt.Scale(domain=["P(bust)", "P(21)"], range=[BUST_RED, GOLD]),
                        legend=alt.Legend(orient="top-left", title=None)),
        tooltip=["k", "event", alt.Tooltip("probability:Q", format=".6f"), "exact"],
    )
    mark = alt.Chart(now).mark_rule(color=HELD, strokeDash=[4, 3]).encode(x="k:Q")
    left = alt.layer(lines, mark).properties(width=215, height=150)

    table = hypogeon.best_response_table(players)
    eq = table.filter(pl.col("equilibrium"))["opponents_stand_at"].to_list()
    reply = table.select("opponents_stand_at", "best_stand_at", "best_points", "equilibrium").with_columns(
        pl.col("best_points").round(6).alias("points per round"))
    eq_text = "equilibrium at " + ", ".join(map(str, eq)) if eq else "no symmetric equilibrium"
    rbase = alt.Chart(reply, title=alt.Title(f"Best reply to k, {players} players", subtitle=f"{eq_text} (on the diagonal)"))
    diagonal = alt.Chart(pl.DataFrame({"a": [2, LIMIT], "b": [2, LIMIT]})).mark_line(color="#bbb", strokeDash=[3, 3]).encode(x="a:Q", y="b:Q")
    steps = rbase.mark_line(point=True, interpolate="step-after", color=OPTIMAL).encode(
        x=alt.X("opponents_stand_at:Q", title="they stand at k", scale=alt.Scale(domain=[2, LIMIT])),
        y=alt.Y("best_stand_at:Q", title="best reply", scale=alt.Scale(domain=[2, LIMIT])),
        tooltip=[alt.Tooltip("opponents_stand_at:Q", title="they stand at"), alt.Tooltip("best_stand_at:Q", title="best reply"),
                 "points per round"],
    )
    equilibria = rbase.transform_filter("datum.equilibrium").mark_point(size=160, color=BUST_RED, filled=True).encode(
        x="opponents_stand_at:Q", y="best_stand_at:Q")
    right = alt.layer(diagonal, steps, equilibria, mark).properties(width=215, height=150)
    return alt.hconcat(left, right, spacing=30)


class HypogeonDashboard(TableDashboard):
    """The widgets of the L'Hypogéon page and the turn (or game) they play."""

    notebook, title = "l-hypogeon.ipynb", "L'Hypogéon"
    sentence = ("Roll two dice, then add one die at a time as long as you dare; above 21 you are bust. Each round a "
                "sole 21 earns 2 points, otherwise the single best total 1 point (a tie for best: nobody); first to "
                "the target wins. Everyone plays at once: the others' dice are shown when your turn ends. Beside "
                "(below on a phone): exact odds of the rule “stand at k” and of the best reply to it.")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "hypogeon", hypogeon.PLAYERS, MACHINES)
        self.stand_at = widgets.IntSlider(value=hypogeon.STAND_AT.default, min=2, max=LIMIT, description="they stand at",
                                          continuous_update=False, style={"description_width": "90px"},
                                          layout=widgets.Layout(width="330px"))
        self.stand_at.add_class("hypogeon-stand-at")
        self.seats.seat.layout.display = "none"  # everyone plays at once: your seat changes nothing
        self.seats.players.widget.layout.width = "160px"
        self.target = self.param_field(hypogeon.TARGET, width="150px")
        self.target.widget.add_class("hypogeon-target")
        self.seats.box.children = (self.seats.machine, self.target.widget)

        self.dice = widgets.HTML()
        self.gauge = widgets.HTML()
        self.roll_button, self.stop_button, self.new_button = self.moves(("Roll 2 dice", "Stand", "New turn"),
                                                                         (self.roll, self.stand, self.next))
        self.log = widgets.HTML()
        self.sheet = TableHTML(name="l-hypogeon-scores")
        self.totals = self.chart_pane("260px", "final-total")
        self.figures = TableHTML(name="l-hypogeon-figures")
        self.points = self.chart_pane("220px", "points")
        self.by_k = self.chart_pane("230px", "by-k")

        self.stand_at.observe(self.rules_guard(lambda _: self.new_rule()), names="value")
        self.target.widget.observe(self.rules_guard(lambda _: self.restart()), names="value")

        self.page([
            self.seats.mode, widgets.HBox([self.seats.players.widget, self.stand_at]), self.seats.box, self.messages.widget,
            self.dice, self.gauge, widgets.HBox([self.roll_button, self.stop_button, self.new_button]),
            self.status, self.log, self.hint.toggle, self.hint.widget, self.sheet,
        ], [self.totals.widget, self.figures, self.points.widget, self.by_k.widget], left_width="590px")
        self.seats.new_players()

    # -- controls ---------------------------------------------------------------------------------
    def machine_k(self, k: int, players: int) -> int:
        """The machines' stand-at rule: k, or the best reply to k (a game with best-reply machines)."""
        if self.seats.game and self.seats.machine.value == BEST_REPLY:
            return hypogeon.best_response(k, players)[0]
        return k

    def read_rules(self) -> Rules:
        """The rules in the controls: stand_at is the machines' rule, the one the hint plays against."""
        players = self.seats.players.value()
        target = self.target.value() if self.seats.game else hypogeon.TARGET.default
        return Rules(stand_at=self.machine_k(self.stand_at.value, players), players=players, target=target)

    def new_rule(self) -> None:
        """Another k: a new game (the machines' rule changed); alone, the turn in play weighed
        anew against the new rule, or the next turn when the round is over."""
        if self.seats.game:
            self.restart()
            return
        self.rules_now = self.read_rules()
        self.messages.clear()
        if self.turn.over:
            self.new_turn()
        else:
            self.turn = Turn(self.rules_now, self.turn.rolls, self.turn.stood)
            self.draw_turn()
        self.draw_charts()

    def restart(self) -> None:
        """A new turn (alone: the tally starts again) or a new game."""
        self.rules_now = self.read_rules()
        self.messages.clear()
        n = self.rules_now.players
        self.scores = [0] * n
        self.rounds: list[str] = []
        self.tally: list[tuple[int, Fraction, Fraction, Fraction]] = []
        self.result = ""
        self.new_turn()
        self.draw_charts()

    def new_turn(self) -> None:
        """Your next turn; the machines' turns are played when yours ends."""
        self.turn = Turn.start(self.rules_now)
        self.decisions: list[str] = []
        self.cost = Fraction(0)
        self.machines: list[Turn] = []
        self.round_points: tuple[int | None, int] = (None, 0)
        self.round_text = ""
        self.odds = win_odds(self.rules_pair()[0], tuple(self.scores)) if self.seats.game else None
        self.draw_turn()

    def next(self) -> None:
        """The New / Next button."""
        if self.seats.game and not self.result and self.turn.over:
            self.new_turn()
        elif self.seats.game:
            self.restart()
        else:
            self.new_turn()

    def rules_pair(self) -> tuple[Rules, Rules]:
        """The game's rules with seat 1 (you) standing at the best reply to the machines, and at
        the machines' rule (for the chance of winning from here)."""
        return self.rules_now, Rules(stand_at=self.rules_now.stand_at, players=self.rules_now.players,
                                     target=self.rules_now.target, seat1="same")

    # -- your moves -------------------------------------------------------------------------------
    def roll(self) -> None:
        """The first roll (two dice) or one more die."""
        t = self.turn
        if t.over:
            raise ValueError(f"your turn is over: press {self.new_button.description}")
        verdict = self.judge("roll") if t.rolls else ""
        self.turn = t.roll(self.rng)
        where = f"at {t.total}, " if t.rolls else ""
        bust = f" <b style='color:{BUST_RED}'>bust</b>" if self.turn.bust else ""
        self.decisions.append(f"{where}roll {mini_dice(self.turn.rolls[-1], 18)} → <b>{self.turn.total}</b>{bust} {verdict}")
        self.messages.clear()
        self.after_move()

    def stand(self) -> None:
        """Keep the total."""
        if self.turn.over:
            raise ValueError(f"your turn is over: press {self.new_button.description}")
        if not self.turn.rolls:
            raise ValueError("roll the two dice before you stand")
        verdict = self.judge("stand")
        self.turn = self.turn.stand()
        self.decisions.append(f"stand on <b>{self.turn.total}</b> {verdict}")
        self.messages.clear()
        self.after_move()

    def judge(self, action: str) -> str:
        """Weigh your decision against the optimal one: its cost is added to the turn's; the
        verdict for the log is returned."""
        cost = self.turn.hint().cost(action)
        self.cost += cost
        if cost == 0:
            return "<span class='verdict' style='color:#2e7d32'>✓ best</span>"
        return f"<span class='verdict' style='color:{BUST_RED}'>✗ costs {number_text(cost, kind='value')} points</span>"

    def after_move(self) -> None:
        if self.turn.over:
            self.finish_round()
        self.draw_turn()

    def finish_round(self) -> None:
        """Your turn is over: the machines play theirs and the round is scored."""
        r = self.rules_now
        self.machines = [play_machine(r, r.stand_at, self.rng) for _ in range(r.players - 1)]
        finals = [self.turn.final, *(m.final for m in self.machines)]
        seat, points = round_result(finals)
        self.round_points = (seat, points)
        if seat is None:
            best = max(finals)
            why = "everyone is bust" if best == BUST else f"a tie for best on {best}"
            text = f"Nobody scores: {why}."
        else:
            how = "a sole 21" if points == 2 else f"the single best total, {finals[seat]}"
            text = f"{self.seats.name(seat)} score{'' if seat == 0 else 's'} {points} point{'s' if points == 2 else ''} with {how}."
        self.round_text = text
        if self.seats.game:
            if seat is not None:
                self.scores[seat] += points
            shown = " · ".join(f"{'you' if i == 0 else f'P{i + 1}'} {total_text(f)}" for i, f in enumerate(finals))
            self.rounds.append(f"Round {len(self.rounds) + 1}: {shown} → {text}")
            if seat is not None and self.scores[seat] >= r.target:
                verb = "win" if seat == 0 else "wins"
                self.result = (f"{self.seats.name(seat)} {verb} the game with {self.scores[seat]} points "
                               f"after {len(self.rounds)} round{'s' if len(self.rounds) > 1 else ''}.")
        else:
            optimal = hypogeon.optimal_points(r.stand_at, r.players)
            same = hypogeon.points(r.stand_at, r.stand_at, r.players)
            self.tally.append((points if seat == 0 else 0, optimal, same, self.cost))

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        t, r = self.turn, self.rules_now
        self.dice.value = dice_row(t.rolls)
        self.roll_button.disabled = t.over
        self.stop_button.disabled = t.over or not t.rolls
        self.roll_button.description = "Roll 2 dice" if not t.rolls else "Roll" if t.over else "Roll 1 die"
        self.stop_button.description = f"Stand on {t.total}" if t.rolls and not t.over else "Stand"
        if self.seats.game:
            self.new_button.description = "New game" if self.result or not t.over else "Next round"
        else:
            self.new_button.description = "New turn"
        if not t.rolls:
            verdict = "Your turn: press <b>Roll 2 dice</b>."
        elif t.bust:
            verdict = f"<b style='color:{BUST_RED}'>Bust</b> with {t.total}: this turn scores nothing."
        elif t.over:
            verdict = f"You stand on <b>{t.total}</b>."
        else:
            verdict = f"Total <b>{t.total}</b>: roll one more die, or stand."
        them = f"Against {opponents_text(r.players, r.stand_at)}"
        if self.seats.game and self.seats.machine.value == BEST_REPLY:
            them += f" (the best reply to {self.stand_at.value})"
        self.status.value = (f"<div class='hypogeon-status' style='font-size:15px;margin-top:4px'>{verdict}</div>"
                             f"<div style='color:#555;font-size:13px'>{them}.</div>")
        lines = "".join(f"<li>{line}</li>" for line in self.decisions)
        cost = ""
        if t.over and len(self.decisions) > 1:
            cost = (f"<div class='hypogeon-cost'>Your decisions this turn cost <b>{number_html(self.cost, 'value')}</b> expected points "
                    "against the best play.</div>" if self.cost else
                    "<div class='hypogeon-cost' style='color:#2e7d32'>Every decision this turn was optimal.</div>")
        self.log.value = (f"<div class='hypogeon-log' style='font-size:13px;line-height:1.6'><ol style='margin:2px 0;padding-left:22px'>"
                          f"{lines}</ol>{cost}</div>")
        self.draw_hint()
        self.draw_sheet()
        self.gauge.value = gauge_html(t, r.stand_at)  # last: the roll counter says the page is up to date

    def draw_hint(self) -> None:
        t, r = self.turn, self.rules_now
        what = (f"<div style='color:#555;font-size:12px;margin-bottom:3px'>Each value is your <b>expected points in this round</b> "
                f"(2 for a sole 21, 1 for a sole best total) against {opponents_text(r.players, r.stand_at)}, playing optimally "
                "afterwards: exact, by expectimax over every total."
                + (" It does not weigh the scores of the game (the chance of winning the game)." if self.seats.game else "")
                + "</div>")
        if t.over:
            self.hint.show(None, "Your turn is over: no decision is left to weigh.")
        elif not t.rolls:
            value = hypogeon.optimal_points(r.stand_at, r.players)
            self.hint.show(lambda: what + f"The only move is to roll the two dice. Played optimally ({optimal_play(r)}), "
                           f"this round is worth {number_html(value, 'value')} expected points to you.")
        else:
            self.hint.show(lambda: what + hint_table(t.hint(), None, lambda a: action_label(t, a),
                                                     unit="expected points")
                           + f"<div style='color:#555;font-size:12px;margin-top:3px'>The optimal play against them: {optimal_play(r)}.</div>")

    def player_cells(self, seat: int) -> tuple[str, str, str]:
        """A player's dice, final total and points in this round (hidden until your turn ends)."""
        if seat == 0:
            turn = self.turn
        elif self.turn.over:
            turn = self.machines[seat - 1]
        else:
            return "<i style='color:#888'>plays at the same time</i>", "", ""
        if not turn.rolls:
            return "<i>to play</i>", "", ""
        dice = " + ".join(mini_dice(d, 15) for d in turn.rolls)
        if not turn.over:
            return dice, f"{turn.total}…", ""
        final = total_text(turn.final)
        scorer, points = self.round_points
        won = f"<b style='color:#2e7d32'>+{points}</b>" if scorer == seat else ""
        return dice, f"<b>{final}</b>", won

    def draw_sheet(self) -> None:
        """The round (alone) or the score sheet (a game): every player's dice, total and points."""
        r = self.rules_now
        game = self.seats.game
        rows = []
        for seat in range(r.players):
            dice, final, won = self.player_cells(seat)
            who = "You" if seat == 0 else f"Player {seat + 1} <small>(stands at {r.stand_at})</small>"
            score = ""
            if game:
                pips = "".join(f"<span style='color:{OPTIMAL if i < self.scores[seat] else '#ccc'}'>●</span>" for i in range(r.target))
                score = f"<td align='center'><b>{self.scores[seat]}</b> {pips}</td>"
            rows.append(f"<tr class='hypogeon-player' style='{self.seats.row_style(seat)}'><td>{who}</td><td>{dice}</td>"
                        f"<td align='center'>{final}</td><td align='center'>{won}</td>{score}</tr>")
        head = "<th>score</th>" if game else ""
        title = (f"Score sheet: first to {r.target} point{'s' if r.target > 1 else ''}, round {len(self.rounds) + (0 if self.turn.over else 1)}"
                 if game else "This round")
        outcome = f"<div class='hypogeon-round' style='margin-top:4px'>{self.round_text}</div>" if self.turn.over else ""
        result = f"<div class='hypogeon-result' style='font-weight:bold;margin-top:4px'>{html.escape(self.result)}</div>" if self.result else ""
        self.sheet.value = (f"<h4 style='margin:8px 0 2px'>{title}</h4><table class='hypogeon-sheet' cellpadding='3' "
                            f"style='border-collapse:collapse;width:100%;font-size:13px'><tr><th align='left'>player</th>"
                            f"<th align='left'>dice</th><th>total</th><th>points</th>{head}</tr>{''.join(rows)}</table>"
                            f"{outcome}{result}{self.history_html() if game else self.tally_html()}")

    def history_html(self) -> str:
        """The rounds played so far, and your exact chance of winning the game from this round's start."""
        rounds = "".join(f"<div>{line}</div>" for line in reversed(self.rounds))
        log = (f"<div class='hypogeon-rounds' style='max-height:110px;overflow-y:auto;font-size:12px;color:#444;"
               f"border-top:1px solid #ddd;margin-top:4px'>{rounds}</div>") if rounds else ""
        if self.result or self.odds is None:
            return log
        best_rules, same_rules = self.rules_pair()
        best = hypogeon.seat_rules(best_rules)[0]
        mine = self.odds[0][0]
        same = win_odds(same_rules, tuple(self.scores))[0][0]
        left = self.odds[1]
        scores = "–".join(map(str, self.scores))
        return (f"<table class='hypogeon-odds figures' cellpadding='2' style='font-size:13px;margin-top:6px'>"
                f"<tr><th align='left' colspan='2'>Your chance of winning the game from the start of this round (scores {scores}), exact</th></tr>"
                f"<tr><td>standing at {best} from now on (the best reply to them)</td><td>{number_html(mine, 'value')}</td></tr>"
                f"<tr><td>standing at {same_rules.stand_at} like them</td><td>{number_html(same, 'value')}</td></tr>"
                f"<tr><td>expected rounds left (you standing at {best})</td><td>{number_html(left, 'value')}</td></tr></table>{log}")

    def tally_html(self) -> str:
        """Alone: your points over the turns played, against what the optimal rule and the opponents' rule expect."""
        if not self.tally:
            return ""
        n = len(self.tally)
        got = sum(t[0] for t in self.tally)
        optimal, same, cost = (sum((t[i] for t in self.tally), Fraction(0)) for i in (1, 2, 3))
        return (f"<table class='hypogeon-tally figures' cellpadding='2' style='font-size:13px;margin-top:6px'>"
                f"<tr><th align='left' colspan='2'>Your {n} turn{'s' if n > 1 else ''} alone</th></tr>"
                f"<tr><td>points you scored</td><td><b>{got}</b> ({got / n:.3f} per round)</td></tr>"
                f"<tr><td>expected with optimal play (exact)</td><td>{number_html(optimal, 'value')}</td></tr>"
                f"<tr><td>expected standing at their k, like them (exact)</td><td>{number_html(same, 'value')}</td></tr>"
                f"<tr><td>expected points your decisions cost</td><td>{number_html(cost, 'value')}</td></tr></table>")

    def draw_charts(self) -> None:
        """The three chart panes and the figures, for the slider's k and the players."""
        k, n = self.stand_at.value, self.rules_now.players
        best = hypogeon.best_response(k, n)[0]
        self.totals.show(totals_chart(k, best, n))
        rows = [
            ("P(bust)", hypogeon.p_bust(k), hypogeon.p_bust(best)),
            ("P(21)", hypogeon.p_21(k), hypogeon.p_21(best)),
            ("mean final total when not bust", hypogeon.mean_if_not_bust(k), hypogeon.mean_if_not_bust(best)),
            (f"expected points per round against {opponents_text(n, k)}", hypogeon.points(k, k, n), hypogeon.points(best, k, n)),
        ]
        body = "".join(f"<tr><td>{html.escape(a)}</td><td>{number_html(b, kind_of(a))}</td><td>{number_html(c, kind_of(a))}</td></tr>" for a, b, c in rows)
        eq = hypogeon.equilibria(n)
        eq_text = (f"Standing at {' or '.join(map(str, eq))} is a symmetric equilibrium for {n} players: nobody gains by "
                   "another rule of any shape." if eq else
                   f"For {n} players no k is its own best reply: there is no symmetric equilibrium in stand-at rules.")
        self.figures.value = (
            "<table class='figures' cellpadding='3' style='font-size:13px'><tr><th></th>"
            f"<th align='left'><span style='color:{OPTIMAL}'>■</span> {html.escape(rule_text(k))}</th>"
            f"<th align='left'><span style='color:{HELD}'>■</span> best reply: {html.escape(rule_text(best))}</th></tr>{body}</table>"
            f"<small style='color:#555'>Exact: rational arithmetic over every sequence of dice, the decimals for reading. {eq_text}</small>"
        )
        self.points.show(points_chart(k, n))
        self.by_k.show(by_k_charts(k, n))


def app(seed: int | None = None) -> widgets.Widget:
    """The L'Hypogéon dashboard as one widget."""
    return HypogeonDashboard(seed).view
