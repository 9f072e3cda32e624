"""Le Naute dashboard: play an expedition (ship, captain and crew, then the cargo) with the
exact value of every cargo choice beside you, alone or in a game against machine players.

Left: the ship, captain and crew set aside, the cargo dice (click one to keep or release it),
Roll / Stop, the rolls so far, the hint panel and, in a game, the score sheet. Right: the exact
distribution of an expedition's cargo under the optimal play for the goal and under "keep
cargo dice of 4 or more", and the chance of having ship, captain and crew aboard by each roll.
The page is here; what has no widget in it is in `naute_views`.
"""

from __future__ import annotations

import html
from collections.abc import Hashable
from functools import partial

import ipywidgets as widgets

from nessus.apps.naute_views import (
    MACHINES,
    Objective,
    action_label,
    cargo_view,
    crew_html,
    goal_text,
    hunt_text,
    machine_policies,
    qualify_chart,
    result_text,
    sheet_cells,
    status_html,
    unit,
)
from nessus.games import naute
from nessus.games.naute import Above, CargoMean
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import DiceTray, TableDashboard, counter_html, hint_table, mini_dice
from nessus.play import play

MOST, BEAT = "most cargo", "beat a target"
CARGO_RULES = [
    ("sticky: a kept die stays kept", "sticky"),
    ("free: reroll any cargo die", "free"),
    ("both: reroll both or none", "both"),
]


class NauteDashboard(TableDashboard):
    """The widgets of the Le Naute page and the expedition (or game) they play."""

    notebook, title = "le-naute.ipynb", "Le Naute"
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

        rules_guard = self.rules_guard
        self.goal.observe(rules_guard(lambda _: self.new_goal()), names="value")
        self.target.observe(rules_guard(lambda _: self.new_goal()), names="value")
        self.cargo_rule.observe(rules_guard(lambda _: self.restart()), names="value")
        self.expeditions.widget.observe(rules_guard(lambda _: self.restart()), names="value")

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
        return naute.Rules(
            cargo_holds=self.cargo_rule.value, players=self.seats.players.value(), expeditions=self.expeditions.value()
        )

    def objective(self) -> Objective:
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

    def totals(self) -> list[int]:
        """Every player's total cargo so far."""
        return self.state.totals()

    @property
    def over(self) -> bool:
        """Your expedition is over."""
        return len(self.state.cargos) > self.mine

    def machines_play(self, seats: range) -> None:
        """The machine players in `seats` play (`nessus.play.play`) until a seat without one must decide, or the end."""
        policies = machine_policies(self.seats.machine.value, self.rules_now, seats)
        state = play(self.state, {s: p for s, p in policies.items() if s != self.you}, self.rng)
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
            self.result = result_text(self.totals(), self.you)
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
        if not self.seats.game:
            self.new_button.description = "New expedition"
        elif not self.result:
            self.new_button.description = "New game"
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
            if len(keep) == naute.CARGO_DICE:
                raise ValueError("both cargo dice are kept: release one to reroll it, or press Stop")
            if keep not in naute.keep_options(e.kept, e.free, self.rules_now.cargo_holds):
                raise ValueError(
                    "under the “both” cargo rule you reroll both cargo dice or none: release the kept die, or press "
                    "Stop"
                )
            e = e.keep(keep)
            new = [int(x) for x in self.rng.integers(1, naute.SIDES + 1, size=naute.CARGO_DICE - len(keep))]
            self.exp, self.state = e.outcome(new), e.roll(dice=new)
            self.tray.reroll(new)
            self.lines.append(f"Roll {k}: {mini_dice(new)} into the cargo → cargo <b>{self.exp.cargo}</b>.")
        else:
            e = e.apply("roll")
            new = [int(x) for x in self.rng.integers(1, naute.SIDES + 1, size=naute.DICE - e.aboard)]
            self.exp, self.state = e.outcome(new), e.roll(dice=new)
            rest = list(new)
            for face in naute.CREWS[e.aboard : self.exp.aboard]:
                rest.remove(face)
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
        if e.crew:
            caption = "Cargo: click a die to keep it" if not over else "Cargo"
        else:
            caption = "Dice left from the last roll" if e.history else ""
        self.tray_caption.value = f"<small style='color:#555'>{caption}</small>"
        if e.history:
            cargo = e.crew and not over
            sticky = self.rules_now.cargo_holds == "sticky"
            held = [h and cargo for h in self.tray.held]
            self.tray.show(self.tray.faces, held, [h and sticky for h in held], active=cargo)
        self.roll_button.disabled = over
        self.stop_button.disabled = over or not e.crew
        self.status.value = status_html(e, over, self.target_now)
        lines = "".join(f"<div>{line}</div>" for line in self.lines)
        self.log.value = f"<div class='naute-log' style='font-size:13px;line-height:1.7;min-height:20px'>{lines}</div>"
        self.draw_sheet()
        self.draw_choice()
        self.counter.value = counter_html(
            len(e.history), naute.ROLLS, over, "Expedition over"
        )  # last: the page is then up to date

    def chosen(self) -> Hashable:
        """What the dice marked kept say you will do."""
        e = self.exp
        if not e.crew:
            return "roll"
        keep = self.tray.held_faces
        return "stop" if len(keep) == naute.CARGO_DICE else keep

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked kept."""
        e = self.exp
        if self.over:
            self.roll_button.description, self.stop_button.description = "Roll", "Stop"
            self.hint.show(None, "The expedition is over: no move is left to weigh.")
            return
        n = naute.CARGO_DICE - len(self.tray.held_faces) if e.crew else naute.DICE - e.aboard
        self.roll_button.description = f"Roll {n} di{'e' if n == 1 else 'ce'}" if n else "Roll (keep fewer)"
        self.stop_button.description = f"Stop: cargo {e.cargo}" if e.crew else "Stop"
        goal = self.objective()
        note = (
            "" if e.crew else " <small>(ship, captain and crew are set aside for you: the only move is to roll)</small>"
        )
        self.hint.show(
            lambda: (
                f"<div style='color:#555'>Goal: <b>{html.escape(goal_text(goal))}</b>{note}</div>"
                + hint_table(e.hint(goal), self.chosen(), partial(action_label, e), unit=unit(goal))
            )
        )

    def draw_sheet(self) -> None:
        """The score sheet of a game: every player's cargo, expedition by expedition."""
        if not self.seats.game:
            self.sheet.value = ""
            return
        n = self.rules_now.expeditions
        head = "".join(f"<th>exp. {k + 1}</th>" for k in range(n))
        rows = []
        totals = self.totals()
        for seat, s in enumerate(self.state.scores()):
            you = seat == self.you
            who = self.seats.who_html(seat)
            cells = sheet_cells(s, n, self.mine // self.rules_now.players if you else None)
            rows.append(
                f"<tr class='naute-player' style='{self.seats.row_style(seat)}'><td>{who}</td>{cells}"
                f"<td align='center'><b>{totals[seat]}</b></td></tr>"
            )
        result = (
            f"<div class='naute-result' style='font-weight:bold;margin-top:4px'>{html.escape(self.result)}</div>"
            if self.result
            else ""
        )
        self.sheet.value = (
            "<h4 style='margin:8px 0 2px'>Score sheet: total cargo wins</h4>"
            "<table class='naute-sheet' cellpadding='3' "
            f"style='border-collapse:collapse;width:100%'><tr><th align='left'>player</th>{head}<th>total</th></tr>"
            f"{''.join(rows)}</table>{result}"
        )

    def draw_chart(self) -> None:
        """The cargo distribution under the optimal play for the goal vs keeping 4 or more, and its figures."""
        chart, figures = cargo_view(self.objective(), self.rules_now.cargo_holds)
        self.chart.show(chart)
        self.figures.value = figures


def app(seed: int | None = None) -> widgets.Widget:
    """The Le Naute dashboard as one widget."""
    return NauteDashboard(seed).view
