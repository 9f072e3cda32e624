"""Le Légit dashboard: play a turn of six dice (the 7-pairs are removed, then keep the total or
reroll the dice left) with the exact value of keeping and of rerolling beside you, alone (for
the most points, or to beat a score) or in a round against machine players, where the first
player's rerolls cap everybody else's.

Left: the roll (removed 7-pairs apart, the dice left and their total), Roll / Keep, the rolls
so far with what each choice cost, the hint panel and, in a game, the score sheet. Right: the
exact distribution of the score under the optimal play for the goal, without rerolls and with
"reroll below 8"; then the first player's dilemma (when they stop, what it is worth to them).
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial

import altair as alt
import ipywidgets as widgets
import numpy as np
import polars as pl

from nessus.apps.common import LatestJob, TableHTML, dice_html
from nessus.apps.dicegame import HEURISTIC, OPTIMAL, TableDashboard, counter_html, face_svg, hint_table, mini_dice, policy_bars
from nessus.dist import Dist
from nessus.games import legit
from nessus.numbers import Kind, number_html, number_text
from nessus.solver import Expectimax, Hint

DICE = legit.DICE.default
TOP = 6 * DICE
MOST, BEAT = "most points", "beat a score"
THRESHOLD = 8  # the best single "reroll below X" for the mean, with 1, 2 or 3 rerolls
TO_WIN, FOR_MEAN, BELOW = "optimal, to win", "best mean", f"reroll below {THRESHOLD}"
MACHINES = (TO_WIN, FOR_MEAN, BELOW)
NO_REROLL = "no reroll"
GREY = "#9e9e9e"
LINE = "font-size:13px;line-height:1.5;margin-top:4px"  # a sentence under a chart
Policy = Callable[[tuple], str]


# -- goals and policies ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mean:
    """Play for the most expected points."""


@dataclass(frozen=True)
class Chase:
    """Play to beat `best`: P(score > best) + P(score = best)/2 (a tie for first shares the win)."""

    best: int


@dataclass(frozen=True)
class First:
    """The first of `players` players: play for your share of the win, the later players capped
    at the rerolls you use and chasing your score."""

    players: int


Goal = Mean | Chase | First


def goal_text(goal: Goal) -> str:
    """The goal in words."""
    if isinstance(goal, Mean):
        return "the expected score"
    if isinstance(goal, Chase):
        return f"P(score > {goal.best}) + ½ P(score = {goal.best})"
    return f"your share of the win, first of {goal.players} players"


def unit(goal: Goal) -> str:
    """What the goal's values are."""
    return "expected score" if isinstance(goal, Mean) else "probability" if isinstance(goal, Chase) else "share of the win"


def optimal(goal: Goal, rerolls: int) -> Policy:
    """The optimal keep-or-reroll choice for the goal, state ("rolled", rerolls left, dice left, total)."""
    if isinstance(goal, Mean):
        return legit.mean_turn(DICE, rerolls).game.best
    if isinstance(goal, Chase):
        return legit.beat_turn(DICE, rerolls, goal.best, Fraction(1, 2)).game.best
    return legit.first_turn(DICE, rerolls, goal.players).game.best


def never(state: tuple) -> str:
    """Never reroll."""
    return "keep"


def goal_value(goal: Goal, rerolls: int, policy: Policy) -> Fraction:
    """The exact value of the goal (see `unit`) when playing `policy` with up to `rerolls` rerolls."""
    if isinstance(goal, First):
        return legit.first_share(legit.Rules(rerolls=rerolls, players=goal.players), policy)
    scores = legit.score_distribution(legit.Rules(rerolls=rerolls), policy)
    if isinstance(goal, Mean):
        return scores.mean()
    return scores.prob(lambda s: s > goal.best) + scores.prob(lambda s: s == goal.best) / 2


@dataclass(frozen=True)
class Line:
    """One way of playing: its name, exact score distribution, goal value and expected score."""

    name: str
    scores: Dist
    value: Fraction
    mean: Fraction


@cache
def lines(goal: Goal, rerolls: int) -> tuple[Line, ...]:
    """The optimal play for the goal, never rerolling and "reroll below 8" (and, for a goal other
    than the mean, playing for the best mean), each with up to `rerolls` rerolls."""
    rules = legit.Rules(rerolls=rerolls)
    plays = [("optimal", optimal(goal, rerolls)), (NO_REROLL, never), (BELOW, legit.reroll_below(THRESHOLD))]
    if not isinstance(goal, Mean):
        plays.append(("for the best mean", optimal(Mean(), rerolls)))
    out = []
    for name, policy in plays:
        scores = legit.score_distribution(rules, policy)
        out.append(Line(name, scores, goal_value(goal, rerolls, policy), scores.mean()))
    return tuple(out)


def turn_value(goal: Goal, rerolls: int) -> Fraction:
    """What a turn is worth before its first roll, played optimally for the goal."""
    if isinstance(goal, Mean):
        return legit.mean_turn(DICE, rerolls).value()
    if isinstance(goal, Chase):
        return legit.beat_turn(DICE, rerolls, goal.best, Fraction(1, 2)).value()
    return legit.first_turn(DICE, rerolls, goal.players).value()


def state(play: legit.Play) -> tuple:
    """The solver's state of a rolled turn."""
    return ("rolled", play.rerolls_left, len(play.left), play.total)


def can_reroll(play: legit.Play) -> bool:
    """True if the turn has a choice left: dice to reroll and a reroll to do it."""
    return play.left is not None and not play.over and play.rerolls_left > 0 and bool(play.left)


def hint_for(play: legit.Play, goal: Goal) -> Hint:
    """The exact value of keeping and of rerolling for the goal."""
    if isinstance(goal, First):
        return play.first_hint(goal.players)
    return play.hint(goal.best if isinstance(goal, Chase) else None)


def machine_policy(machine: str, goal: Goal, rerolls: int) -> Policy:
    """How a machine player chooses: optimally for its goal (the first player's share, or
    beating the best so far), for the best mean, or rerolling below 8."""
    if machine == BELOW:
        return legit.reroll_below(THRESHOLD)
    return optimal(Mean() if machine == FOR_MEAN else goal, rerolls)


def play_machine(play: legit.Play, policy: Policy, rng: np.random.Generator) -> legit.Play:
    """A whole turn played by `policy`."""
    play = play.roll(rng)
    while not play.over:
        play = play.roll(rng) if can_reroll(play) and policy(state(play)) == "reroll" else play.keep()
    return play


def used(play: legit.Play) -> int:
    """The rerolls a turn has used."""
    return max(len(play.rolls) - 1, 0)


# -- pictures ------------------------------------------------------------------------------------------------
def pairs(roll: tuple[int, ...]) -> list[tuple[int, int]]:
    """The 7-pairs a roll loses: min(#a, #b) pairs (a, b) of each of 1-6, 2-5, 3-4."""
    return [(a, b) for a, b in legit.PAIRS for _ in range(min(roll.count(a), roll.count(b)))]


def roll_html(roll: tuple[int, ...], left: tuple[int, ...]) -> str:
    """A roll: its 7-pairs set apart (faded, "= 7"), then the dice left, large, and their total."""
    gone = "".join(
        f"<span class='legit-pair' title='{a} + {b} = 7: removed' style='display:inline-flex;flex-direction:column;"
        f"align-items:center;margin-right:6px;padding:2px 3px;border:1px dashed #c62828;border-radius:6px'>"
        f"<span style='display:inline-flex;gap:2px;opacity:.55'>{face_svg(a, 28)}{face_svg(b, 28)}</span>"
        f"<small style='color:#c62828;line-height:14px'>= 7</small></span>"
        for a, b in pairs(roll)
    )
    removed = (f"<div style='margin-right:14px'><div style='font-size:12px;color:#555'>7-pairs removed</div>"
               f"<div style='display:flex'>{gone}</div></div>") if gone else ""
    kept = dice_html(left, empty="every die paired off")
    total = (f"<span style='font-size:22px;margin-left:10px'>= <b class='legit-total'>{sum(left)}</b></span>")
    return (f"<div class='legit-roll' style='display:flex;align-items:flex-end;min-height:70px;margin-bottom:6px'>{removed}"
            f"<div><div style='font-size:12px;color:#555'>{len(left)} di{'e' if len(left) == 1 else 'ce'} left</div>"
            f"<div style='display:flex;align-items:center;min-height:48px'>{kept}{total}</div></div></div>")


def roll_text(roll: tuple[int, ...], left: tuple[int, ...]) -> str:
    """A roll in a line of the log: the dice, the pairs removed, the total left."""
    gone = pairs(roll)
    lost = f"{len(gone)} pair{'s' if len(gone) > 1 else ''} removed" if gone else "no 7-pair"
    return f"{mini_dice(roll)} → {lost}, total <b>{sum(left)}</b> on {len(left)} di{'e' if len(left) == 1 else 'ce'}"


def score_chart(frame: pl.DataFrame, title: alt.Title, names: list[str], best: int | None) -> alt.LayerChart:
    """The exact score distribution of each way of playing, as lines with points (a rule at the score to beat)."""
    colours = [OPTIMAL, GREY, HEURISTIC, "#54a24b"][: len(names)]
    base = alt.Chart(frame).encode(
        x=alt.X("score:Q", title="score (0: every die paired off)", scale=alt.Scale(domain=[0, TOP], nice=False),
                axis=alt.Axis(values=list(range(0, TOP + 1, 2)))),
        y=alt.Y("probability:Q", title="probability"),
        color=alt.Color("play:N", sort=names, scale=alt.Scale(domain=names, range=colours), legend=alt.Legend(orient="top", title=None)),
        tooltip=["play", "score", alt.Tooltip("probability:Q", format=".6f"), "exact"],
    )
    layers = [base.mark_line(strokeWidth=1.5), base.mark_point(filled=True, size=22)]
    if best is not None:
        rule = pl.DataFrame({"score": [best], "label": [f"to beat: {best}"]})
        layers.append(alt.Chart(rule).mark_rule(color="#c62828", strokeDash=[5, 3]).encode(x="score:Q"))
        layers.append(alt.Chart(rule).mark_text(color="#c62828", align="left", dx=4, dy=-4, baseline="top", fontSize=11)
                      .encode(x="score:Q", y=alt.value(0), text="label:N"))
    return alt.layer(*layers, title=title).properties(width=500, height=180)


def kind(goal: Goal) -> Kind:
    """Whether the goal's values are probabilities (a chance, a share of the win) or scores."""
    return "value" if isinstance(goal, Mean) else "probability"


def dilemma_view(rules: legit.Rules) -> tuple[alt.Chart, str]:
    """The first player's dilemma (`legit.first_stops`, exact): a chart of how often they stop
    after u rerolls and their share of the win when they do, and a table with the later
    players' best mean under that cap and the least total kept, to win and for the mean."""
    stops = legit.first_stops(rules)
    order = [f"{u} reroll{'' if u == 1 else 's'}" for u in stops]
    series = ("P(they stop after u rerolls)", "their share of the win if so")
    rows: dict[str, list] = {"value": [], "policy": [], "probability": [], "exact": []}
    for name, (p_stop, won) in zip(order, stops.values()):
        for s, v in zip(series, (p_stop, won)):
            rows["value"].append(name)
            rows["policy"].append(s)
            rows["probability"].append(float(v or 0))
            rows["exact"].append("never stops here" if v is None else number_text(v))
    share = legit.first_share(rules)
    share_mean = legit.first_share(rules, legit.mean_turn(DICE, rules.rerolls).game.best)
    cap = f"up to {rules.rerolls} reroll{'' if rules.rerolls == 1 else 's'}"
    title = alt.Title(f"The first player's dilemma ({rules.players} players, {cap})",
                      subtitle=f"playing to win, exact: share of the win {float(share):.4f} (fair: {1 / rules.players:.4f})")
    chart = policy_bars(pl.DataFrame(rows), title, "rerolls the first player uses (= the others' cap)", order, width=500, height=130)
    first = legit.first_turn(DICE, rules.rerolls, rules.players).game
    mean_game = legit.mean_turn(DICE, rules.rerolls).game
    counts = (6, 4, 2)

    def least_kept(game: Expectimax, u: int, n: int) -> str:
        if u == rules.rerolls:
            return "all"
        keep = [t for t in range(6 * n + 1) if game.best(("rolled", rules.rerolls - u, n, t)) == "keep"]
        return str(min(keep)) if keep else "none"

    body = []
    for u, (p_stop, won) in stops.items():
        later = legit.mean_turn(DICE, u).value()
        cells = "".join(f"<td align='center'>{least_kept(first, u, n)} <small style='color:#777'>({least_kept(mean_game, u, n)})"
                        f"</small></td>" for n in counts)
        won_cell = "–" if won is None else number_html(won)
        body.append(f"<tr class='dilemma-row' style='border-top:1px solid #ddd'><td align='center'>{u}</td>"
                    f"<td>{number_html(later, 'value')}</td><td>{number_html(p_stop)}</td><td>{won_cell}</td>{cells}</tr>")
    head = "".join(f"<th>{n} dice</th>" for n in counts)
    table = (
        "<div class='nessus-wide'>"
        f"<table class='dilemma' cellpadding='3' style='font-size:12px;border-collapse:collapse;white-space:nowrap'>"
        f"<tr style='background:#f4f4f4'><th rowspan='2'>rerolls<br>used</th><th rowspan='2'>others'<br>best mean</th>"
        f"<th rowspan='2'>P(stop<br>there)</th><th rowspan='2'>share<br>if so</th>"
        f"<th colspan='3'>keeps from, with … left: to win <span style='color:#777'>(for the mean)</span></th></tr>"
        f"<tr style='background:#f4f4f4'>{head}</tr>{''.join(body)}</table></div>"
        f"<div class='dilemma-share' style='{LINE}'>First player's share of the win: playing to win {number_html(share)}; "
        f"playing for the best mean {number_html(share_mean)}; fair 1/{rules.players}.</div>"
        f"<div class='dilemma-reading' style='{LINE}'>{dilemma_reading(rules, first, mean_game)}</div>"
        "<div style='color:#555;font-size:12px;line-height:1.4'>Exact (click a decimal for its fraction). "
        "The later players know the best score so far and play for P(above) + ½ P(equal).</div>"
    )
    return chart, table


def dilemma_reading(rules: legit.Rules, first: Expectimax, mean_game: Expectimax) -> str:
    """The dilemma in a sentence: on the first roll of six dice, does the first player playing
    to win keep from a lower total than a player chasing the mean (or a higher one)?"""
    if rules.rerolls == 0:
        return f"No reroll allowed: nobody has a choice, and each of the {rules.players} players wins 1/{rules.players} of the time."
    win, mean = (min(t for t in range(TOP + 1) if g.best(("rolled", rules.rerolls, DICE, t)) == "keep") for g in (first, mean_game))
    head = f"On the first roll, six dice left: playing to win the first player keeps from <b>{win}</b>, a mean chaser from <b>{mean}</b>. "
    if win < mean:
        return head + ("They stop <b>earlier</b>: every reroll they use is one more for each other player, and keeping now "
                       "hands them none.")
    if win > mean:
        return head + (f"They are <b>pickier</b>: against {rules.players - 1} chasers who know the score to beat, a middling "
                       "total rarely holds, even if rerolling hands everyone more rerolls.")
    return head + "The same threshold: the cap they set and the score they need balance out here."


class LegitDashboard(TableDashboard):
    """The widgets of the Le Légit page and the turn (or round) they play."""

    notebook, title = "le-legit.ipynb", "Le Légit"
    sentence = ("Roll six dice and remove every pair totalling 7 (1-6, 2-5, 3-4); keep the total of the dice left, or"
                " reroll them all (and remove the 7-pairs again), up to 3 times. In a round, later players may not "
                "reroll more often than the first player did: the highest score wins. Beside (below on a phone): how "
                "your score falls out when you play optimally for your goal, never reroll, or reroll below 8, and the"
                " first player's dilemma.")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "legit", legit.PLAYERS, MACHINES)
        self.goal = widgets.ToggleButtons(options=[MOST, BEAT], value=MOST, style={"button_width": "110px"})
        self.goal.add_class("legit-goal")
        self.target = widgets.IntSlider(value=legit.TARGET.default, min=0, max=TOP, description="to beat", disabled=True,
                                        continuous_update=False, style={"description_width": "55px"},
                                        layout=widgets.Layout(width="260px"))
        self.target.add_class("legit-target")
        self.goal_box = widgets.HBox([widgets.HTML("<b>play for</b>&nbsp;", layout=widgets.Layout(width="62px")), self.goal,
                                      self.target])
        self.rerolls = self.param_field(legit.REROLLS, width="150px")
        self.rerolls.widget.add_class("legit-rerolls")
        rerolls_note = widgets.HTML("<small style='color:#555'>most rerolls (0 to 3); in a round, the first player's "
                                    "rerolls cap the others'</small>", layout=widgets.Layout(margin="0 0 0 8px"))

        self.roll_view = widgets.HTML()
        self.roll_button, self.keep_button, self.new_button = self.moves(("Roll 6 dice", "Keep", "New turn"),
                                                                         (self.roll, self.keep, self.restart))
        self.keep_button.add_class("keep-button")
        self.log = widgets.HTML()
        self.sheet = TableHTML(name="le-legit-scores")
        self.chart = self.chart_pane("300px", "score")
        self.figures = TableHTML(name="le-legit-figures")
        self.dilemma_chart = self.chart_pane("250px", "dilemma")
        self.dilemma_table = TableHTML(name="le-legit-dilemma")

        rules_guard = self.rules_guard
        self.goal.observe(rules_guard(lambda _: self.new_goal()), names="value")
        self.target.observe(rules_guard(lambda _: self.new_goal()), names="value")
        self.rerolls.widget.observe(rules_guard(lambda _: self.new_rerolls()), names="value")

        self.page([
            self.seats.mode, self.goal_box, self.seats.box, widgets.HBox([self.rerolls.widget, rerolls_note]),
            self.messages.widget, self.roll_view, widgets.HBox([self.roll_button, self.keep_button, self.new_button]),
            self.counter, self.status, self.log, self.hint.toggle, self.hint.widget, self.sheet,
        ], [self.chart.widget, self.figures, self.dilemma_chart.widget, self.dilemma_table], left_width="590px")
        self.worker = LatestJob("legit-dilemma")
        self.lock = threading.Lock()  # guards the ticket and the dilemma panes (the worker writes them too)
        self.ticket = 0
        self.dilemma_for: tuple[int, int] | None = None
        self.seats.new_players()

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> legit.Rules:
        """The rules in the controls (players only counts in a game)."""
        players = self.seats.players.value() if self.seats.game else legit.PLAYERS.default
        return legit.Rules(rerolls=self.rerolls.value(), players=players)

    def objective(self) -> Goal:
        """What the hint and the chart are for: your goal alone; in a round, the first player's
        share (seat 1) or beating the best score so far."""
        if not self.seats.game:
            return Mean() if self.goal.value == MOST else Chase(self.target.value)
        if self.you == 0:
            return First(self.rules_now.players)
        return Chase(self.best_so_far())

    def new_mode(self) -> None:
        """Alone or against the machine: the goal controls only alone, and a new turn or round."""
        self.goal_box.layout.display = "none" if self.seats.game else None
        self.restart()

    def new_goal(self) -> None:
        """Another goal (alone): the chart and the hint follow it; the turn goes on."""
        self.target.disabled = self.goal.value != BEAT
        if not self.seats.game:
            self.draw_chart()
            self.draw_turn()

    def new_rerolls(self) -> None:
        """Another number of rerolls: a new turn or round."""
        self.rules()  # a message, and nothing else changes, if the rerolls are not allowed
        self.restart()

    def restart(self) -> None:
        """A new turn (alone) or a new round: the machine players before you play at once."""
        self.rules_now = self.rules()
        self.messages.clear()
        self.lines: list[str] = []
        self.result, self.winners = "", []
        if self.seats.game:
            self.you = self.seats.you
            self.turns: list[legit.Play | None] = [None] * self.rules_now.players
            for seat in range(self.you):
                self.play_seat(seat)
        self.cap = self.rules_now.rerolls if not self.seats.game or self.you == 0 else used(self.turns[0])
        self.play = legit.Play.start(self.rules_now, cap=self.cap)
        self.new_button.description = "New round" if self.seats.game else "New turn"
        self.draw_chart()
        self.request_dilemma()
        self.draw_turn()

    # -- the round ------------------------------------------------------------------------------------
    def best_so_far(self) -> int:
        """The best score played so far in the round (0 before anyone has played)."""
        return max((t.total for t in self.turns if t is not None and t.over), default=0)

    def play_seat(self, seat: int) -> None:
        """A machine player's whole turn: the first sets the cap, the others chase the best so far."""
        r = self.rules_now
        if seat == 0:
            goal, cap = First(r.players), r.rerolls
        else:
            goal, cap = Chase(self.best_so_far()), used(self.turns[0])
        policy = machine_policy(self.seats.machine.value, goal, r.rerolls)
        self.turns[seat] = play_machine(legit.Play.start(r, cap=cap), policy, self.rng)

    def finish_round(self) -> None:
        """You have played: the players after you play, and the best score wins (a tie shares the win)."""
        self.turns[self.you] = self.play
        for seat in range(self.you + 1, len(self.turns)):
            self.play_seat(seat)
        scores = [t.total for t in self.turns]
        self.winners = [i for i, s in enumerate(scores) if s == max(scores)]
        names = [self.seats.name(i) for i in self.winners]
        if len(names) > 1:
            self.result = f"{' and '.join(names)} share the win with {max(scores)} (a tie for the best score)."
        else:
            self.result = f"{names[0]} win{'' if self.winners == [self.you] else 's'} with {max(scores)}."

    # -- your moves -------------------------------------------------------------------------------
    def roll(self) -> None:
        """The first roll, or a reroll of the dice left."""
        p = self.play
        if p.over:
            raise ValueError(f"the turn is over: press {self.new_button.description}")
        if p.left is not None and not can_reroll(p):
            raise ValueError("no reroll left: keep your total")
        if p.left is not None:
            self.lines[-1] += self.verdict(p, "reroll")
        self.play = p.roll(self.rng)
        name = "Roll" if p.left is None else f"Reroll {used(self.play)}"
        self.lines.append(f"{name}: {roll_text(self.play.rolls[-1], self.play.left)}.")
        if not can_reroll(self.play):
            why = "every die paired off" if not self.play.left else "no reroll left"
            self.play = self.play.keep()
            self.lines.append(f"{why.capitalize()}: the score is <b>{self.play.total}</b>.")
        self.after_move()

    def keep(self) -> None:
        """Keep the total of the dice left."""
        p = self.play
        if p.over:
            raise ValueError(f"the turn is over: press {self.new_button.description}")
        if p.left is None:
            raise ValueError("roll the dice before you keep")
        self.lines[-1] += self.verdict(p, "keep")
        self.play = p.keep()
        self.lines.append(f"You keep <b>{self.play.total}</b>.")
        self.after_move()

    def verdict(self, play: legit.Play, action: str) -> str:
        """What choosing `action` was worth against the best choice, for the goal."""
        goal = self.objective()
        hint = hint_for(play, goal)
        if hint.cost(action) == 0:
            return f" <span class='legit-verdict' style='color:#2e7d32'>You {action}: optimal.</span>"
        return (f" <span class='legit-verdict' style='color:#b00020'>You {action}: it costs {number_html(hint.cost(action), kind(goal))} "
                f"of {unit(goal)} (best: {hint.best}).</span>")

    def tidy_messages(self) -> None:
        """Clear the message line, unless a field still holds a bad value (then say so again)."""
        try:
            self.rules()
        except ValueError as e:
            self.messages.error(str(e))
        else:
            self.messages.clear()

    def after_move(self) -> None:
        """After your move: the players after you play once your turn is over; redraw."""
        self.tidy_messages()
        if self.play.over and self.seats.game:
            self.finish_round()
        self.draw_turn()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        """Your turn: the roll, the buttons, the status, the log, the score sheet and the hint."""
        p = self.play
        if p.left is None:
            self.roll_view.value = ("<div class='legit-roll' style='min-height:70px;margin-bottom:6px;color:#777;display:flex;"
                                    "align-items:center'>Press Roll to throw the six dice.</div>")
        else:
            self.roll_view.value = roll_html(p.rolls[-1], p.left)
        choice = can_reroll(p)
        n = DICE if p.left is None else len(p.left)
        if p.left is None:
            self.roll_button.description = "Roll 6 dice"
        else:
            self.roll_button.description = f"Reroll {n} di{'e' if n == 1 else 'ce'}" if choice else "Reroll"
        self.roll_button.disabled = p.over or (p.left is not None and not choice)
        self.keep_button.description = f"Keep {p.total}" if p.left is not None and not p.over else "Keep"
        self.keep_button.disabled = p.over or p.left is None
        self.status.value = f"<div class='legit-status' style='font-size:15px'>{self.status_text()}</div>"
        log = "".join(f"<div>{line}</div>" for line in self.lines)
        self.log.value = f"<div class='legit-log' style='font-size:13px;line-height:1.7;min-height:20px'>{log}</div>"
        self.draw_sheet()
        self.draw_hint()
        self.counter.value = counter_html(len(p.rolls), self.cap + 1, p.over)  # last: the page is then up to date

    def status_text(self) -> str:
        """Where your turn stands, in a sentence."""
        p = self.play
        chase = ""
        if self.seats.game and self.you > 0:
            first = self.turns[0]
            chase = (f" Score to beat: <b>{self.best_so_far()}</b>; Player 1 used {used(first)} reroll"
                     f"{'' if used(first) == 1 else 's'}, so you may use {self.cap}.")
        elif self.seats.game:
            chase = (f" You are the first player: every reroll you use, the {self.rules_now.players - 1} other"
                     f"{'s' if self.rules_now.players > 2 else ''} may use too.")
        if p.over:
            return f"Your score: <b class='legit-score'>{p.total}</b>. <b>Turn over.</b>"
        if p.left is None:
            return "Your turn: press <b>Roll 6 dice</b>." + chase
        left = p.rerolls_left
        return (f"Total <b>{p.total}</b> on {len(p.left)} dice, {left} reroll{'' if left == 1 else 's'} left: "
                f"<b>Keep</b> it or <b>Reroll</b> the dice left." + chase)

    def draw_hint(self) -> None:
        """The hint: what the turn is worth before it starts, then keep against reroll, exactly."""
        p = self.play
        if p.over:
            self.hint.show(None, "The turn is over: no choice is left to weigh.")
            return
        goal = self.objective()
        head = f"<div style='color:#555'>Goal: <b>{html.escape(goal_text(goal))}</b></div>"
        if p.left is None:
            value = turn_value(goal, self.cap)
            self.hint.show(None, f"{head}Roll first: then the hint weighs keeping against rerolling. Played optimally, "
                                 f"this turn is worth {number_html(value, kind(goal))} ({unit(goal)}).")
            return
        n = len(p.left)

        def label(action: Hashable) -> str:
            return f"keep {p.total}" if action == "keep" else f"reroll the {n} di{'e' if n == 1 else 'ce'} left"

        self.hint.show(lambda: head + hint_table(hint_for(p, goal), None, label, partial(number_html, kind=kind(goal)),
                                                          unit(goal)))

    def draw_sheet(self) -> None:
        """The round: every player's rolls, rerolls used and score, in seat order."""
        if not self.seats.game:
            self.sheet.value = ""
            return
        rows = []
        for seat, t in enumerate(self.turns):
            you = seat == self.you
            if t is None:
                rolls, score = ("<i>playing…</i>" if you else "<i>to play</i>"), ""
            else:
                rolls = " → ".join(mini_dice(left, 16) if left else "<small>0 dice</small>"
                                   for left in (legit.remove_pairs(r) for r in t.rolls))
                score = (f"<b>{t.total}</b> <small>{used(t)} reroll{'' if used(t) == 1 else 's'}</small>")
            won = " <b style='color:#2e7d32'>★ wins</b>" if seat in self.winners else ""
            cap = " <small style='color:#777'>(sets the cap)</small>" if seat == 0 else ""
            rows.append(f"<tr class='legit-player' style='{self.seats.row_style(seat)}'><td><b>{seat + 1}</b></td>"
                        f"<td>{self.seats.who_html(seat)}{cap}{won}</td><td>{rolls}</td><td>{score}</td></tr>")
        result = (f"<div class='legit-result' style='font-weight:bold;margin-top:4px'>{html.escape(self.result)}</div>"
                  if self.result else "")
        self.sheet.value = (f"<h4 style='margin:8px 0 2px'>The round, in seat order: the dice left after each roll</h4>"
                            f"<table class='legit-players' cellpadding='3' style='border-collapse:collapse;width:100%'>"
                            f"{''.join(rows)}</table>{result}")

    def draw_chart(self) -> None:
        """Your score's exact distribution, playing optimally for the goal, never rerolling, or below 8."""
        goal, cap = self.objective(), self.cap
        plays = lines(goal, cap)
        shown = plays[:3]
        rows: dict[str, list] = {"score": [], "play": [], "probability": [], "exact": []}
        for line in shown:
            for s in range(TOP + 1):
                p = line.scores[s] if s in line.scores.outcomes else Fraction(0)
                rows["score"].append(s)
                rows["play"].append(line.name)
                rows["probability"].append(float(p))
                rows["exact"].append(number_text(p))
        names = [line.name for line in shown]
        text = goal_text(goal)
        capped = f", at most {cap} reroll{'' if cap == 1 else 's'}"
        title = alt.Title(f"Your score{capped}, playing for {text}",
                          subtitle=", ".join(f"{line.name} {float(line.value):.4f}" for line in shown) + f"  ({unit(goal)})")
        best = goal.best if isinstance(goal, Chase) else None
        self.chart.show(score_chart(pl.DataFrame(rows), title, names, best))
        colours = [OPTIMAL, GREY, HEURISTIC, "#54a24b"]
        body = "".join(
            f"<tr><td><span style='color:{c}'>■</span> {html.escape(line.name)}</td><td>{number_html(line.value, kind(goal))}</td>"
            + ("" if isinstance(goal, Mean) else f"<td>{number_html(line.mean, 'value')}</td>") + "</tr>"
            for line, c in zip(plays, colours)
        )
        mean_head = "" if isinstance(goal, Mean) else "<th align='left'>expected score</th>"
        self.figures.value = (
            f"<table class='figures' cellpadding='3' style='font-size:13px;white-space:nowrap'><tr><th align='left'>play</th>"
            f"<th align='left'>{html.escape(unit(goal))} (exact)</th>{mean_head}</tr>{body}</table>"
            f"<div style='color:#555;font-size:12px;line-height:1.4'>Exact (a long fraction shows its decimal value: click "
            f"it for the fraction). “Reroll below {THRESHOLD}” is the best single threshold for the mean; the common "
            f"“reroll below 12” does worse than never rerolling (10.28 against 11.33 points with 3 rerolls).</div>"
        )

    def request_dilemma(self) -> None:
        """Have the worker thread solve the dilemma for the rules in the controls, unless it shows them
        already (the answer replaces the "solving" line; an answer for rules changed since is dropped)."""
        r = self.rules_now
        if (r.rerolls, r.players) == self.dilemma_for:
            return
        self.dilemma_for = (r.rerolls, r.players)
        with self.lock:
            self.ticket += 1
            ticket = self.ticket
            self.dilemma_table.value = (f"<div class='dilemma-pending' style='color:#555'><i>Solving the first player's dilemma "
                                        f"exactly ({r.players} players, up to {r.rerolls} rerolls)…</i></div>")
        self.worker.submit(partial(self.solve_dilemma, ticket, r))

    def solve_dilemma(self, ticket: int, rules: legit.Rules) -> None:
        """In the worker thread: the dilemma's chart and table, shown if `ticket` is still current."""
        try:
            chart, table = dilemma_view(rules)
        except Exception as e:  # shown in the page: a failure in the thread must not pass unseen
            chart, table = None, (f"<div class='dilemma-error' style='color:#b00020'>⚠ the dilemma could not be solved: "
                                  f"{html.escape(type(e).__name__)}: {html.escape(str(e))}</div>")
        with self.lock:
            if ticket == self.ticket:
                if chart is not None:
                    self.dilemma_chart.show(chart)
                self.dilemma_table.value = table


def app(seed: int | None = None) -> widgets.Widget:
    """The Le Légit dashboard as one widget."""
    return LegitDashboard(seed).view
