"""Le Naute's page: an expedition (ship, captain and crew, then the cargo) with the exact value of
every cargo choice, alone or in a game against machine players; beside it, the cargo's exact law
for the goal and the chance of ship, captain and crew by each roll (drawn in `views`)."""

from __future__ import annotations

from functools import partial

import ipywidgets as widgets

from nessus.games import naute
from nessus.games.naute import GAME, Above, CargoMean, Goal, Keep, machine_policies, views
from nessus.kit.dicegame import DiceTray, counter_html
from nessus.kit.goals import GoalBox, GoalDashboard, goal_hint, roll_label, turn_log


class NauteDashboard(GoalDashboard):
    """The widgets of the Le Naute page and the expedition (or game) they play."""

    game = GAME
    sentence = (
        "Five dice, three rolls: set aside a 6 (the ship), then a 5 (the captain), then a 4 (the crew); the "
        "two other dice are the cargo, and the rolls left may reroll it. No crew, no cargo: 0. Beside (below "
        "on a phone): the exact cargo distribution when you play the cargo optimally for your goal, or keep "
        "dice of 4 or more."
    )
    over_text = "the expedition is over"
    machines = naute.MACHINES
    move_words = ("Roll 5 dice", "Stop", "New expedition")
    chart_size = "320px cargo"
    new_words = ("New expedition", "New game")
    machine_policies = staticmethod(machine_policies)
    state: naute.State

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        words = ("most cargo", "beat a target")
        self.goals = self.play_for(GoalBox("naute", words, "target", 7, naute.TOP - 1, "50px 250px"))
        self.cargo_rule = widgets.Dropdown(
            options=views.CARGO_RULES, description="cargo rule", layout={"width": "330px"}
        )
        self.cargo_rule.style.description_width = "90px"
        self.cargo_rule.add_class("naute-cargo-rule")
        self.expeditions = self.param_field(naute.EXPEDITIONS, width="170px")
        self.expeditions.widget.style.description_width = "80px"
        self.seats.box.children = (*self.seats.box.children, self.expeditions.widget)
        self.watch(self.restart, self.cargo_rule, self.expeditions.widget)
        self.crew = widgets.HTML()
        self.tray_caption = widgets.HTML()
        self.tray = DiceTray(naute.DICE, "kept", on_change=self.guard(lambda: self.draw_choice()))
        self.qualify = self.chart_pane("190px", "ship-captain-crew")
        turn = widgets.HBox([self.crew, widgets.VBox([self.tray_caption, self.tray.widget])])
        self.lay_out(self.cargo_rule, [turn], [self.qualify.widget])
        self.seats.new_players()
        self.qualify.show(views.qualify_chart())  # P(ship, captain and crew aboard by roll k): the same for any play

    def rules(self) -> naute.Rules:
        """The rules in the controls (players and expeditions only count in a game)."""
        if not self.seats.game:
            return naute.Rules(cargo_holds=self.cargo_rule.value)
        players, expeditions = self.seats.players.value(), self.expeditions.value()
        return naute.Rules(cargo_holds=self.cargo_rule.value, players=players, expeditions=expeditions)

    def objective(self) -> Goal:
        """What the hint and the chart are for: your goal alone, the expedition's goal in a game."""
        if self.seats.game:
            return self.exp.objective()
        return Above(self.goals.target.value) if self.goals.beat else CargoMean()

    def start(self) -> None:
        """Your next expedition (alone: the first of a game no one else plays): the machine
        players before you play theirs; on a game's last one, you play to beat the best total."""
        self.machines_play(range(self.you))
        self.exp = self.state  # your expedition as the page shows it (after its end too)
        self.lines: list[str] = []
        self.tray.show((), empty="Press Roll to throw the five dice.")
        self.new_button.description = self.new_words[self.seats.game]
        self.draw_chart()
        self.draw()

    def finish(self) -> None:
        """Your expedition is over: the players after you play theirs."""
        super().finish()
        self.new_button.description = "New game" if self.state.is_terminal() else "Next expedition"

    def next(self) -> None:
        """The New / Next button."""
        if self.seats.game and not self.state.is_terminal() and self.over:
            self.start()
        else:
            self.restart()

    @property
    def over(self) -> bool:
        """Your expedition is over."""
        return len(self.state.cargos) > len(self.exp.cargos)

    def roll(self) -> None:
        """Hunting: roll the dice not aboard. With the crew aboard: keep the dice marked kept,
        reroll the others."""
        self.check_open()
        e, k = self.state, len(self.state.history) + 1
        if e.crew:
            keep = self.tray.held_faces
            if len(keep) == naute.CARGO_DICE:
                raise ValueError("both cargo dice are kept: release one to reroll it, or press Stop")
            if Keep(keep) not in e.legal_actions():
                both = "under the “both” cargo rule you reroll both cargo dice or none"
                raise ValueError(f"{both}: release the kept die, or press Stop")
            e = e.keep(keep)
        else:
            e = e.apply("roll")
        new = [int(x) for x in self.rng.integers(1, naute.SIDES + 1, size=e.dice_to_roll())]
        self.exp, self.state = e.outcome(new), e.roll(dice=new)
        self.lines.append(views.roll_line(e, self.exp, new, k))
        if e.crew:
            self.tray.reroll(new)
        else:
            rest = naute.boarding(e.aboard, new)[1]
            self.tray.faces, self.tray.held = rest, [False] * len(rest)
        self.after_move()

    def stop(self) -> None:
        """Take the cargo as it is."""
        self.check_open()
        if not self.state.crew:
            raise ValueError("you may stop once ship, captain and crew are aboard: roll on")
        self.exp, self.state = self.state, self.state.stop()
        self.lines.append(f"Stop: cargo <b>{self.exp.cargo}</b>.")
        self.after_move()

    def draw(self) -> None:
        """Your expedition: the crew, the cargo dice, the buttons, the status, the log, the sheet and the hint."""
        e, over = self.exp, self.over
        self.crew.value = views.crew_html(e.aboard)
        self.tray_caption.value = views.tray_caption(e, over)
        if e.history:
            cargo, sticky = e.crew and not over, self.rules_now.cargo_holds == "sticky"
            held = [h and cargo for h in self.tray.held]
            self.tray.show(self.tray.faces, held, [h and sticky for h in held], active=cargo)
        self.roll_button.disabled = over
        self.stop_button.disabled = over or not e.crew
        self.status.value = views.status(e, over)
        self.log.value = turn_log("naute", self.lines)
        self.sheet.value = views.sheet(self.state, self.seats, e.round) if self.seats.game else ""
        self.draw_choice()
        self.counter.value = counter_html(len(e.history), naute.ROLLS, over, "Expedition over")  # last: all drawn

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked kept."""
        e = self.exp
        if self.over:
            self.roll_button.description, self.stop_button.description = "Roll", "Stop"
            return self.hint.show(None, "The expedition is over: no move is left to weigh.")
        self.roll_button.description = roll_label(e.dice_to_roll(self.tray.held_faces), "keep")
        self.stop_button.description = f"Stop: cargo {e.cargo}" if e.crew else "Stop"
        goal, chosen = self.objective(), e.chosen(self.tray.held_faces)
        note = "" if e.crew else views.HUNTING
        self.hint.show(lambda: goal_hint(goal, e.hint(goal), partial(views.action_label, e), chosen, note))

    def draw_chart(self) -> None:
        """The cargo distribution under the optimal play for the goal vs keeping 4 or more, and its figures."""
        chart, self.figures.value = views.cargo_view(self.objective(), self.rules_now.cargo_holds)
        self.chart.show(chart)


app = NauteDashboard.app
"""The Le Naute dashboard as one widget: `app(seed=None)`."""
