"""Le Légit dashboard: play a turn of six dice (the 7-pairs are removed, then keep the total or
reroll the dice left) with the exact value of keeping and of rerolling beside you, alone (for
the most points, or to beat a score) or in a round against machine players, where the first
player's rerolls cap everybody else's.

Left: the roll (removed 7-pairs apart, the dice left and their total), Roll / Keep, the rolls
so far with what each choice cost, the hint panel and, in a game, the score sheet. Right: the
exact distribution of the score under the optimal play for the goal, without rerolls and with
"reroll below 8"; then the first player's dilemma (when they stop, what it is worth to them).
The page is here; what it draws (the roll, the hint, the charts) is in `views`.
"""

from __future__ import annotations

import html
import threading
from functools import partial
from typing import cast

import ipywidgets as widgets

from nessus.games.legit import GAME, views
from nessus.games.legit.policies import THRESHOLD, Chase, First, Goal, Mean, policies
from nessus.games.legit.rules import PLAYERS, REROLLS, TARGET, Rules
from nessus.games.legit.state import State, TurnRecord, initial_state
from nessus.kit.common import LatestJob, TableHTML
from nessus.kit.dicegame import TableDashboard, counter_html
from nessus.play import play

MACHINES = {"optimal, to win": "optimal", "best mean": "best_mean", f"reroll below {THRESHOLD}": "reroll_below"}
"""How a machine player may play: the label in the page, and its policy's name in `policies`."""
MOST, BEAT = "most points", "beat a score"


class LegitDashboard(TableDashboard):
    """The widgets of the Le Légit page and the turn (or round) they play."""

    game = GAME
    sentence = (
        "Roll six dice and remove every pair totalling 7 (1-6, 2-5, 3-4); keep the total of the dice left, or"
        " reroll them all (and remove the 7-pairs again), up to 3 times. In a round, later players may not "
        "reroll more often than the first player did: the highest score wins. Beside (below on a phone): how "
        "your score falls out when you play optimally for your goal, never reroll, or reroll below 8, and the"
        " first player's dilemma."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "legit", PLAYERS, tuple(MACHINES))
        self.goal = widgets.ToggleButtons(options=[MOST, BEAT], value=MOST, style={"button_width": "110px"})
        self.goal.add_class("legit-goal")
        self.target = widgets.IntSlider(
            value=TARGET.default,
            min=0,
            max=views.TOP,
            description="to beat",
            disabled=True,
            continuous_update=False,
            style={"description_width": "55px"},
            layout=widgets.Layout(width="260px"),
        )
        self.target.add_class("legit-target")
        self.goal_box = widgets.HBox(
            [widgets.HTML("<b>play for</b>&nbsp;", layout=widgets.Layout(width="62px")), self.goal, self.target]
        )
        self.rerolls = self.param_field(REROLLS, width="150px")
        self.rerolls.widget.add_class("legit-rerolls")
        rerolls_note = widgets.HTML(
            "<small style='color:#555'>most rerolls (0 to 3); in a round, the first player's "
            "rerolls cap the others'</small>",
            layout=widgets.Layout(margin="0 0 0 8px"),
        )

        self.roll_view = widgets.HTML()
        self.roll_button, self.keep_button, self.new_button = self.moves(
            ("Roll 6 dice", "Keep", "New turn"), (self.roll, self.keep, self.restart)
        )
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

        self.page(
            [
                self.seats.mode,
                self.goal_box,
                self.seats.box,
                widgets.HBox([self.rerolls.widget, rerolls_note]),
                self.messages.widget,
                self.roll_view,
                widgets.HBox([self.roll_button, self.keep_button, self.new_button]),
                self.counter,
                self.status,
                self.log,
                self.hint.toggle,
                self.hint.widget,
                self.sheet,
            ],
            [self.chart.widget, self.figures, self.dilemma_chart.widget, self.dilemma_table],
            left_width="590px",
        )
        self.worker = LatestJob("legit-dilemma")
        self.lock = threading.Lock()  # guards the ticket and the dilemma panes (the worker writes them too)
        self.ticket = 0
        self.dilemma_for: tuple[int, int] | None = None
        self.seats.new_players()

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> Rules:
        """The rules in the controls (players only counts in a game)."""
        players = int(self.seats.players.value() if self.seats.game else PLAYERS.default)
        return Rules(rerolls=self.rerolls.value(), players=players)

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
        self.you = self.seats.you if self.seats.game else 0
        self.state = initial_state(self.rules_now)
        if self.seats.game:  # the machine players before you play at once
            self.state = self.machines_play(range(self.you))
        self.cap = self.state.cap(self.you)
        self.new_button.description = "New round" if self.seats.game else "New turn"
        self.draw_chart()
        self.request_dilemma()
        self.draw_turn()

    # -- the round ------------------------------------------------------------------------------------
    @property
    def turn(self) -> TurnRecord:
        """Your turn (not yet rolled: no roll, the cap)."""
        return self.state.turn_of(self.you) or TurnRecord(self.cap)

    def best_so_far(self) -> int:
        """The best score played so far in the round by the others (0 before anyone has played)."""
        return max((t.total for seat, t in enumerate(self.state.turns) if seat != self.you and t.over), default=0)

    def machines_play(self, seats: range) -> State:
        """The machine players in `seats` play their turns (`nessus.play`, by their policy of
        `policies`): the first sets the cap, the others chase the best so far."""
        r = self.rules_now
        named = policies(Rules(rerolls=r.rerolls, players=r.players, reroll_below=THRESHOLD))
        policy = named[MACHINES[self.seats.machine.value]]
        return cast(State, play(self.state, dict.fromkeys(seats, policy), self.rng))

    def finish_round(self) -> None:
        """You have played: the players after you play, and the best score wins (a tie shares the win)."""
        self.state = self.machines_play(range(self.you + 1, self.rules_now.players))

    # -- your moves -------------------------------------------------------------------------------
    def roll(self) -> None:
        """The first roll, or a reroll of the dice left."""
        p = self.turn
        if p.over:
            raise ValueError(f"the turn is over: press {self.new_button.description}")
        if p.left is not None and not p.can_reroll:
            raise ValueError("no reroll left: keep your total")
        if p.left is not None:
            self.lines[-1] += views.verdict_html(self.state, "reroll", self.objective())
        self.state = self.state.roll(self.rng)
        now = self.turn
        name = "Roll" if p.left is None else f"Reroll {now.used}"
        self.lines.append(f"{name}: {views.roll_text(now.rolls[-1], now.left or ())}.")
        if now.over:  # no choice left: the turn ends with this total
            why = "every die paired off" if not now.left else "no reroll left"
            self.lines.append(f"{why.capitalize()}: the score is <b>{now.total}</b>.")
        self.after_move()

    def keep(self) -> None:
        """Keep the total of the dice left."""
        p = self.turn
        if p.over:
            raise ValueError(f"the turn is over: press {self.new_button.description}")
        if p.left is None:
            raise ValueError("roll the dice before you keep")
        self.lines[-1] += views.verdict_html(self.state, "keep", self.objective())
        self.state = self.state.keep()
        self.lines.append(f"You keep <b>{p.total}</b>.")
        self.after_move()

    def after_move(self) -> None:
        """After your move: the players after you play once your turn is over; redraw."""
        try:  # the message line cleared, unless a field still holds a bad value (then said again)
            self.rules()
            self.messages.clear()
        except ValueError as e:
            self.messages.error(str(e))
        if self.turn.over and self.seats.game:
            self.finish_round()
        self.draw_turn()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        """Your turn: the roll, the buttons, the status, the log, the score sheet and the hint."""
        p = self.turn
        self.roll_view.value = views.roll_html(p)
        rolled, choice = p.left is not None, p.can_reroll
        reroll = f"Reroll {views.plural(len(p.left or ()), 'die')}" if choice else "Reroll"
        self.roll_button.description = reroll if rolled else "Roll 6 dice"
        self.roll_button.disabled = p.over or (rolled and not choice)
        self.keep_button.description = f"Keep {p.total}" if p.left is not None and not p.over else "Keep"
        self.keep_button.disabled = p.over or p.left is None
        you = self.you if self.seats.game else None
        self.status.value = views.status_html(self.state, p, you, self.best_so_far())
        log = "".join(f"<div>{line}</div>" for line in self.lines)
        self.log.value = f"<div class='legit-log' style='font-size:13px;line-height:1.7;min-height:20px'>{log}</div>"
        self.draw_sheet()
        if p.over:
            self.hint.show(None, "The turn is over: no choice is left to weigh.")
        elif p.left is None:  # what the turn is worth, before its first roll
            self.hint.show(None, views.hint_html(self.state, self.objective()))
        else:
            self.hint.show(partial(views.hint_html, self.state, self.objective()))
        self.counter.value = counter_html(len(p.rolls), self.cap + 1, p.over)  # last: the page is then up to date

    def draw_sheet(self) -> None:
        """The round: every player's rolls, rerolls used and score, in seat order."""
        if not self.seats.game:
            self.sheet.value = ""
            return
        self.sheet.value = views.sheet_html(self.state, self.you, self.seats)

    def draw_chart(self) -> None:
        """Your score's exact distribution, playing optimally for the goal, never rerolling, or below 8."""
        goal = self.objective()
        self.chart.show(views.score_chart(goal, self.cap))
        self.figures.value = views.figures_html(goal, self.cap)

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
            self.dilemma_table.value = (
                f"<div class='dilemma-pending' style='color:#555'><i>Solving the first player's dilemma "
                f"exactly ({r.players} players, up to {r.rerolls} rerolls)…</i></div>"
            )
        self.worker.submit(partial(self.solve_dilemma, ticket, r))

    def solve_dilemma(self, ticket: int, rules: Rules) -> None:
        """In the worker thread: the dilemma's chart and table, shown if `ticket` is still current."""
        try:
            chart, table = views.dilemma_view(rules)
        except Exception as e:  # shown in the page: a failure in the thread must not pass unseen
            chart, table = (
                None,
                (
                    f"<div class='dilemma-error' style='color:#b00020'>⚠ the dilemma could not be solved: "
                    f"{html.escape(type(e).__name__)}: {html.escape(str(e))}</div>"
                ),
            )
        with self.lock:
            if ticket == self.ticket:
                if chart is not None:
                    self.dilemma_chart.show(chart)
                self.dilemma_table.value = table


def app(seed: int | None = None) -> widgets.Widget:
    """The Le Légit dashboard as one widget."""
    return LegitDashboard(seed).view
