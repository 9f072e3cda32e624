"""Le Palais' page: a turn of poker dice with the exact value of every hold beside you, alone (for
a goal you choose) or in a game against machine players; beside it, the final hand's exact law for
the goal and each hand's odds on a single roll (drawn in `views`)."""

from __future__ import annotations

import html
from functools import partial

import ipywidgets as widgets

from nessus.games import palais
from nessus.games.palais import GAME, AtLeast, Beat, Goal, machine_policies, parse_hand, views
from nessus.kit.dicegame import DiceTray, counter_html
from nessus.kit.goals import GoalDashboard, goal_hint, roll_label


class PalaisDashboard(GoalDashboard):
    """The widgets of the Le Palais page and the turn (or game) they play."""

    game = GAME
    sentence = (
        "Poker dice: roll five dice up to three times, holding any of them between rolls; the best hand wins "
        "(Palais, Tour, Manoir, Grande suite, Trident, Suite, Deux paires, Paire, Faillite). Beside (below on"
        " a phone): how the final hand falls out when you hold optimally for your goal, or keep the most "
        "common face, and the odds of each hand on a single roll."
    )
    machines = palais.MACHINES
    move_words = ("Roll 5 dice", "Stop", "New turn")
    chart_size = "330px final-hand"
    machine_policies = staticmethod(machine_policies)
    state: palais.State

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        narrow = {"description_width": "90px"}
        self.goal = widgets.Dropdown(options=views.GOALS, value="manoir", description="goal", style=narrow)
        self.target = widgets.Text("3 3 3 2 2", description="hand to beat", continuous_update=False, style=narrow)
        self.goal_box = widgets.HBox([self.goal, self.target])
        self.sticky = widgets.Checkbox(False, description="set-aside dice stay aside", indent=False)
        self.tie_break = widgets.Dropdown(options=views.TIE_BREAKS, description="equal hands", style=narrow)
        self.tie_break.tooltip = palais.TIE_BREAK.help
        for w, width in zip(
            (self.goal, self.target, self.sticky, self.tie_break), ("260px", "220px", "240px", "300px")
        ):
            w.layout.width = width
        self.target.layout.display = "none"
        self.goal.add_class("palais-goal")
        self.tie_break.add_class("palais-tie-break")
        self.watch(self.new_goal, self.goal, self.target)
        self.watch(self.restart, self.sticky, self.tie_break)
        self.tray = DiceTray(palais.DICE, "held", on_change=self.guard(lambda: self.draw_choice()))
        self.sheet = widgets.HTML()
        self.single = self.chart_pane("220px", "single-roll")
        caption = "<small style='color:#555'>Click a die to hold it (or release it); Roll rerolls the others.</small>"
        turn = [widgets.HTML(caption), self.tray.widget]
        self.lay_out(widgets.HBox([self.sticky, self.tie_break]), turn, [self.single.widget], log=False)
        self.seats.new_players()
        self.single.show(views.single_chart())  # the chance of each hand on a single roll of five dice

    def rules(self) -> palais.Rules:
        """The rules in the controls (players only counts in a game)."""
        players = int(self.seats.players.value()) if self.seats.game else int(palais.PLAYERS.default)
        return palais.Rules(sticky_holds=self.sticky.value, tie_break=self.tie_break.value, players=players)

    def objective(self) -> Goal:
        """What the hint and the chart are for: your goal alone (a ValueError for a badly typed
        hand), your seat's goal in a game."""
        if self.seats.game:
            return self.your_goal
        if self.goal.value == views.BEAT:
            return Beat(parse_hand(self.target.value), self.tie_break.value)
        return AtLeast(self.goal.value)

    def new_goal(self, box: object = None) -> None:
        """Another goal (alone): the hand to beat when it is one, the chart and the hint."""
        self.target.layout.display = None if self.goal.value == views.BEAT else "none"
        self.objective()
        self.messages.clear()
        super().new_goal()

    def start(self) -> None:
        """A new turn or game: the machine players before you play at once."""
        self.winner = -1  # until the game's end
        self.machines_play(range(self.you))
        self.your_goal = self.state.objective()
        self.tray.show((), empty="Press Roll to throw the five dice.")
        self.draw()
        self.draw_chart()

    def finish(self) -> None:
        """You have played: the players after you play, and the best hand wins (a roll-off among equal ones)."""
        super().finish()
        self.winner = self.state.roll_off(self.rng)

    @property
    def over(self) -> bool:
        """Your turn is over."""
        return self.state.turn_over(self.you)

    def roll(self) -> None:
        """Hold the dice marked held and roll the others (the first roll: all five)."""
        self.check_open()
        first = not self.state.history
        if not first:
            if len(self.tray.held_faces) == palais.DICE:
                raise ValueError("every die is held: release the dice you want to reroll, or press Stop")
            self.state = self.state.hold(self.tray.held_faces)
        new = [int(x) for x in self.rng.integers(1, palais.SIDES + 1, size=palais.DICE - len(self.state.kept))]
        self.state = self.state.roll(dice=new)
        if first:
            self.tray.faces, self.tray.held = new, [False] * len(new)
        else:
            self.tray.reroll(new)
        self.after_move()

    def stop(self) -> None:
        """Keep the hand as it is."""
        self.check_open()
        if not self.state.rolled:
            raise ValueError("roll the dice before you stop")
        self.state = self.state.stop()
        self.after_move()

    def draw(self) -> None:
        """The dice, the buttons, the status line, the players' hands and the hint."""
        over, hand, rolls_made = self.state.seat_turn(self.you)
        if hand:
            held = [h and not over for h in self.tray.held]
            self.tray.show(self.tray.faces, held, [h and self.rules_now.sticky_holds for h in held], active=not over)
        self.stop_button.disabled = over or not hand
        self.roll_button.disabled = over
        self.status.value = views.status(self.state, self.you)
        self.sheet.value = views.players_html(self.state, self.seats, self.winner)
        self.draw_choice()
        self.counter.value = counter_html(rolls_made, palais.ROLLS, over)  # last: the page is then up to date

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked held."""
        state = self.state
        over, hand, _ = state.seat_turn(self.you)
        held = len(self.tray.held_faces)
        self.roll_button.description = (
            "Roll" if over else roll_label(palais.DICE - held, "hold") if hand else "Roll 5 dice"
        )
        if over:
            return self.hint.show(None, "The turn is over: no move is left to weigh.")
        try:
            goal = self.objective()
        except ValueError as e:
            return self.hint.show(None, html.escape(str(e)))
        chosen = state.chosen(self.tray.held_faces)
        self.hint.show(lambda: goal_hint(goal, state.hint(goal), partial(views.action_label, state), chosen))

    def draw_chart(self) -> None:
        """The final hand under the optimal holds for the goal vs keeping the most common face."""
        chart, self.figures.value = views.chart_view(self.objective(), self.rules_now.sticky_holds)
        self.chart.show(chart)


app = PalaisDashboard.app
"""The Le Palais dashboard as one widget: `app(seed=None)`."""
