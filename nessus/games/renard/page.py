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
from nessus.play import play
from nessus.report import Report

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
        self.payout = widgets.IntSlider(
            value=renard.PAYOUT.default,
            min=renard.PAYOUT.lo,
            max=renard.PAYOUT.hi,
            description="payout",
            continuous_update=False,
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

        new_rules = self.rules_guard(lambda _: self.new_rules())
        self.payout.observe(new_rules, names="value")
        for f in self.fields.values():
            f.widget.observe(new_rules, names="value")
        self.roll_button.on_click(self.guard(lambda _: self.play(1)))
        self.play_button.on_click(self.guard(lambda _: self.play(10)))
        self.new_button.on_click(self.guard(lambda _: self.new_game()))

        self.page(
            [
                widgets.HTML("<b>The bet</b>"),
                self.payout,
                *(f.widget for f in self.fields.values()),
                self.messages.widget,
                widgets.HBox([self.roll_button, self.play_button, self.new_button]),
                self.dice,
                self.status,
            ],
            [self.bankroll_chart.widget, self.ruin_chart.widget],
            [self.figures],
        )
        self.rules = renard.Rules()
        self.new_rules()

    def read_rules(self) -> renard.Rules:
        """The rules in the controls, or a ValueError naming the bad one."""
        return renard.Rules(payout=self.payout.value, **{n: f.value() for n, f in self.fields.items()})

    def new_rules(self) -> None:
        """Apply the controls: a new game, the exact ruin curve, exact vs simulated figures."""
        self.rules = self.read_rules()
        self.messages.clear()
        self.new_game()
        curve = renard.ruin_by_round(self.rules)
        frame = pl.DataFrame({"round": range(1, len(curve) + 1), "chance of ruin": [float(p) for p in curve]})
        title = f"Exact chance of ruin by each round, payout {self.rules.payout}"
        self.ruin_chart.show(charts.curve(frame, "round", "chance of ruin", title))
        self.show_figures(renard.report(self.rules), renard.simulate(self.rules, SIM_TRIALS, SIM_SEED, progress=False))

    def new_game(self) -> None:
        """Back to the starting bankroll."""
        self.table = renard.initial_state(self.rules)
        self.dice.value = dice_html((), empty="Press Roll to stake and throw 3 dice.")
        self.draw_table()

    def play(self, rounds: int) -> None:
        """Play up to `rounds` rounds (fewer if the game ends), through the one play loop."""
        target = len(self.table.history) + rounds
        end = play(self.table, {}, self.rng, until=lambda s: isinstance(s, renard.State) and len(s.history) >= target)
        assert isinstance(end, renard.State)
        self.table = end
        if self.table.history:
            faces, gain = self.table.history[-1]
            verdict = f"Triple! +{gain}" if gain > 0 else f"No triple: {gain}"
            self.dice.value = dice_html(faces) + f"<div class='verdict'><b>{verdict}</b></div>"
        self.draw_table()

    def draw_table(self) -> None:
        t = self.table
        played = len(t.history)
        wins = sum(1 for _, g in t.history if g > 0)
        state = "ruined" if t.ruined else ("all rounds played" if t.is_terminal() else "playing")
        self.status.value = (
            f"<div class='bankroll'>Bankroll <b>{t.bankroll}</b> after {played} of {self.rules.rounds} rounds "
            f"({wins} triples; {state})</div>"
        )
        self.roll_button.disabled = self.play_button.disabled = t.is_terminal()
        bankrolls = [self.rules.bankroll] + [
            self.rules.bankroll + sum(g for _, g in t.history[: i + 1]) for i in range(played)
        ]
        frame = pl.DataFrame({"round": range(played + 1), "bankroll": bankrolls})
        self.bankroll_chart.show(charts.path(frame, "round", "bankroll", "Your bankroll", floor=self.rules.stake))

    def show_figures(self, exact: Report, simulated: Report) -> None:
        rows = []
        for name, (label, kind) in SHOWN.items():
            e, s = exact.figures[name], simulated.figures[name]
            assert e.exact is not None and s.ci is not None
            rows.append(
                f"<tr><td>{html.escape(label)}</td><td>{number_html(e.exact, kind)}</td>"
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
