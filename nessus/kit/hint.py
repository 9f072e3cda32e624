"""What a choice and a way of playing are worth, exactly: the hint (every legal action with its
value, the best highlighted and the player's choice weighed, named by the page's
`label(action)`) and the charts comparing policies' exact distributions."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

import altair as alt
import ipywidgets as widgets
import polars as pl

from nessus.dist import Dist
from nessus.kit.common import TableHTML
from nessus.numbers import Kind, d3_format, number_html, number_text
from nessus.rollout import RolloutHint
from nessus.solver import Hint

HELD = "#f58518"
OPTIMAL, HEURISTIC = "#4c78a8", "#f58518"
TOOLTIP = ["value", alt.Tooltip("probability:Q", format=d3_format("probability")), "exact"]  # a bar's tooltip


def kind_of(unit: str) -> Kind:
    """A hint's values are probabilities when its unit says so ("probability", "P(win)")."""
    return "probability" if "prob" in unit.lower() or unit.startswith("P(") else "value"


def hint_table(
    hint: Hint,
    chosen: Hashable | None,
    label: Callable[[Hashable], str],
    fmt: Callable[[Fraction | int | float], str] | None = None,
    unit: str = "value",
    method: str = "exact",
) -> str:
    """Every legal action with its value (found by `method`: "exact", or e.g. "≈, value
    iteration"), best first: the optimal action highlighted, the player's `chosen` one marked,
    and what it costs against the best (`fmt` writes a value; by default the page's number format)."""
    fmt = fmt or functools.partial(number_html, kind=kind_of(unit))
    top = max((abs(Fraction(v)) for v in hint.values.values()), default=Fraction(0)) or 1
    rows = []
    for action, v in sorted(hint.values.items(), key=lambda kv: -kv[1] if hint.maximise else kv[1]):
        is_best, is_chosen, free = action == hint.best, action == chosen, hint.cost(action) == 0
        classes = "hint-row" + " best" * is_best + " good" * (free and not is_best) + " chosen" * is_chosen
        style = f"outline:2px dashed {HELD};outline-offset:-2px" if is_chosen else ""
        tag = "best" if is_best else "as good" if free else ""
        mine = f"<span style='color:{HELD}'>◀ your choice</span>" if is_chosen else ""
        width = max(1, round(70 * abs(float(v)) / float(top)))
        rows.append(
            f"<tr class='{classes}' style='{style}'><td>{label(action)}</td>"
            f"<td style='white-space:nowrap'>{fmt(v)}</td>"
            f"<td><span style='display:inline-block;height:9px;width:{width}px;background:#4c78a8'></span></td>"
            f"<td style='white-space:nowrap;font-size:12px'>{tag} {mine}</td></tr>"
        )
    verdict = ""
    if chosen is not None:
        yours = f"Your choice ({label(chosen)})"
        if chosen not in hint.values:
            verdict = f"<div class='hint-verdict' style='color:#b00020'>{yours} is not allowed here.</div>"
        elif hint.cost(chosen) == 0:
            verdict = f"<div class='hint-verdict' style='color:#2e7d32'>{yours} is optimal.</div>"
        else:
            costs = f"costs <b>{fmt(hint.cost(chosen))}</b> of {html.escape(unit)} against the best"
            verdict = f"<div class='hint-verdict'>{yours} {costs}.</div>"
    return (
        f"<div class='hint-best' style='margin:2px 0'>Best: <b>{label(hint.best)}</b>, {html.escape(unit)} "
        f"{fmt(hint.values[hint.best])}</div>{verdict}"
        "<div class='nessus-wide' style='border:1px solid rgba(128,128,128,.35);margin-top:4px'>"
        "<table class='hint-table' cellpadding='3' style='border-collapse:collapse;width:100%;font-size:13px'>"
        f"<tr><th align='left'>action</th><th align='left'>{html.escape(unit)} ({html.escape(method)})</th><th></th>"
        f"<th></th></tr>{''.join(rows)}</table></div>"
    )


def rollout_table(hint: RolloutHint, chosen: Hashable | None, label: Callable[[Hashable], str], unit: str) -> str:
    """A rollout hint in words and as a table, best first: each move's chance to win and `unit`, with 95% intervals."""
    rows = []
    for action, v in sorted(hint.estimates.items(), key=lambda kv: -kv[1].win):
        spread = "exact" if v.exact else f"{v.win_low:.0%}–{v.win_high:.0%}"
        points = f"{v.points:.2f}" + ("" if v.exact else f" ({v.points_low:.2f} to {v.points_high:.2f})")
        rows.append(
            f"<tr class='hint-row{' best' * (action == hint.best)}'><td>{html.escape(label(action))}"
            f"{' ◀ yours' * (action == chosen)}</td><td><b>{v.win:.0%}</b> <small>{spread}</small></td>"
            f"<td style='font-size:12px'>{points}</td></tr>"
        )
    clear = "The best move is clear at 95%." if hint.separated else "The best moves cannot be told apart yet."
    exact = all(v.exact for v in hint.estimates.values())
    how = (
        "Exact: the hidden cards weighed by"
        if exact
        else f"{hint.rollouts} rollouts a move: the hidden cards drawn from"
    )
    return (
        f"<div class='hint-words' style='margin:2px 0'>{html.escape(hint.words(label))}</div>"
        "<table class='hint-table' cellpadding='3' style='border-collapse:collapse;width:100%;font-size:13px'>"
        f"<tr><th align='left'>move</th><th align='left'>chance to win (95%)</th><th align='left'>{unit}</th>"
        f"</tr>{''.join(rows)}</table><small class='hint-model' style='color:#666'>{how}"
        f" {html.escape(hint.posterior)}; {html.escape(hint.opponents)}."
        f"{'' if exact else ' ' + clear}</small>"
    )


class HintPanel:
    """A Hint toggle and, when on, the hint for the current choice (`offer`: what pressing Hint shows)."""

    def __init__(self, offer: str = "the exact value of every move you can make") -> None:
        self.offer = offer
        self.toggle = widgets.ToggleButton(
            value=False, description="Hint", icon="lightbulb-o", tooltip="show the value of every move"
        )
        self.toggle.add_class("hint-toggle")
        self.widget = TableHTML(name="hint")
        self._compute: Callable[[], str] | None = None
        self._idle = ""
        self.toggle.observe(lambda _: self._draw(), names="value")

    def show(self, compute: Callable[[], str] | None, idle: str = "") -> None:
        """What the panel shows when on: `compute()` (called only then), or the `idle` text."""
        self._compute, self._idle = compute, idle
        self._draw()

    def _draw(self) -> None:
        if not self.toggle.value:
            self.widget.value = f"<small style='color:#666'>Press <b>Hint</b> to see {self.offer}.</small>"
        elif self._compute is None:
            self.widget.value = f"<div class='hint-panel'><small style='color:#666'>{self._idle}</small></div>"
        else:
            self.widget.value = f"<div class='hint-panel' style='max-width:620px'>{self._compute()}</div>"


def policy_frame(dists: dict[str, Dist], order: Sequence[Hashable], name: Callable[[Any], Any] = str) -> pl.DataFrame:
    """Two or more policies' exact distributions over the same outcomes, as one long frame:
    `value` (`name(outcome)`: its label, or a number for a numeric axis), `policy`,
    `probability`, `exact`."""
    rows: dict[str, list[Any]] = {"value": [], "policy": [], "probability": [], "exact": []}
    for policy, d in dists.items():
        for x in order:
            p = d[x] if x in d.outcomes else Fraction(0)
            rows["value"].append(name(x))
            rows["policy"].append(policy)
            rows["probability"].append(float(p))
            rows["exact"].append(number_text(p))
    return pl.DataFrame(rows)


def policy_bars(
    frame: pl.DataFrame, title: str | alt.Title, x_title: str, order: Sequence[str], width: int = 440, height: int = 210
) -> alt.Chart:
    """Side-by-side bars of each policy's probabilities (from `policy_frame`)."""
    policies = frame["policy"].unique(maintain_order=True).to_list()
    return (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(
            x=alt.X("value:N", title=x_title, sort=list(order), axis=alt.Axis(labelAngle=0, labelOverlap=False)),
            xOffset=alt.XOffset("policy:N", sort=policies),
            y=alt.Y("probability:Q", title="probability"),
            color=alt.Color(
                "policy:N",
                sort=policies,
                scale=alt.Scale(range=[OPTIMAL, HEURISTIC]),
                legend=alt.Legend(orient="top", title=None),
            ),
            tooltip=["policy", *TOOLTIP],
        )
        .properties(width=width, height=height)
    )


def probability_bars(
    frame: pl.DataFrame, title: str | alt.Title, x_title: str, order: Sequence[str], width: int = 440, height: int = 150
) -> alt.LayerChart:
    """Bars of one exact distribution (`value`, `probability`, `exact`) labelled with their values."""
    base = alt.Chart(frame, title=title).encode(
        x=alt.X("value:N", title=x_title, sort=list(order), axis=alt.Axis(labelAngle=0))
    )
    bars = base.mark_bar(color=OPTIMAL).encode(
        y=alt.Y("probability:Q", title="probability"),
        tooltip=TOOLTIP,
    )
    text = base.mark_text(dy=-6, fontSize=11, color="#333").encode(
        y="probability:Q", text=alt.Text("probability:Q", format=d3_format("probability"))
    )
    return alt.layer(bars, text).properties(width=width, height=height)
