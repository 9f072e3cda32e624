"""The push-your-luck charts of one turn alone (Le Sept fatal's and Pig's pages): the exact
score of a turn holding at N, its figures, and the expected score for every N, for any roll law
(`nessus.pushluck.RollLaw`)."""

from __future__ import annotations

from dataclasses import dataclass

import altair as alt
import polars as pl

from nessus import pushluck as core
from nessus.kit.dicegame import HEURISTIC, OPTIMAL, probability_bars
from nessus.kit.goals import figures_html
from nessus.numbers import number_html, number_text


@dataclass(frozen=True)
class OneTurn:
    """One turn of a push-your-luck game: its title, its roll law, its bust in words ("a 7") and
    the widest N its chart of expected scores shows."""

    title: str
    law: core.RollLaw
    bust_words: str
    widest: int

    def turn_chart(self, n: int) -> alt.LayerChart:
        """The exact score of one turn holding at n, as bars."""
        d = core.hold_at_distribution(self.law, n)
        values = {"value": [str(s) for s in d.outcomes], "probability": [float(d[s]) for s in d.outcomes]}
        frame = pl.DataFrame(values | {"exact": [number_text(d[s]) for s in d.outcomes]})
        title = alt.Title(
            f"{self.title}: the score of one turn holding at {n} (exact)",
            subtitle=f"average {number_text(d.mean(), kind='value')} points; P(score 0) = {number_text(d[0])}",
        )
        x_title = f"turn score (0: the turn ended on {self.bust_words})"
        return probability_bars(frame, title, x_title, frame["value"].to_list(), width=500, height=150)

    def figures_html(self, n: int) -> str:
        """The exact figures of holding at n, and of the best N for points."""
        d, (top, top_mean) = core.hold_at_distribution(self.law, n), core.best_hold(self.law)
        rows = [
            ("expected turn score", number_html(d.mean(), "value")),
            ("P(the turn scores 0)", number_html(d[0])),
            (f"best N for points: {top}", number_html(top_mean, "value")),
        ]
        return figures_html([f"holding at {n}", "exact"], rows, "")

    def means_chart(self, n: int) -> alt.LayerChart:
        """The exact expected turn score for every N, with the best N and yours marked."""
        (top, top_mean), widest = core.best_hold(self.law), self.widest
        x = alt.X("N:Q", title="hold at N", scale=alt.Scale(domain=[1, widest]))
        holds = range(1, widest + 1)
        means = [core.hold_at_mean(self.law, hold) for hold in holds]
        exact = [number_text(m, kind="value") for m in means]
        frame = pl.DataFrame({"N": holds, "mean": [float(m) for m in means], "exact": exact})
        base = alt.Chart(frame).encode(x=x)
        line = base.mark_line(color=OPTIMAL, point=alt.OverlayMarkDef(size=14, color=OPTIMAL)).encode(
            y=alt.Y("mean:Q", title="expected turn score"),
            tooltip=["N", alt.Tooltip("exact:N", title="expected score")],
        )
        marks = pl.DataFrame({"N": [top, n], "what": [f"best N = {top}", f"your N = {n}"]})
        colour = alt.Color(
            "what:N", scale=alt.Scale(range=["#999999", HEURISTIC]), legend=alt.Legend(orient="top", title=None)
        )
        rules = alt.Chart(marks).mark_rule(strokeDash=[6, 3]).encode(x="N:Q", color=colour)
        off = f"(your N = {n} is off the right edge) " if n > widest else ""
        subtitle = f"{off}best N = {top}: {number_text(top_mean, kind='value')} points"
        title = alt.Title("Expected score of one turn holding at N (exact)", subtitle=subtitle)
        return alt.layer(line, rules).properties(width=500, height=150, title=title)
