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
from nessus.apps.common import TableHTML
from nessus.apps.dicegame import DiceTray, TableDashboard
from nessus.apps.trois_play import MACHINES, MAX_ROUNDS, Goal, Match, play_machine
from nessus.games import trois
from nessus.games.trois import Play

GOALS = [("the least expected score", "mean"), ("P(score 0): five 3s", "zero"), ("P(score ≤ a target)", "target"),
         ("shoot the moon: five 6s", "moon")]
TRAY_CSS = ("<style>.trois-tray .nessus-die.locked{transform:none;filter:saturate(.35) brightness(.97)}"
            ".trois-sheet td,.trois-sheet th{padding:3px 5px}</style>")


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
    sentence = ("Five dice, lowest total wins: after each roll set aside at least one die (set-aside dice are final) "
                "and roll the others, until every die is set aside. A 3 counts 0, so five 3s score 0; five 6s “shoot "
                "the moon” and win at once. Beside (below on a phone): the exact score of a turn when you play for "
                "your goal, or set aside every 3 (else the lowest die), and your chance of the moon.")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "trois", trois.PLAYERS, MACHINES)
        self.goal = widgets.Dropdown(options=GOALS, value="mean", description="play for", style={"description_width": "65px"},
                                     layout=widgets.Layout(width="300px"))
        self.goal.add_class("trois-goal")
        self.target = widgets.IntSlider(value=trois.TARGET.default, min=0, max=6 * trois.DICE.default, description="target",
                                        continuous_update=False, style={"description_width": "45px"},
                                        layout=widgets.Layout(width="270px", display="none"))
        self.target.add_class("trois-target")
        self.goal_box = widgets.HBox([self.goal, self.target])
        self.dice = self.param_field(trois.DICE, width="150px")
        self.dice.widget.style.description_width = "45px"
        self.dice.widget.add_class("trois-dice")
        self.rounds = self.param_field(trois.ROUNDS, width="150px")
        self.rounds.widget.style.description_width = "55px"
        self.seats.box.children = (*self.seats.box.children, self.rounds.widget)

        self.tray = AsideTray(trois.DICE.hi, "aside", on_change=self.guard(lambda: self.clicked()))
        self.tray.widget.add_class("trois-tray")
        self.roll_button, self.stop_button, self.new_button = self.moves(("Roll 5 dice", "Set aside all", "New turn"),
                                                                         (self.roll, self.set_aside_all, self.next))
        self.log = widgets.HTML()
        self.sheet = TableHTML(name="les-trois-scores")
        self.chart = self.chart_pane("330px", "turn-score")
        self.figures = TableHTML(name="les-trois-figures")
        self.moon = self.chart_pane("210px", "moon")
        self.charted: tuple[int, Goal] | None = None

        for control, change in ((self.goal, self.new_goal), (self.target, self.new_goal), (self.dice.widget, self.restart),
                                (self.rounds.widget, self.restart)):
            control.observe(self.rules_guard(lambda _, change=change: change()), names="value")

        self.page([
            widgets.HTML(TRAY_CSS), widgets.HBox([self.seats.mode, self.dice.widget]), self.goal_box, self.seats.box,
            self.messages.widget,
            widgets.HTML("<small style='color:#555'>Click the dice to set aside (at least one), then Roll the others. "
                         "A 3 counts 0.</small>"),
            self.tray.widget, widgets.HBox([self.roll_button, self.stop_button, self.new_button]),
            self.counter, self.status, self.log, self.hint.toggle, self.hint.widget, self.sheet,
        ], [self.chart.widget, self.figures, self.moon.widget], left_width="590px")
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
            return self.match.goal_for(self.you)
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
        if self.seats.game and not self.match.result and self.match.played_out():
            self.start_round()
        else:
            self.restart()

    # -- the game ---------------------------------------------------------------------------------
    def new_game(self) -> None:
        """An empty score sheet; the machine players before you play the first round."""
        self.you = self.seats.you
        self.match = Match(self.rules_now, [self.seats.name(s) for s in range(self.rules_now.players)])
        self.clear_turn()
        self.advance()

    def advance(self) -> None:
        """The machine players take their turns in seat order until it is yours, or the round
        is over, or the game; out of contention, you watch the machines play the game out."""
        m, dice = self.match, self.rules_now.dice
        while not m.result and m.round < MAX_ROUNDS:
            seat = next((s for s in m.live if s not in m.played), None)
            if seat is None:
                m.end_round()
                if m.result or self.you in m.live:
                    break
                m.next_round(fresh=False)
            elif seat == self.you:
                self.new_turn()
                return
            else:
                m.record(seat, play_machine(self.seats.machine.value, m.goal_for(seat), dice, self.rng))
        self.draw_game_over_or_wait()

    def start_round(self) -> None:
        """Next round: the machine players before you play it."""
        self.match.next_round()
        self.clear_turn()
        self.advance()

    def draw_game_over_or_wait(self) -> None:
        """The round (or the game) is over: show it and wait for Next round / New game."""
        self.new_button.description = "New game" if self.match.result else "Next round"
        self.draw_turn()

    # -- your moves -------------------------------------------------------------------------------
    def clear_turn(self) -> None:
        """No dice on the table yet."""
        self.play = Play(self.rules_now.dice)
        self.rolls = 0
        self.steps: list[str] = []
        self.tray.show((), empty=f"Press Roll to throw the {self.rules_now.dice} dice.")

    def new_turn(self) -> None:
        """Your turn starts (alone: a new turn)."""
        self.clear_turn()
        self.new_button.description = "New game" if self.seats.game else "New turn"
        self.draw_chart()
        self.draw_turn()

    def chosen(self) -> tuple[int, ...]:
        """The dice of the roll marked to set aside."""
        return tuple(sorted(f for f, h, k in zip(self.tray.faces, self.tray.held, self.tray.locked) if h and not k))

    def waiting(self) -> bool:
        """In a game, is it not your turn (the game is over, or you have played this round, or are out of contention)?"""
        return self.seats.game and bool(self.match.result or self.you in self.match.played
                                        or self.you not in self.match.live)

    def check_playing(self) -> None:
        """A ValueError (a message in the page) when you may not roll now."""
        if self.waiting():
            word = "game" if self.match.result else "turn"
            raise ValueError(f"your {word} is over: press {self.new_button.description}")
        if self.play.over:
            raise ValueError(f"the turn is over: press {self.new_button.description}")

    def clicked(self) -> None:
        """A die marked or unmarked: the hint weighs the new choice."""
        self.messages.clear()
        self.draw_choice()

    def roll(self) -> None:
        """Set aside the dice marked and roll the others (the first roll: every die)."""
        self.check_playing()
        if self.play.roll is not None:
            aside = self.chosen()
            if not aside:
                raise ValueError("set aside at least one die first: click it (a 3 counts 0)")
            self.set_aside(aside)
            if self.play.over:
                self.end_turn()
                return
        self.play = self.play.throw(self.rng)
        self.rolls += 1
        self.messages.clear()
        self.draw_turn()

    def set_aside_all(self) -> None:
        """Set aside every die of the roll: the turn is over."""
        self.check_playing()
        if self.play.roll is None:
            raise ValueError("roll the dice before setting them aside")
        self.set_aside(self.play.roll)
        self.end_turn()

    def set_aside(self, aside: tuple[int, ...]) -> None:
        """Set these dice of the roll aside, and say so in the list of rolls."""
        roll, kept = self.play.roll, self.play.kept
        self.play = self.play.set_aside(aside)
        self.steps.append(views.step_html(self.rolls, roll, aside, kept))

    def end_turn(self) -> None:
        """Your turn is over; in a game, the players after you play."""
        self.messages.clear()
        if not self.seats.game:
            self.draw_turn()
            return
        self.match.record(self.you, self.play)
        if self.match.result:
            self.draw_game_over_or_wait()
        else:
            self.advance()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        """The dice, buttons, status, rolls so far, score sheet, hint and moon chart."""
        p, m = self.play, self.match if self.seats.game else None
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
        self.moon.show(views.moon_chart(p))
        self.counter.value = views.counter_html(self.rolls, len(p.kept), p.dice, done)  # last: the page is then up to date

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked."""
        p = self.play
        if p.roll is None or self.waiting():
            done = p.over or self.waiting()
            self.roll_button.description, self.stop_button.description = views.button_labels(p, None, done)
            self.hint.show(None, "The turn is over: no choice is left to weigh." if done
                           else "Roll first: the hint weighs the dice you may set aside.")
            return
        aside = self.chosen()
        self.roll_button.description, self.stop_button.description = views.button_labels(p, aside, False)
        goal = self.objective()
        self.hint.show(lambda: views.hint_html(self.play, goal, aside or None))

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
