"""Le Naute dashboard: play an expedition (ship, captain and crew, then the cargo) with the
exact value of every cargo choice beside you, alone or in a game against machine players.

Left: the ship, captain and crew set aside, the cargo dice (click one to keep or release it),
Roll / Stop, the rolls so far, the hint panel and, in a game, the score sheet. Right: the exact
distribution of an expedition's cargo under the optimal play for the goal and under "keep
cargo dice of 4 or more", and the chance of having ship, captain and crew aboard by each roll.
The goals and the machine's policies are in `nessus.games.naute.policies`; the words and charts
are pure functions in `nessus.games.naute.views`.
"""

from __future__ import annotations

from collections.abc import Hashable

import ipywidgets as widgets

from nessus.games import naute
from nessus.games.naute import GAME, Above, CargoMean, Goal, machine_policies
from nessus.games.naute.views import (
    CARGO_RULES,
    MACHINES,
    cargo_view,
    chosen_move,
    crew_html,
    dice_left,
    hint_html,
    hunt_text,
    keep_problem,
    log_html,
    qualify_chart,
    result_text,
    roll_label,
    sheet_html,
    status_html,
    tray_caption,
)
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import DiceTray, TableDashboard, counter_html, mini_dice
from nessus.play import play

MOST, BEAT = "most cargo", "beat a target"


class NauteDashboard(TableDashboard):
    """The widgets of the Le Naute page and the expedition (or game) they play."""

    game = GAME
    sentence = (
        "Five dice, three rolls: set aside a 6 (the ship), then a 5 (the captain), then a 4 (the crew); the "
        "two other dice are the cargo, and the rolls left may reroll it. No crew, no cargo: 0. Beside (below "
        "on a phone): the exact cargo distribution when you play the cargo optimally for your goal, or keep "
        "dice of 4 or more."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "naute", naute.PLAYERS, MACHINES)
        self.goal = widgets.ToggleButtons(options=[MOST, BEAT], value=MOST, style={"button_width": "110px"})
        self.goal.add_class("naute-goal")
        self.target = widgets.IntSlider(
            value=7,
            min=0,
            max=naute.TOP - 1,
            description="target",
            disabled=True,
            continuous_update=False,
            style={"description_width": "50px"},
            layout=widgets.Layout(width="250px"),
        )
        self.target.add_class("naute-target")
        self.goal_box = widgets.HBox(
            [widgets.HTML("<b>play for</b>&nbsp;", layout=widgets.Layout(width="62px")), self.goal, self.target]
        )
        self.cargo_rule = widgets.Dropdown(
            options=CARGO_RULES,
            value="sticky",
            description="cargo rule",
            style={"description_width": "90px"},
            layout=widgets.Layout(width="330px"),
        )
        self.cargo_rule.add_class("naute-cargo-rule")
        self.expeditions = self.param_field(naute.EXPEDITIONS, width="170px")
        self.expeditions.widget.style.description_width = "80px"
        self.seats.box.children = (*self.seats.box.children, self.expeditions.widget)

        self.crew = widgets.HTML()
        self.tray_caption = widgets.HTML()
        self.tray = DiceTray(naute.DICE, "kept", on_change=self.guard(lambda: self.draw_choice()))
        self.roll_button, self.stop_button, self.new_button = self.moves(
            ("Roll 5 dice", "Stop", "New expedition"), (self.roll, self.stop, self.next)
        )
        self.log = widgets.HTML()
        self.sheet = TableHTML(name="le-naute-scores")
        self.chart = self.chart_pane("320px", "cargo")
        self.figures = TableHTML(name="le-naute-figures")
        self.qualify = self.chart_pane("190px", "ship-captain-crew")

        self.goal.observe(self.rules_guard(lambda _: self.new_goal()), names="value")
        self.target.observe(self.rules_guard(lambda _: self.new_goal()), names="value")
        self.cargo_rule.observe(self.rules_guard(lambda _: self.restart()), names="value")
        self.expeditions.widget.observe(self.rules_guard(lambda _: self.restart()), names="value")

        self.page(
            [
                self.seats.mode,
                self.goal_box,
                self.seats.box,
                self.cargo_rule,
                self.messages.widget,
                widgets.HBox([self.crew, widgets.VBox([self.tray_caption, self.tray.widget])]),
                widgets.HBox([self.roll_button, self.stop_button, self.new_button]),
                self.counter,
                self.status,
                self.log,
                self.hint.toggle,
                self.hint.widget,
                self.sheet,
            ],
            [self.chart.widget, self.figures, self.qualify.widget],
            left_width="590px",
        )
        self.seats.new_players()
        self.qualify.show(qualify_chart())  # P(ship, captain and crew aboard by roll k): the same for any play

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> naute.Rules:
        """The rules in the controls (players and expeditions only count in a game)."""
        if not self.seats.game:
            return naute.Rules(cargo_holds=self.cargo_rule.value)
        players, expeditions = self.seats.players.value(), self.expeditions.value()
        return naute.Rules(cargo_holds=self.cargo_rule.value, players=players, expeditions=expeditions)

    def objective(self) -> Goal:
        """What the hint and the chart are for: your goal alone, the expedition's goal in a game."""
        if self.seats.game:
            return self.goal_now
        return CargoMean() if self.goal.value == MOST else Above(self.target.value)

    def new_mode(self) -> None:
        """Alone or against the machine: the goal controls only alone, and a new expedition or game."""
        self.goal_box.layout.display = "none" if self.seats.game else None
        self.restart()

    def new_goal(self) -> None:
        """Another goal (alone): the chart and the hint follow it; the expedition goes on."""
        self.target.disabled = self.goal.value != BEAT
        self.draw_chart()
        self.draw_choice()

    # -- the game ---------------------------------------------------------------------------------
    def restart(self) -> None:
        """A new expedition (alone: the first of a game no one else plays) or a new game: the
        machine players before you play at once."""
        self.rules_now = self.rules()
        self.messages.clear()
        self.state = naute.initial_state(self.rules_now)
        self.result = ""
        self.you = self.seats.you if self.seats.game else 0
        if self.seats.game:
            self.start_round()
        else:
            self.new_expedition()

    @property
    def over(self) -> bool:
        """Your expedition is over."""
        return len(self.state.cargos) > self.mine

    def machines_play(self, seats: range) -> None:
        """The machine players in `seats` play (`nessus.play.play`) until a seat without one must decide, or the end."""
        state = play(self.state, machine_policies(self.seats.machine.value, self.rules_now, seats), self.rng)
        assert isinstance(state, naute.State)
        self.state = state

    def start_round(self) -> None:
        """The machine players before you play this round's expedition; then it is yours."""
        self.machines_play(range(self.you))
        self.new_expedition()

    def finish_expedition(self) -> None:
        """Your expedition is over: the players after you play theirs."""
        self.machines_play(range(self.you + 1, self.rules_now.players))
        if self.state.is_terminal():
            self.result = result_text(self.state.totals(), self.you)
            self.new_button.description = "New game"
        else:
            self.new_button.description = "Next expedition"

    def next(self) -> None:
        """The New / Next button."""
        if self.seats.game and not self.result and self.over:
            self.start_round()
        else:
            self.restart()

    # -- your moves -------------------------------------------------------------------------------
    def new_expedition(self) -> None:
        """Your expedition starts (in a game, on a last one, to beat the best other total)."""
        self.mine = len(self.state.cargos)  # your expedition's place in the game
        self.exp = self.state  # your expedition as the page shows it (after its end too)
        self.target_now = self.state.target if self.seats.game else None
        self.goal_now = self.state.objective()
        self.lines: list[str] = []
        self.tray.show((), empty="Press Roll to throw the five dice.")
        if not self.seats.game or not self.result:  # after a game's end it stays "New game"
            self.new_button.description = "New game" if self.seats.game else "New expedition"
        self.draw_chart()
        self.draw_expedition()

    def roll(self) -> None:
        """Hunting: roll the dice not aboard. With the crew aboard: keep the dice marked kept,
        reroll the others."""
        e = self.state
        if self.over:
            raise ValueError(f"the expedition is over: press {self.new_button.description}")
        k = len(e.history) + 1
        if e.crew:
            keep = self.tray.held_faces
            if problem := keep_problem(e, keep):
                raise ValueError(problem)
            e = e.keep(keep)
        else:
            e = e.apply("roll")
        n = naute.CARGO_DICE - len(e.kept) if e.crew else naute.DICE - e.aboard
        new = [int(x) for x in self.rng.integers(1, naute.SIDES + 1, size=n)]
        self.exp, self.state = e.outcome(new), e.roll(dice=new)
        if e.crew:
            self.tray.reroll(new)
            self.lines.append(f"Roll {k}: {mini_dice(new)} into the cargo → cargo <b>{self.exp.cargo}</b>.")
        else:
            rest = dice_left(e, self.exp, new)
            self.tray.faces, self.tray.held = rest, [False] * len(rest)
            self.lines.append(hunt_text(e, self.exp, new, k))
        self.messages.clear()
        self.after_move()

    def stop(self) -> None:
        """Take the cargo as it is."""
        e = self.state
        if self.over:
            raise ValueError(f"the expedition is over: press {self.new_button.description}")
        if not e.crew:
            raise ValueError("you may stop once ship, captain and crew are aboard: roll on")
        self.exp, self.state = e, e.stop()
        self.lines.append(f"Stop: cargo <b>{self.exp.cargo}</b>.")
        self.messages.clear()
        self.after_move()

    def after_move(self) -> None:
        """After your move: the players after you play once your expedition is over; redraw."""
        if self.over and self.seats.game:
            self.finish_expedition()
        self.draw_expedition()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_expedition(self) -> None:
        """Your expedition: the crew, the cargo dice, the buttons, the status, the log, the sheet and the hint."""
        e, over = self.exp, self.over
        self.crew.value = crew_html(e.aboard)
        self.tray_caption.value = tray_caption(e, over)
        if e.history:
            cargo = e.crew and not over
            sticky = self.rules_now.cargo_holds == "sticky"
            held = [h and cargo for h in self.tray.held]
            self.tray.show(self.tray.faces, held, [h and sticky for h in held], active=cargo)
        self.roll_button.disabled = over
        self.stop_button.disabled = over or not e.crew
        self.status.value = status_html(e, over, self.target_now)
        self.log.value = log_html(self.lines)
        self.sheet.value = sheet_html(self.state, self.you, self.mine, self.result, self.seats)
        self.draw_choice()
        # last: the page is then up to date
        self.counter.value = counter_html(len(e.history), naute.ROLLS, over, "Expedition over")

    def chosen(self) -> Hashable:
        """What the dice marked kept say you will do."""
        return chosen_move(self.exp, self.tray.held_faces)

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked kept."""
        e = self.exp
        if self.over:
            self.roll_button.description, self.stop_button.description = "Roll", "Stop"
            self.hint.show(None, "The expedition is over: no move is left to weigh.")
            return
        self.roll_button.description = roll_label(e, self.tray.held_faces)
        self.stop_button.description = f"Stop: cargo {e.cargo}" if e.crew else "Stop"
        goal = self.objective()
        self.hint.show(lambda: hint_html(e, goal, self.chosen()))

    def draw_chart(self) -> None:
        """The cargo distribution under the optimal play for the goal vs keeping 4 or more, and its figures."""
        chart, figures = cargo_view(self.objective(), self.rules_now.cargo_holds)
        self.chart.show(chart)
        self.figures.value = figures


def app(seed: int | None = None) -> widgets.Widget:
    """The Le Naute dashboard as one widget."""
    return NauteDashboard(seed).view
