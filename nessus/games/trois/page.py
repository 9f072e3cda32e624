"""Les Trois's page: a turn (set aside at least one die per roll, lowest total wins) with the
exact value of every set-aside beside you, alone for a goal you choose or in a game against
machine players; the charts of a turn's score and of the chance of the moon. What it draws is
in `views`."""

from __future__ import annotations

from functools import partial
from typing import cast

import ipywidgets as widgets

from nessus.games import trois
from nessus.games.trois import GAME, views
from nessus.games.trois.policies import POLICIES
from nessus.games.trois.rules import Aside
from nessus.games.trois.state import Shown, shown
from nessus.kit.goals import GoalDashboard, turn_log
from nessus.play import play


class TroisDashboard(GoalDashboard):
    """The widgets of the Les Trois page and the turn (or game) they play."""

    game = GAME
    machines = POLICIES
    machine_policies = staticmethod(trois.machine_policies)
    move_words = ("Roll 5 dice", "Set aside all", "New turn")
    chart_size = "330px turn-score"
    state: trois.State  # the game being played (alone: your turn)
    sentence = (
        "Five dice, lowest total wins: after each roll set aside at least one die (set-aside dice are final) "
        "and roll the others, until every die is set aside. A 3 counts 0, so five 3s score 0; five 6s “shoot "
        "the moon” and win at once. Beside (below on a phone): the exact score of a turn when you play for "
        "your goal, or set aside every 3 (else the lowest die), and your chance of the moon."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.goal = widgets.Dropdown(
            options=list(trois.objectives(5, 0)),
            description="play for",
            style={"description_width": "65px"},
            layout=widgets.Layout(width="300px"),
        )
        self.goal.add_class("trois-goal")
        self.target = widgets.IntSlider(
            value=trois.TARGET.default,
            min=0,
            max=6 * trois.DICE.default,
            description="target",
            continuous_update=False,
            style={"description_width": "45px"},
            layout=widgets.Layout(width="270px", display="none"),
        )
        self.target.add_class("trois-target")
        self.goal_box = widgets.HBox([self.goal, self.target])
        self.dice = self.param_field(trois.DICE, width="150px")
        self.dice.widget.style.description_width = "45px"
        self.dice.widget.add_class("trois-dice")
        self.rounds = self.param_field(trois.ROUNDS, width="150px")
        self.rounds.widget.style.description_width = "55px"
        self.seats.box.children = (*self.seats.box.children, self.rounds.widget)

        self.tray = views.AsideTray(int(trois.DICE.hi), "aside", on_change=self.guard(self.clicked))
        self.tray.widget.add_class("trois-tray")
        self.moon = self.chart_pane("210px", "moon")
        self.charted: trois.TurnObjective | None = None
        self.watch(self.new_goal, self.goal, self.target)
        self.watch(self.restart, self.dice.widget, self.rounds.widget)

        self.page(
            [
                widgets.HTML(views.TRAY_CSS),
                widgets.HBox([self.seats.mode, self.dice.widget]),
                self.goal_box,
                self.seats.box,
                self.messages.widget,
                widgets.HTML(views.HELP),
                self.tray.widget,
                widgets.HBox([self.roll_button, self.stop_button, self.new_button]),
                self.counter,
                self.status,
                self.log,
                self.hint.toggle,
                self.hint.widget,
                self.sheet,
            ],
            [self.chart.widget, self.figures, self.moon.widget],
            left_width="590px",
        )
        self.seats.new_players()

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> trois.Rules:
        """The rules in the controls (players and rounds only count in a game)."""
        dice = self.dice.value()
        if not self.seats.game:
            return trois.Rules(dice=dice)
        return trois.Rules(dice=dice, players=self.seats.players.value(), rounds=self.rounds.value())

    def objective(self) -> trois.TurnObjective:
        """What the hint and the chart play for: your goal alone; in a game, the turn's (`State.objective`)."""
        if self.seats.game:
            return self.goal_now
        return trois.objectives(self.rules_now.dice, self.target.value)[self.goal.value]

    def new_goal(self, box: object = None) -> None:
        """Another goal (or target): the chart and the hint follow it."""
        self.target.layout.display = None if self.goal.value == trois.TARGETED else "none"
        super().new_goal()

    def start(self) -> None:
        """A new turn (alone) or a new game (`restart`): the machine players before you play at once."""
        self.target.max = 6 * self.rules_now.dice
        if self.seats.game:
            self.new_game()
        else:
            self.new_turn()

    def next(self) -> None:
        """The New / Next button."""
        if self.seats.game and self.state.round_over(self.you, self.mine):
            self.start_round()
        else:
            self.restart()

    # -- the game ---------------------------------------------------------------------------------
    def new_game(self) -> None:
        """An empty score sheet, the machines at every seat but yours."""
        rules, machine = self.rules_now, self.seats.machine.value
        self.bots = self.machine_policies(machine, rules, [s for s in range(rules.players) if s != self.you])
        self.start_round()

    def advance(self) -> None:
        """Chance and the machines play (`nessus.play`) until you must move, or the end of the round
        of your turn (`State.round_over`)."""
        state = play(
            self.state, self.bots, self.rng, until=lambda s: cast(trois.State, s).round_over(self.you, self.mine)
        )
        self.state = cast(trois.State, state)

    def start_round(self) -> None:
        """A new page of the sheet; the machine players before you play the round up to your turn."""
        self.since = len(self.state.history)
        self.clear_turn()
        self.advance()
        if self.state.waits(self.you, self.mine):  # a moon before your turn, or you out of contention
            self.draw_turn()
        else:
            self.new_turn()

    # -- your moves -------------------------------------------------------------------------------
    def clear_turn(self) -> None:
        """No dice on the table yet."""
        self.mine: int | None = None
        self.goal_now: trois.TurnObjective = trois.LeastScore(self.rules_now.dice)
        self.steps: list[str] = []
        self.tray.show((), empty=f"Press Roll to throw the {self.rules_now.dice} dice.")

    def new_turn(self) -> None:
        """Your turn starts (alone: a new turn, the first of a game no one else plays)."""
        if not self.seats.game:
            self.bots = {}
        self.clear_turn()
        self.mine = len(self.state.history)
        self.goal_now = self.state.objective()
        self.draw_chart()
        self.draw_turn()

    def your_turn(self) -> Shown:
        """Your turn as the page shows it."""
        return shown(self.state, self.mine)

    def waiting(self) -> bool:
        """In a game, is it not your turn (the game over, your round played, or you out of contention)?"""
        return self.seats.game and self.state.waits(self.you, self.mine)

    def clicked(self) -> None:
        """A die marked or unmarked: the hint weighs the new choice."""
        self.messages.clear()
        self.draw_choice()

    def playing(self) -> Shown:
        """Your turn, or a ValueError (a message in the page) when you may not move now."""
        if self.waiting():
            word = "game" if self.state.is_terminal() else "turn"
            raise ValueError(f"your {word} is over: press {self.new_button.description}")
        if (p := self.your_turn()).over:
            raise ValueError(f"the turn is over: press {self.new_button.description}")
        return p

    def roll(self) -> None:
        """Set aside the dice marked and roll the others (the first roll: every die)."""
        if self.playing().roll is None:
            return self.play()
        if not self.tray.marked:
            raise ValueError("set aside at least one die first: click it (a 3 counts 0)")
        self.play(self.tray.marked)

    def stop(self) -> None:
        """Set aside every die of the roll: the turn is over."""
        roll = self.playing().roll
        if roll is None:
            raise ValueError("roll the dice before setting them aside")
        self.play(roll)

    def play(self, aside: tuple[int, ...] | None = None) -> None:
        """Roll every die (`aside` None) or set these dice of the roll aside, told in the rolls so far;
        chance rolls the others, or your turn is over (in a game, the players after you play)."""
        p = self.your_turn()
        if aside is not None and p.roll is not None:
            self.steps.append(views.step_html(len(self.steps) + 1, p.roll, aside, p.kept))
        self.state = cast(trois.State, self.state.apply("roll" if aside is None else Aside(aside)))
        self.advance()
        self.messages.clear()
        self.draw_turn()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        """The dice, buttons, status, rolls so far, score sheet, hint and moon chart."""
        p, game, waiting = self.your_turn(), self.state if self.seats.game else None, self.waiting()
        shown_round = self.state.shown_round(self.you, self.mine) if game else 0
        self.tray.show_turn(p)
        self.roll_button.disabled = p.over or waiting
        self.stop_button.disabled = p.over or waiting or p.roll is None
        next_round = waiting and not self.state.is_terminal()
        self.new_button.description = "New turn" if not game else "Next round" if next_round else "New game"
        self.status.value = views.status_html(p, self.objective(), game, shown_round, waiting)
        self.log.value = turn_log("trois", self.steps)
        self.sheet.value = views.sheet_html(self.state, shown_round, self.since, self.seats) if game else ""
        self.draw_choice()
        self.moon.show(views.moon_chart(p, self.state))
        rolls = len(self.steps) + (p.roll is not None)
        self.counter.value = views.counter_html(rolls, len(p.kept), p.dice, p.over or waiting)  # last: up to date

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked."""
        p, waiting = self.your_turn(), self.waiting()
        aside = None if p.roll is None or waiting else self.tray.marked
        self.roll_button.description, self.stop_button.description = views.button_labels(p, aside, p.over or waiting)
        if aside is None:
            self.hint.show(None, views.NO_CHOICE if p.over or waiting else views.ROLL_FIRST)
        else:
            self.hint.show(partial(views.hint_html, self.state, p, self.objective(), aside or None))

    def draw_chart(self) -> None:
        """The score of a turn played for the goal vs every 3 (or the lowest die), and their figures."""
        goal = self.objective()
        if self.charted != goal:
            chart, figures = views.score_views(goal)
            self.chart.show(chart)
            self.charted, self.figures.value = goal, figures


app = TroisDashboard.app
"""The Les Trois dashboard as one widget: `app(seed=None)`."""
