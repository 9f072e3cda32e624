"""Les Trois dashboard: play a turn (set aside at least one die per roll, lowest total wins)
with the exact value of every set-aside beside you, alone (for a goal you choose) or in a game
against machine players.

Left: the dice (click the ones to set aside; dice set aside on earlier rolls are final), Roll /
Set aside all, the rolls so far, the hint panel and, in a game, the score sheet. Right: the
exact score distribution of a turn played for the goal against "every 3, or the lowest die",
and the chance of shooting the moon from each point of a turn.
"""

from __future__ import annotations

import ipywidgets as widgets

from nessus.apps import trois_views as views
from nessus.apps.trois_play import MACHINES, Goal, Sheet, Shown, machine_policies, sheet, shown
from nessus.games import trois
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import DiceTray, TableDashboard
from nessus.play import play

GOALS = [
    ("the least expected score", "mean"),
    ("P(score 0): five 3s", "zero"),
    ("P(score ≤ a target)", "target"),
    ("shoot the moon: five 6s", "moon"),
]
TRAY_CSS = (
    "<style>.trois-tray .nessus-die.locked{transform:none;filter:saturate(.35) brightness(.97)}"
    ".trois-sheet td,.trois-sheet th{padding:3px 5px}</style>"
)


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
        super().__init__(seed, "trois", trois.PLAYERS, MACHINES)
        self.goal = widgets.Dropdown(
            options=GOALS,
            value="mean",
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
        self.charted: tuple[int, Goal] | None = None

        for control, change in (
            (self.goal, self.new_goal),
            (self.target, self.new_goal),
            (self.dice.widget, self.restart),
            (self.rounds.widget, self.restart),
        ):
            control.observe(self.rules_guard(lambda _, change=change: change()), names="value")

        self.page(
            [
                widgets.HTML(TRAY_CSS),
                widgets.HBox([self.seats.mode, self.dice.widget]),
                self.goal_box,
                self.seats.box,
                self.messages.widget,
                widgets.HTML(
                    "<small style='color:#555'>Click the dice to set aside (at least one), then Roll the others. "
                    "A 3 counts 0.</small>"
                ),
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

    def objective(self) -> Goal:
        """What the hint and the chart are for: your goal alone; in a game the least expected
        score, or the win when you play last in a deciding round."""
        if self.seats.game:
            return self.goal_now
        if self.goal.value == "zero":
            return Goal("target", 0)
        return Goal(self.goal.value, self.target.value if self.goal.value == "target" else 0)

    def new_mode(self) -> None:
        """Alone or against the machine: the goal is yours to choose only alone."""
        self.goal_box.layout.display = "none" if self.seats.game else None
        self.restart()

    def new_goal(self) -> None:
        """Another goal (or target): the chart and the hint follow it."""
        self.target.layout.display = None if self.goal.value == "target" else "none"
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
        self.your_turn_or_game_over()

    def machines_play(self, seats: list[int]) -> None:
        """The machine players in `seats` play (`nessus.play.play`) until a seat without one must
        decide (you, or a seat left for later), or the game is over."""
        state = play(self.state, machine_policies(self.seats.machine.value, self.rules_now, seats), self.rng)
        assert isinstance(state, trois.State)
        self.state = state

    def your_turn_or_game_over(self) -> None:
        """Your turn starts, unless the game is over (a machine shot the moon)."""
        if self.state.is_terminal():
            self.draw_game_over_or_wait()
        else:
            self.new_turn()

    def after_your_turn(self) -> None:
        """The players after you play this round; out of contention, you watch the machines play
        the game out; else the round (or the game) is over: wait for Next round / New game."""
        others = [s for s in range(self.rules_now.players) if s != self.you]
        self.machines_play([s for s in others if s > self.you])
        if not self.state.is_terminal() and self.you not in self.state.seats:
            self.machines_play(others)
        self.draw_game_over_or_wait()

    def start_round(self) -> None:
        """Next round: a new page of the sheet; the machine players before you play it."""
        self.since = len(self.state.history)
        self.clear_turn()
        self.machines_play(list(range(self.you)))
        self.your_turn_or_game_over()

    def draw_game_over_or_wait(self) -> None:
        """The round (or the game) is over: show it and wait for Next round / New game."""
        self.new_button.description = "New game" if self.state.is_terminal() else "Next round"
        self.draw_turn()

    # -- your moves -------------------------------------------------------------------------------
    def clear_turn(self) -> None:
        """No dice on the table yet."""
        self.mine: int | None = None
        self.goal_now = Goal()
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

    def score_sheet(self) -> Sheet:
        """The score sheet on show: the round of your turn while you wait for the next one."""
        state, shown_round = self.state, self.state.round
        if self.mine is not None and self.turn_done() and not state.is_terminal() and self.you in state.seats:
            shown_round = state.history[self.mine].round
        names = [self.seats.name(s) for s in range(self.rules_now.players)]
        return sheet(state, shown_round, names, self.since)

    def chosen(self) -> tuple[int, ...]:
        """The dice of the roll marked to set aside."""
        return tuple(sorted(f for f, h, k in zip(self.tray.faces, self.tray.held, self.tray.locked) if h and not k))

    def waiting(self) -> bool:
        """In a game, is it not your turn (the game is over, or you have played this round, or are out of
        contention)?"""
        return self.seats.game and (self.state.is_terminal() or self.turn_done() or self.you not in self.state.seats)

    def check_playing(self) -> None:
        """A ValueError (a message in the page) when you may not roll now."""
        if self.waiting():
            word = "game" if self.state.is_terminal() else "turn"
            raise ValueError(f"your {word} is over: press {self.new_button.description}")
        if self.your_turn().over:
            raise ValueError(f"the turn is over: press {self.new_button.description}")

    def clicked(self) -> None:
        """A die marked or unmarked: the hint weighs the new choice."""
        self.messages.clear()
        self.draw_choice()

    def roll(self) -> None:
        """Set aside the dice marked and roll the others (the first roll: every die)."""
        self.check_playing()
        if self.your_turn().roll is not None:
            aside = self.chosen()
            if not aside:
                raise ValueError("set aside at least one die first: click it (a 3 counts 0)")
            self.set_aside(aside)
            if self.your_turn().over:
                self.end_turn()
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
        self.end_turn()

    def set_aside(self, aside: tuple[int, ...]) -> None:
        """Set these dice of the roll aside, and say so in the list of rolls."""
        p = self.your_turn()
        assert p.roll is not None
        self.state = self.state.set_aside(aside)
        self.steps.append(views.step_html(self.rolls, p.roll, aside, p.kept))

    def end_turn(self) -> None:
        """Your turn is over; in a game, the players after you play."""
        self.messages.clear()
        if not self.seats.game:
            self.draw_turn()
        elif self.state.is_terminal():
            self.draw_game_over_or_wait()
        else:
            self.after_your_turn()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        """The dice, buttons, status, rolls so far, score sheet, hint and moon chart."""
        p, m = self.your_turn(), self.score_sheet() if self.seats.game else None
        kept, roll = list(p.kept), list(p.roll or ())
        if kept or roll:
            self.tray.show(kept + roll, locked=[True] * len(kept) + [False] * len(roll), active=bool(roll))
        done = p.over or self.waiting()
        self.roll_button.disabled = done
        self.stop_button.disabled = done or p.roll is None
        self.status.value = views.status_html(p, done, m, self.objective(), self.waiting())
        steps = "".join(f"<div>{step}</div>" for step in self.steps)
        self.log.value = f"<div class='trois-log' style='font-size:13px;line-height:1.8;min-height:20px'>{steps}</div>"
        self.sheet.value = views.sheet_html(m, self.you, self.seats.who_html, self.seats.row_style) if m else ""
        self.draw_choice()
        self.moon.show(views.moon_chart(p, self.state))
        self.counter.value = views.counter_html(
            self.rolls, len(p.kept), p.dice, done
        )  # last: the page is then up to date

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked."""
        p = self.your_turn()
        if p.roll is None or self.waiting():
            done = p.over or self.waiting()
            self.roll_button.description, self.stop_button.description = views.button_labels(p, None, done)
            self.hint.show(
                None,
                "The turn is over: no choice is left to weigh."
                if done
                else "Roll first: the hint weighs the dice you may set aside.",
            )
            return
        aside = self.chosen()
        self.roll_button.description, self.stop_button.description = views.button_labels(p, aside, False)
        goal = self.objective()
        state = self.state
        self.hint.show(lambda: views.hint_html(state, p, goal, aside or None))

    def draw_chart(self) -> None:
        """The score of a turn played for the goal vs every 3 (or the lowest die), and their figures."""
        dice, goal = self.rules_now.dice, self.objective()
        if self.charted == (dice, goal):
            return
        chart, figures = views.score_views(dice, goal)
        self.chart.show(chart)
        self.charted = (dice, goal)
        self.figures.value = figures


def app(seed: int | None = None) -> widgets.Widget:
    """The Les Trois dashboard as one widget."""
    return TroisDashboard(seed).view
