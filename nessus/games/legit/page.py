"""Le Légit's page: a turn of six dice with the exact value of each choice, alone (for the most
points, or to beat a score) or in a round against machine players; beside it, the score's exact
law for the goal and the first player's dilemma (solved in a worker thread), drawn in `views`."""

from __future__ import annotations

import threading
from functools import partial

import ipywidgets as widgets

from nessus.games.legit import GAME, views
from nessus.games.legit.policies import MACHINES, Chase, Goal, Mean, machine_policies, seat_goal
from nessus.games.legit.rules import PLAYERS, REROLLS, TARGET, Rules
from nessus.games.legit.state import State, TurnRecord
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import counter_html
from nessus.kit.goals import GoalBox, GoalDashboard, plural, turn_log
from nessus.kit.jobs import LatestJob


class LegitDashboard(GoalDashboard):
    """The widgets of the Le Légit page and the turn (or round) they play."""

    game = GAME
    sentence = (
        "Roll six dice and remove every pair totalling 7 (1-6, 2-5, 3-4); keep the total of the dice left, or"
        " reroll them all (and remove the 7-pairs again), up to 3 times. In a round, later players may not "
        "reroll more often than the first player did: the highest score wins. Beside (below on a phone): how "
        "your score falls out when you play optimally for your goal, never reroll, or reroll below 8, and the"
        " first player's dilemma."
    )
    machines = MACHINES
    move_words = ("Roll 6 dice", "Keep", "New turn")
    chart_size = "300px score"
    new_words = ("New turn", "New round")
    machine_policies = staticmethod(machine_policies)
    state: State

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        words = ("most points", "beat a score")
        self.goals = self.play_for(GoalBox("legit", words, "to beat", int(TARGET.default), views.TOP, "55px 260px"))
        self.rerolls = self.param_field(REROLLS, width="150px")
        self.rerolls.widget.add_class("legit-rerolls")
        self.watch(self.restart, self.rerolls.widget)
        note = "most rerolls (0 to 3); in a round, the first player's rerolls cap the others'"
        rerolls_note = widgets.HTML(f"<small style='color:#555'>{note}</small>", layout={"margin": "0 0 0 8px"})
        self.roll_view = widgets.HTML()
        self.stop_button.add_class("keep-button")
        self.dilemma_chart = self.chart_pane("250px", "dilemma")
        self.dilemma_table = TableHTML(name="le-legit-dilemma")
        rules = widgets.HBox([self.rerolls.widget, rerolls_note])
        self.lay_out(rules, [self.roll_view], [self.dilemma_chart.widget, self.dilemma_table])
        self.worker = LatestJob("legit-dilemma")
        self.lock = threading.Lock()  # guards the dilemma panes and what they are for (the worker writes them too)
        self.dilemma_for: tuple[int, int] | None = None
        self.seats.new_players()

    def rules(self) -> Rules:
        """The rules in the controls (players only counts in a game)."""
        players = int(self.seats.players.value() if self.seats.game else PLAYERS.default)
        return Rules(rerolls=self.rerolls.value(), players=players)

    def objective(self) -> Goal:
        """What the hint and the chart are for: your goal alone; in a round, your seat's (`seat_goal`)."""
        if self.seats.game:
            return seat_goal(self.state, self.you)
        return Chase(self.goals.target.value) if self.goals.beat else Mean()

    def start(self) -> None:
        """A new turn or round: the machine players before you play at once."""
        self.lines: list[str] = []
        self.machines_play(range(self.you))
        self.draw_chart()
        self.request_dilemma()
        self.draw()

    @property
    def turn(self) -> TurnRecord:
        """Your turn (not yet rolled: no roll, the cap)."""
        return self.state.seat_turn(self.you)

    @property
    def over(self) -> bool:
        """Your turn is over."""
        return self.turn.over

    def roll(self) -> None:
        """The first roll, or a reroll of the dice left."""
        p = self.turn
        self.check_open()  # a turn rolled and not over has a reroll left
        if p.left is not None:
            self.lines[-1] += views.verdict_html(self.state, "reroll", self.objective())
        self.state = self.state.roll(self.rng)
        self.lines += views.roll_lines(p, self.turn)
        self.after_move()

    def stop(self) -> None:
        """Keep the total of the dice left."""
        p = self.turn
        self.check_open()
        if p.left is None:
            raise ValueError("roll the dice before you keep")
        self.lines[-1] += views.verdict_html(self.state, "keep", self.objective())
        self.state = self.state.keep()
        self.lines.append(f"You keep <b>{p.total}</b>.")
        self.after_move()

    def draw(self) -> None:
        """Your turn: the roll, the buttons, the status, the log, the score sheet and the hint."""
        p = self.turn
        rolled = p.left is not None
        self.roll_view.value = views.roll_html(p)
        reroll = f"Reroll {plural(len(p.left or ()), 'die')}" if p.can_reroll else "Reroll"
        self.roll_button.description = reroll if rolled else "Roll 6 dice"
        self.roll_button.disabled = p.over or (rolled and not p.can_reroll)
        self.stop_button.description = f"Keep {p.total}" if rolled and not p.over else "Keep"
        self.stop_button.disabled = p.over or not rolled
        self.status.value = views.status(self.state, p, self.you if self.seats.game else None)
        self.log.value = turn_log("legit", self.lines)
        self.sheet.value = views.sheet_html(self.state, self.seats) if self.seats.game else ""
        self.draw_choice()
        self.counter.value = counter_html(len(p.rolls), p.cap + 1, p.over)  # last: the page is then up to date

    def draw_choice(self) -> None:
        """The hint: what the turn is worth before its first roll, then keep against reroll."""
        p = self.turn
        if p.over:
            self.hint.show(None, "The turn is over: no choice is left to weigh.")
        elif p.left is None:
            self.hint.show(None, views.hint_html(self.state, self.objective()))
        else:
            self.hint.show(partial(views.hint_html, self.state, self.objective()))

    def draw_chart(self) -> None:
        """Your score's exact distribution, playing optimally for the goal, never rerolling, or below 8."""
        chart, self.figures.value = views.chart_view(self.objective(), self.turn.cap)
        self.chart.show(chart)

    def request_dilemma(self) -> None:
        """Have the worker thread solve the dilemma for the rules in the controls, unless it shows them
        already (the answer replaces the "solving" line; an answer for rules changed since is dropped)."""
        r = self.rules_now
        with self.lock:
            if (r.rerolls, r.players) == self.dilemma_for:
                return
            self.dilemma_for = (r.rerolls, r.players)
            self.dilemma_table.value = views.dilemma_pending(r)
        self.worker.submit(partial(self.solve_dilemma, r))

    def solve_dilemma(self, rules: Rules) -> None:
        """In the worker thread: the dilemma's chart and table, shown if the page still asks for them."""
        try:
            chart, table = views.dilemma_view(rules)
        except Exception as e:  # shown in the page: a failure in the thread must not pass unseen
            chart, table = None, views.dilemma_pending(rules, e)
        with self.lock:
            if (rules.rerolls, rules.players) == self.dilemma_for:
                if chart is not None:
                    self.dilemma_chart.show(chart)
                self.dilemma_table.value = table


app = LegitDashboard.app
"""The Le Légit dashboard as one widget: `app(seed=None)`."""
