"""Les Trois's page: play a turn (set aside at least one die per roll, lowest total wins)
with the exact value of every set-aside beside you, alone (for a goal you choose) or in a game
against machine players.

Left: the dice (click the ones to set aside; dice set aside on earlier rolls are final), Roll /
Set aside all, the rolls so far, the hint panel and, in a game, the score sheet. Right: the
exact score distribution of a turn played for the goal against "every 3, or the lowest die",
and the chance of shooting the moon from each point of a turn.
"""

from __future__ import annotations

from typing import cast

import ipywidgets as widgets

from nessus.games import trois
from nessus.games.trois import views
from nessus.games.trois.state import Shown, shown
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import DiceTray, TableDashboard
from nessus.play import play


class AsideTray(DiceTray):
    """A DiceTray whose locked dice (set aside on an earlier roll) stay down, greyed, labelled "final"."""

    def _draw(self) -> None:
        super()._draw()
        for note, locked in zip(self.notes, self.locked):
            if locked:
                note.value = "<span style='color:#777'>final</span>"


class TroisDashboard(TableDashboard):
    """The widgets of the Les Trois page and the turn (or game) they play."""

    notebook, title = "les-trois.ipynb", "Les Trois"
    sentence = (
        "Five dice, lowest total wins: after each roll set aside at least one die (set-aside dice are final) "
        "and roll the others, until every die is set aside. A 3 counts 0, so five 3s score 0; five 6s “shoot "
        "the moon” and win at once. Beside (below on a phone): the exact score of a turn when you play for "
        "your goal, or set aside every 3 (else the lowest die), and your chance of the moon."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "trois", trois.PLAYERS, trois.MACHINES)
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

        self.tray = AsideTray(int(trois.DICE.hi), "aside", on_change=self.guard(lambda: self.clicked()))
        self.tray.widget.add_class("trois-tray")
        self.roll_button, self.stop_button, self.new_button = self.moves(
            ("Roll 5 dice", "Set aside all", "New turn"), (self.roll, self.set_aside_all, self.next)
        )
        self.log = widgets.HTML()
        self.sheet = TableHTML(name="les-trois-scores")
        self.chart = self.chart_pane("330px", "turn-score")
        self.figures = TableHTML(name="les-trois-figures")
        self.moon = self.chart_pane("210px", "moon")
        self.charted: trois.TurnObjective | None = None

        for control, change in (
            (self.goal, self.new_goal),
            (self.target, self.new_goal),
            (self.dice.widget, self.restart),
            (self.rounds.widget, self.restart),
        ):
            control.observe(self.rules_guard(lambda _, change=change: change()), names="value")

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

    def new_mode(self) -> None:
        """Alone or against the machine: the goal is yours to choose only alone."""
        self.goal_box.layout.display = "none" if self.seats.game else None
        self.restart()

    def new_goal(self) -> None:
        """Another goal (or target): the chart and the hint follow it."""
        self.target.layout.display = None if self.goal.value == trois.TARGETED else "none"
        self.draw_chart()
        self.draw_turn()

    def restart(self) -> None:
        """A new turn (alone) or a new game: the machine players before you play at once."""
        self.rules_now = self.rules()
        self.messages.clear()
        self.target.max = 6 * self.rules_now.dice
        if self.seats.game:
            self.new_game()
        else:
            self.new_turn()

    def next(self) -> None:
        """The New / Next button."""
        if self.seats.game and not self.state.is_terminal() and self.turn_done():
            self.start_round()
        else:
            self.restart()

    # -- the game ---------------------------------------------------------------------------------
    def new_game(self) -> None:
        """An empty score sheet; the machine players before you play the first round."""
        self.you = self.seats.you
        self.state = trois.initial_state(self.rules_now)
        self.since = 0
        self.clear_turn()
        self.machines_play([s for s in range(self.rules_now.players) if s != self.you])
        self.next_turn()

    def machines_play(self, seats: list[int]) -> None:
        """The machines in `seats` play (`nessus.play.play`) until a seat without one must decide, or the end."""
        machines = trois.machine_policies(self.seats.machine.value, self.rules_now, seats)
        self.state = cast(trois.State, play(self.state, machines, self.rng))

    def next_turn(self) -> None:
        """Your turn starts; or, the game over (a moon) or your round played, wait for New game / Next round."""
        if self.state.is_terminal() or self.turn_done():
            self.new_button.description = "New game" if self.state.is_terminal() else "Next round"
            self.draw_turn()
        else:
            self.new_turn()

    def after_your_turn(self) -> None:
        """The players after you play this round; out of contention, you watch the machines play
        the game out; else the round (or the game) is over: wait for Next round / New game."""
        others = [s for s in range(self.rules_now.players) if s != self.you]
        self.machines_play([s for s in others if s > self.you])
        if not self.state.is_terminal() and self.you not in self.state.seats:
            self.machines_play(others)
        self.next_turn()

    def start_round(self) -> None:
        """Next round: a new page of the sheet; the machine players before you play it."""
        self.since = len(self.state.history)
        self.clear_turn()
        self.machines_play(list(range(self.you)))
        self.next_turn()

    # -- your moves -------------------------------------------------------------------------------
    def clear_turn(self) -> None:
        """No dice on the table yet."""
        self.mine: int | None = None
        self.goal_now: trois.TurnObjective = trois.LeastScore(self.rules_now.dice)
        self.rolls = 0
        self.steps: list[str] = []
        self.tray.show((), empty=f"Press Roll to throw the {self.rules_now.dice} dice.")

    def new_turn(self) -> None:
        """Your turn starts (alone: a new turn, the first of a game no one else plays)."""
        if not self.seats.game:
            self.state = trois.initial_state(self.rules_now)
        self.clear_turn()
        self.mine = len(self.state.history)
        self.goal_now = self.state.objective()
        self.new_button.description = "New game" if self.seats.game else "New turn"
        self.draw_chart()
        self.draw_turn()

    def your_turn(self) -> Shown:
        """Your turn as the page shows it."""
        return shown(self.state, self.mine)

    def turn_done(self) -> bool:
        """Is your turn of this round over?"""
        return self.mine is not None and len(self.state.history) > self.mine

    def clicked(self) -> None:
        """A die marked or unmarked: the hint weighs the new choice."""
        self.messages.clear()
        self.draw_choice()

    def chosen(self) -> tuple[int, ...]:
        """The dice of the roll marked to set aside."""
        return tuple(sorted(f for f, h, k in zip(self.tray.faces, self.tray.held, self.tray.locked) if h and not k))

    def waiting(self) -> bool:
        """In a game, is it not your turn (the game over, your round played, or you out of contention)?"""
        return self.seats.game and (self.state.is_terminal() or self.turn_done() or self.you not in self.state.seats)

    def check_playing(self) -> None:
        """A ValueError (a message in the page) when you may not roll now."""
        if self.waiting():
            word = "game" if self.state.is_terminal() else "turn"
            raise ValueError(f"your {word} is over: press {self.new_button.description}")
        if self.your_turn().over:
            raise ValueError(f"the turn is over: press {self.new_button.description}")

    def roll(self) -> None:
        """Set aside the dice marked and roll the others (the first roll: every die)."""
        self.check_playing()
        if self.your_turn().roll is not None:
            aside = self.chosen()
            if not aside:
                raise ValueError("set aside at least one die first: click it (a 3 counts 0)")
            if self.set_aside(aside):
                return
        self.state = self.state.roll(self.rng)
        self.rolls += 1
        self.messages.clear()
        self.draw_turn()

    def set_aside_all(self) -> None:
        """Set aside every die of the roll: the turn is over."""
        self.check_playing()
        roll = self.your_turn().roll
        if roll is None:
            raise ValueError("roll the dice before setting them aside")
        self.set_aside(roll)

    def set_aside(self, aside: tuple[int, ...]) -> bool:
        """Set these dice of the roll aside, and say so in the list of rolls; True when that ends
        your turn (in a game, the players after you then play)."""
        p = self.your_turn()
        assert p.roll is not None
        self.state = self.state.set_aside(aside)
        self.steps.append(views.step_html(self.rolls, p.roll, aside, p.kept))
        if not self.your_turn().over:
            return False
        self.messages.clear()
        if self.seats.game:
            self.after_your_turn()
        else:
            self.draw_turn()
        return True

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        """The dice, buttons, status, rolls so far, score sheet, hint and moon chart."""
        p, game = self.your_turn(), self.state if self.seats.game else None
        shown_round = views.sheet_round(self.state, self.mine, self.you) if game else 0
        kept, roll = list(p.kept), list(p.roll or ())
        if kept or roll:
            self.tray.show(kept + roll, locked=[True] * len(kept) + [False] * len(roll), active=bool(roll))
        done = p.over or self.waiting()
        self.roll_button.disabled = done
        self.stop_button.disabled = done or p.roll is None
        self.status.value = views.status_html(p, done, self.objective(), game, shown_round, self.waiting())
        self.log.value = views.steps_html(self.steps)
        self.sheet.value = views.sheet_html(self.state, shown_round, self.since, self.seats) if game else ""
        self.draw_choice()
        self.moon.show(views.moon_chart(p, self.state))
        self.counter.value = views.counter_html(self.rolls, len(p.kept), p.dice, done)  # last: the page is up to date

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked."""
        p = self.your_turn()
        if p.roll is None or self.waiting():
            done = p.over or self.waiting()
            self.roll_button.description, self.stop_button.description = views.button_labels(p, None, done)
            self.hint.show(None, views.NO_CHOICE if done else views.ROLL_FIRST)
            return
        aside = self.chosen()
        self.roll_button.description, self.stop_button.description = views.button_labels(p, aside, False)
        goal = self.objective()
        state = self.state
        self.hint.show(lambda: views.hint_html(state, p, goal, aside or None))

    def draw_chart(self) -> None:
        """The score of a turn played for the goal vs every 3 (or the lowest die), and their figures."""
        goal = self.objective()
        if self.charted == goal:
            return
        chart, figures = views.score_views(goal)
        self.chart.show(chart)
        self.charted = goal
        self.figures.value = figures


def app(seed: int | None = None) -> widgets.Widget:
    """The Les Trois dashboard as one widget."""
    return TroisDashboard(seed).view
