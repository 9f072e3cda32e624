"""Le Renard dashboard: roll against the bank, watch the bankroll, compare exact and simulated."""

from __future__ import annotations

import html

import ipywidgets as widgets
import polars as pl

from nessus import charts
from nessus.games import renard
from nessus.games.renard import GAME
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML, dice_html
from nessus.numbers import Kind, interval_html, number_html

SIM_TRIALS = 10_000
SIM_SEED = 2026
SHOWN: dict[str, tuple[str, Kind]] = {  # figure: (its name on the page, a probability or not)
    "p_win": ("chance of a triple on one roll", "probability"),
    "ev_per_stake": ("expected gain per unit staked", "value"),
    "house_edge": ("the bank's edge per unit staked", "value"),
    "p_ruin": ("chance of ruin within the rounds", "probability"),
}


class RenardDashboard(Dashboard):
    """The widgets of the Le Renard page and the game they play."""

    game = GAME
    sentence = (
        "Stake, roll three dice, and win <i>payout</i> times the stake on a triple. Beside your table (below "
        "it on a phone): your bankroll so far, and the exact chance of ruin round by round."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        p = renard.PAYOUT
        self.payout = widgets.IntSlider(
            value=p.default, min=p.lo, max=p.hi, description="payout", continuous_update=False
        )
        self.fields = {p.name: self.param_field(p) for p in (renard.STAKE, renard.BANKROLL, renard.ROUNDS)}
        self.roll_button = widgets.Button(description="Roll", button_style="primary", icon="dice")
        self.roll_button.add_class("roll-button")
        self.play_button = widgets.Button(description="Play 10 rounds")
        self.new_button = widgets.Button(description="New game")
        self.actions = [self.roll_button, self.play_button, self.new_button]
        self.dice = widgets.HTML()
        self.status = widgets.HTML()
        self.figures = TableHTML(name="le-renard-figures")
        self.bankroll_chart = self.chart_pane(name="bankroll")
        self.ruin_chart = self.chart_pane(name="ruin")

        for control in (self.payout, *(f.widget for f in self.fields.values())):
            control.observe(self.rules_guard(lambda _: self.new_rules()), names="value")
        for button, rounds in ((self.roll_button, 1), (self.play_button, 10)):
            button.on_click(self.guard(lambda _, rounds=rounds: self.play(rounds)))
        self.new_button.on_click(self.guard(lambda _: self.new_game()))

        controls = [self.payout, *(f.widget for f in self.fields.values()), self.messages.widget]
        buttons = widgets.HBox(self.actions)
        self.page(
            [widgets.HTML("<b>The bet</b>"), *controls, buttons, self.dice, self.status],
            [self.bankroll_chart.widget, self.ruin_chart.widget],
            [self.figures],
        )
        self.new_rules()

    def new_rules(self) -> None:
        """Apply the controls: a new game, the exact ruin curve, exact vs simulated figures."""
        self.rules = renard.Rules(payout=self.payout.value, **{n: f.value() for n, f in self.fields.items()})
        self.messages.clear()
        self.new_game()
        curve = renard.ruin_by_round(self.rules)
        frame = pl.DataFrame({"round": range(1, len(curve) + 1), "chance of ruin": [float(p) for p in curve]})
        title = f"Exact chance of ruin by each round, payout {self.rules.payout}"
        self.ruin_chart.show(charts.curve(frame, "round", "chance of ruin", title))
        self.show_figures()

    def new_game(self) -> None:
        """Back to the starting bankroll."""
        self.table = renard.initial_state(self.rules)
        self.draw_table()

    def play(self, rounds: int) -> None:
        """Play up to `rounds` rounds (fewer if the game ends)."""
        self.table = self.table.play_rounds(self.rng, rounds)
        self.draw_table()

    def draw_table(self) -> None:
        """The last roll and its verdict, the bankroll so far and its chart."""
        t, rules = self.table, self.rules
        if t.history:
            self.dice.value = dice_html(t.history[-1][0]) + f"<div class='verdict'><b>{t.verdict}</b></div>"
        else:
            self.dice.value = dice_html((), empty="Press Roll to stake and throw 3 dice.")
        self.status.value = (
            f"<div class='bankroll'>Bankroll <b>{t.bankroll}</b> after {len(t.history)} of {rules.rounds} rounds "
            f"({t.triples} triples; {t.standing})</div>"
        )
        self.roll_button.disabled = self.play_button.disabled = t.is_terminal()
        frame = pl.DataFrame({"round": range(len(t.bankrolls)), "bankroll": t.bankrolls})
        self.bankroll_chart.show(charts.path(frame, "round", "bankroll", "Your bankroll", floor=rules.stake))

    def show_figures(self) -> None:
        """The exact figures beside simulated ones (with their 95% intervals), and the fair payout."""
        exact = renard.report(self.rules).figures
        simulated = renard.simulate(self.rules, SIM_TRIALS, SIM_SEED, progress=False).figures
        rows = []
        for name, (label, kind) in SHOWN.items():
            e, s = exact[name].exact, simulated[name]
            assert e is not None and s.ci is not None
            rows.append(
                f"<tr><td>{html.escape(label)}</td><td>{number_html(e, kind)}</td>"
                f"<td>{number_html(s.value, kind)} <small>{interval_html(*s.ci, kind)}</small></td></tr>"
            )
        self.figures.value = (
            f"<h4>Exact vs simulated ({SIM_TRIALS:,} simulated games, 95% intervals)</h4>"
            "<div class='nessus-wide'>"
            "<table class='figures' style='border-collapse:collapse' cellpadding='4'><tr><th></th>"
            f"<th align='left'>exact</th><th align='left'>simulated</th></tr>{''.join(rows)}</table></div>"
            f"<p>Fair payout: <b>{html.escape(str(renard.fair_payout()))}</b> times the stake.</p>"
        )


def app(seed: int | None = None) -> widgets.Widget:
    """The Le Renard dashboard as one widget."""
    return RenardDashboard(seed).view
