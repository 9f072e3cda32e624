"""La Boue dashboard: play a turn die by die; watch simulated turns fill in the exact distribution."""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from nessus import charts
from nessus.games import boue
from nessus.games.boue import GAME
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML, dice_html
from nessus.numbers import number_html

TRIAL_STEPS = (0, 100, 1_000, 10_000, 100_000)
SIM_SEED = 2026
SHOWN_MASS = 0.995


class BoueDashboard(Dashboard):
    """The widgets of the La Boue page and the turn they play."""

    game = GAME
    sentence = (
        "Roll the free dice: a roll with no 2 and no 5 scores its total; otherwise the 2s and 5s stick in the"
        " mud. Beside (below on a phone): the exact distribution of a turn's score (bars) and simulated turns"
        " (red ticks)."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.dice_field = self.param_field(boue.DICE)
        self.trials = widgets.SelectionSlider(
            options=[(f"{n:,}", n) for n in TRIAL_STEPS],
            value=1_000,
            description="simulated",
            continuous_update=False,
        )
        self.roll_button = widgets.Button(description="Roll", button_style="primary", icon="dice")
        self.roll_button.add_class("roll-button")
        self.new_button = widgets.Button(description="New turn")
        self.actions = [self.roll_button, self.new_button]
        self.free = widgets.HTML()
        self.mud = widgets.HTML()
        self.status = widgets.HTML()
        self.figures = TableHTML(name="la-boue-figures")
        self.chart = self.chart_pane(name="turn-score")

        guard = self.guard
        self.dice_field.widget.observe(self.rules_guard(lambda _: self.new_rules()), names="value")
        self.trials.observe(guard(lambda _: self.draw_chart()), names="value")
        self.roll_button.on_click(guard(lambda _: self.roll()))
        self.new_button.on_click(guard(lambda _: self.new_turn()))

        self.page(
            [
                widgets.HTML("<b>Your turn</b>"),
                self.dice_field.widget,
                self.messages.widget,
                widgets.HBox([self.roll_button, self.new_button]),
                widgets.HTML("<small>Last roll</small>"),
                self.free,
                widgets.HTML("<small>Stuck in the mud</small>"),
                self.mud,
                self.status,
            ],
            [self.trials, self.chart.widget],
            [self.figures],
            left_width="380px",
        )
        self.new_rules()

    def new_rules(self) -> None:
        """Apply the dice count: the exact distribution, its figures, a new turn."""
        self.rules = boue.Rules(dice=self.dice_field.value())
        self.messages.clear()
        self.exact = boue.turn_distribution(self.rules)
        self.top = boue.quantile(self.exact, SHOWN_MASS)
        self.new_turn()
        self.draw_chart()
        self.draw_figures()

    def new_turn(self) -> None:
        """A new game, player 1 about to roll: the page shows its first turn."""
        self.state = boue.initial_state(self.rules)
        self.draw_turn()

    def roll(self) -> None:
        """Roll the free dice once (a new turn first, once every die is stuck)."""
        if self.state.turn_over:
            self.new_turn()
        self.state = self.state.roll(self.rng)
        self.draw_turn()

    def draw_turn(self) -> None:
        """The last roll, the stuck dice, and the turn in words."""
        t = self.state
        self.free.value = dice_html(t.last, empty=f"{t.free} dice ready: press Roll.")
        self.mud.value = dice_html(t.stuck, stuck=True, empty="none yet")
        verdict = f"{t.verdict} " if t.verdict else ""
        end = " <b>Turn over.</b>" if t.turn_over else f" {t.free} dice still free."
        rolls = f"{len(t.rolls)} roll" + ("" if len(t.rolls) == 1 else "s")
        self.status.value = f"<div class='score'>{verdict}Score <b>{t.score}</b> after {rolls}.{end}</div>"
        self.roll_button.description = "New turn + roll" if t.turn_over else "Roll"

    def draw_chart(self) -> None:
        """The exact distribution of a turn's score as bars, the simulated turns as ticks."""
        n = self.trials.value
        exact = self.exact.truncate(self.top).to_frame()
        simulated = None
        if n:
            rng = np.random.default_rng([SIM_SEED, n])
            simulated = charts.frequencies(boue.turn_scores(self.rules.dice, rng, n), self.top)
        title = f"Turn score with {self.rules.dice} dice: exact, and {n:,} simulated turns"
        self.chart.show(charts.exact_vs_simulated(exact, simulated, title, "score"))

    def draw_figures(self) -> None:
        """The exact figures of one turn."""
        chain = boue.turn_chain(self.rules.dice)
        mean, var = chain.mean(self.rules.dice), chain.variance(self.rules.dice)
        rows = [
            ("mean score", number_html(mean, "value")),
            ("variance", number_html(var, "value")),
            ("chance of scoring 0", number_html(self.exact.probability(0))),
            (f"chance of scoring more than {self.top} (beyond the chart)", number_html(self.exact.sf(self.top))),
        ]
        body = "".join(f"<tr><td>{a}</td><td>{b}</td></tr>" for a, b in rows)
        self.figures.value = f"<h4>Exact figures for one turn</h4><table class='figures' cellpadding='4'>{body}</table>"


def app(seed: int | None = None) -> widgets.Widget:
    """The La Boue dashboard as one widget."""
    return BoueDashboard(seed).view
