"""Le Palais dashboard: play a turn of poker dice with the exact value of every hold beside
you, alone (for a goal you choose) or in a game against machine players.

Left: the dice (click one to hold or release it), Roll / Stop, the hint panel and, in a
game, the players' hands. Right: the exact distribution of the final hand under the optimal
holds for the goal against "keep the most common face", and the single-roll odds of each hand.

The goals and the machine's policies are in `nessus.games.palais.policies`; the words and charts
are pure functions in `nessus.games.palais.views`.
"""

from __future__ import annotations

import html
from collections.abc import Hashable

import ipywidgets as widgets

from nessus import game as protocol
from nessus.games import palais
from nessus.games.palais import GAME, AtLeast, Beat, Goal, machine_policies
from nessus.games.palais.views import (
    BEAT,
    DEFAULT_TARGET,
    GOALS,
    MACHINES,
    TIE_BREAKS,
    figures_html,
    final_chart,
    hint_html,
    parse_hand,
    players_html,
    roll_label,
    single_chart,
    status_html,
    your_turn,
)
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import DiceTray, TableDashboard, counter_html
from nessus.play import play


class PalaisDashboard(TableDashboard):
    """The widgets of the Le Palais page and the turn (or game) they play."""

    game = GAME
    sentence = (
        "Poker dice: roll five dice up to three times, holding any of them between rolls; the best hand wins "
        "(Palais, Tour, Manoir, Grande suite, Trident, Suite, Deux paires, Paire, Faillite). Beside (below on"
        " a phone): how the final hand falls out when you hold optimally for your goal, or keep the most "
        "common face, and the odds of each hand on a single roll."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "palais", palais.PLAYERS, MACHINES)
        narrow = {"description_width": "90px"}
        self.goal = widgets.Dropdown(
            options=GOALS, value="manoir", description="goal", style=narrow, layout=widgets.Layout(width="260px")
        )
        self.goal.add_class("palais-goal")
        self.target = widgets.Text(
            value=DEFAULT_TARGET,
            description="hand to beat",
            continuous_update=False,
            style=narrow,
            layout=widgets.Layout(width="220px", display="none"),
        )
        self.sticky = widgets.Checkbox(
            value=False, description="set-aside dice stay aside", indent=False, layout=widgets.Layout(width="240px")
        )
        self.tie_break = widgets.Dropdown(
            options=TIE_BREAKS,
            value="A",
            description="equal hands",
            style=narrow,
            tooltip=palais.TIE_BREAK.help,
            layout=widgets.Layout(width="300px"),
        )
        self.tie_break.add_class("palais-tie-break")
        self.tray = DiceTray(palais.DICE, "held", on_change=self.guard(lambda: self.draw_choice()))
        self.roll_button, self.stop_button, self.new_button = self.moves(
            ("Roll 5 dice", "Stop", "New turn"), (self.roll, self.stop, self.restart)
        )
        self.table = widgets.HTML()
        self.chart = self.chart_pane("330px", "final-hand")
        self.figures = TableHTML(name="le-palais-figures")
        self.single = self.chart_pane("220px", "single-roll")

        rules_guard = self.rules_guard
        self.goal.observe(rules_guard(lambda _: self.new_goal()), names="value")
        self.target.observe(rules_guard(lambda _: self.new_goal()), names="value")
        self.sticky.observe(rules_guard(lambda _: self.restart()), names="value")
        self.tie_break.observe(rules_guard(lambda _: self.restart()), names="value")

        self.page(
            [
                self.seats.mode,
                widgets.HBox([self.goal, self.target]),
                self.seats.box,
                widgets.HBox([self.sticky, self.tie_break]),
                self.messages.widget,
                widgets.HTML(
                    "<small style='color:#555'>Click a die to hold it (or release it); Roll rerolls the others.</small>"
                ),
                self.tray.widget,
                widgets.HBox([self.roll_button, self.stop_button, self.new_button]),
                self.counter,
                self.status,
                self.hint.toggle,
                self.hint.widget,
                self.table,
            ],
            [self.chart.widget, self.figures, self.single.widget],
            left_width="590px",
        )
        self.seats.new_players()
        self.draw_single()

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> palais.Rules:
        """The rules in the controls (players only counts in a game)."""
        players = int(self.seats.players.value()) if self.seats.game else int(palais.PLAYERS.default)
        return palais.Rules(sticky_holds=self.sticky.value, tie_break=self.tie_break.value, players=players)

    def chosen_goal(self) -> Goal:
        """The goal in the controls (playing alone)."""
        if self.goal.value == BEAT:
            return Beat(parse_hand(self.target.value), self.tie_break.value)
        return AtLeast(self.goal.value)

    def objective(self) -> Goal:
        """What the hint and the chart are for: your goal alone, your seat's goal in a game."""
        return self.your_goal if self.seats.game else self.chosen_goal()

    def new_mode(self) -> None:
        """Alone or in a game: your goal's controls alone, a new turn or game."""
        game = self.seats.game
        self.goal.layout.display = "none" if game else None
        self.target.layout.display = "none" if game or self.goal.value != BEAT else None
        self.new_button.description = "New game" if game else "New turn"
        self.restart()

    def new_goal(self) -> None:
        """Another goal (alone): the hand to beat when it is one, the chart and the hint."""
        self.target.layout.display = None if self.goal.value == BEAT and not self.seats.game else "none"
        if not self.seats.game:
            self.objective()
            self.messages.clear()
        self.draw_chart()
        self.draw_choice()

    def restart(self) -> None:
        """A new turn (alone: the first seat's turn of a game no one else plays) or a new game:
        the machine players before you play at once."""
        self.rules_now = self.rules()
        self.messages.clear()
        self.you = self.seats.you if self.seats.game else 0
        self.result, self.winner = "", -1
        self.state = palais.initial_state(self.rules_now)
        if self.seats.game:
            self.state = self.machines_play()
            self.your_goal = self.state.objective()
        self.tray.show((), empty="Press Roll to throw the five dice.")
        self.draw_turn()
        self.draw_chart()

    # -- the game ---------------------------------------------------------------------------------
    def machines(self) -> dict[int, protocol.Policy]:
        """The machine players' policies, by seat (none alone)."""
        return machine_policies(self.seats.machine.value, self.rules_now, self.you) if self.seats.game else {}

    def machines_play(self) -> palais.State:
        """The machine players play on (`nessus.play.play`) until it is your turn or the game is over."""
        state = play(self.state, self.machines(), self.rng)
        assert isinstance(state, palais.State)
        return state

    def finish_game(self) -> None:
        """You have played: the players after you play, and the best hand wins."""
        self.state = self.machines_play()
        top = self.state.winners()
        winner = top[0] if len(top) == 1 else int(self.rng.choice(top))
        name = self.seats.name(winner)
        hand = self.state.hands[winner]
        verb = "win" if winner == self.you else "wins"
        rolloff = (
            f"{' and '.join(self.seats.name(i) for i in top)} tie; a roll-off picks one at random: "
            if len(top) > 1
            else ""
        )
        self.result = f"{rolloff}{name} {verb} with {palais.NAMES[palais.category(hand)]} ({palais.hand_text(hand)})."
        self.winner = winner

    @property
    def over(self) -> bool:
        """Your turn is over."""
        return self.state.turn_over(self.you)

    # -- your moves -------------------------------------------------------------------------------
    def roll(self) -> None:
        """Hold the dice marked held and roll the others (the first roll: all five)."""
        if self.over:
            raise ValueError("the turn is over: press " + self.new_button.description)
        first = not self.state.history
        if not first:
            hold = self.tray.held_faces
            if len(hold) == palais.DICE:
                raise ValueError("every die is held: release the dice you want to reroll, or press Stop")
            self.state = self.state.hold(hold)
        n = palais.DICE - len(self.state.kept)
        new = [int(x) for x in self.rng.integers(1, palais.SIDES + 1, size=n)]
        self.state = self.state.roll(dice=new)
        if first:
            self.tray.faces, self.tray.held = new, [False] * n
        else:
            self.tray.reroll(new)
        self.messages.clear()
        self.after_move()

    def stop(self) -> None:
        """Keep the hand as it is."""
        if self.over:
            raise ValueError("the turn is over: press " + self.new_button.description)
        if not self.state.rolled:
            raise ValueError("roll the dice before you stop")
        self.state = self.state.stop()
        self.messages.clear()
        self.after_move()

    def after_move(self) -> None:
        """Your move is made: the game ends when your turn does, and the page follows."""
        if self.over and self.seats.game:
            self.finish_game()
        self.draw_turn()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        """The dice, the buttons, the status line, the players' hands and the hint."""
        over, hand, rolls_made = your_turn(self.state, self.you)
        if hand:
            sticky = self.rules_now.sticky_holds
            held = [h and not over for h in self.tray.held]
            locked = [h and sticky for h in held]
            self.tray.show(self.tray.faces, held, locked, active=not over)
        self.stop_button.disabled = over or not hand
        self.roll_button.disabled = over
        self.status.value = status_html(self.state, self.you)
        self.draw_table()
        self.draw_choice()
        self.counter.value = counter_html(rolls_made, palais.ROLLS, over)  # last: the page is then up to date

    def chosen(self) -> Hashable:
        """What the dice marked held say you will do."""
        if not self.state.rolled:
            return "roll"
        hold = self.tray.held_faces
        return "stop" if len(hold) == palais.DICE else hold

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked held."""
        state = self.state
        self.roll_button.description = roll_label(state, self.you, len(self.tray.held_faces))
        if self.over:
            return self.hint.show(None, "The turn is over: no move is left to weigh.")
        try:
            goal = self.objective()
        except ValueError as e:
            return self.hint.show(None, html.escape(str(e)))
        self.hint.show(lambda: hint_html(state, goal, self.chosen()))

    def draw_table(self) -> None:
        """The players' final hands in a game."""
        self.table.value = (
            players_html(self.state, self.you, self.winner, self.result, self.seats.who_html, self.seats.row_style)
            if self.seats.game
            else ""
        )

    def draw_chart(self) -> None:
        """The final hand under the optimal holds for the goal vs keeping the most common face."""
        goal, sticky = self.objective(), self.rules_now.sticky_holds
        self.chart.show(final_chart(goal, sticky))
        self.figures.value = figures_html(goal, sticky)

    def draw_single(self) -> None:
        """The chance of each hand on a single roll of five dice."""
        self.single.show(single_chart())


def app(seed: int | None = None) -> widgets.Widget:
    """The Le Palais dashboard as one widget."""
    return PalaisDashboard(seed).view
