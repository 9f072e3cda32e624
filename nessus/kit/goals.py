"""The dice pages played for a goal (Le Palais, Le Naute, Le Légit): `GoalDashboard`, a turn
alone or a game against machine players (who play through `nessus.play`), `GoalBox` (play for
the most points, or to beat a score), and what these pages draw alike: the hint under its goal,
the status line, the turn's log, the players' sheet and the table of figures."""

from __future__ import annotations

import html
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
from ipywidgets import Widget

from nessus.game import Objective, Policy, State
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import Table, TableDashboard
from nessus.kit.hint import hint_table
from nessus.play import play
from nessus.solver import Hint

Format = Callable[[Fraction | int | float], str]
Label = Callable[[Hashable], str]
Turns = Sequence[tuple[str, str] | None]
WON = " <b style='color:#2e7d32'>★ wins</b>"


def plural(n: int, word: str) -> str:
    """`n word` or `n words` ("die" becomes "dice").

    >>> plural(1, "die"), plural(3, "die"), plural(0, "reroll")
    ('1 die', '3 dice', '0 rerolls')
    """
    return f"{n} {word if n == 1 else 'dice' if word == 'die' else word + 's'}"


def roll_label(n: int, fewer: str) -> str:
    """The Roll button's words when it throws `n` dice ("Roll (keep fewer)" for none)."""
    return f"Roll {plural(n, 'die')}" if n else f"Roll ({fewer} fewer)"


def goal_hint(
    goal: Objective, hint: Hint | None, label: Label, chosen: Hashable = None, note: str = "", fmt: Format | None = None
) -> str:
    """The hint panel's HTML: the goal in words (`note` after it), then every legal move with its
    exact value (`hint_table`, `fmt` writing a value); without a `hint`, the goal alone."""
    head = f"<div style='color:#555'>Goal: <b>{html.escape(goal.text)}</b>{note}</div>"
    return head + (hint_table(hint, chosen, label, fmt, goal.unit) if hint else "")


def status_html(game: str, text: str) -> str:
    """The status line (CSS class `<game>-status`): where your turn stands, in a sentence."""
    return f"<div class='{game}-status' style='font-size:15px'>{text}</div>"


def turn_log(game: str, lines: Sequence[str]) -> str:
    """Your turn so far, a line (HTML) each, the first first (CSS class `<game>-log`)."""
    body = "".join(f"<div>{line}</div>" for line in lines)
    return f"<div class='{game}-log' style='font-size:13px;line-height:1.7;min-height:20px'>{body}</div>"


def seat_row(game: str, seats: Table, seat: int, cells: str) -> str:
    """A seat's row of a sheet (CSS class `<game>-player`, yours tinted) holding the `<td>` `cells`."""
    return f"<tr class='{game}-player' style='{seats.row_style(seat)}'>{cells}</tr>"


def sheet_html(game: str, title: str, table: str, rows: Iterable[str], result: str = "", style: str = "") -> str:
    """A game's sheet: its title, a table (CSS class `table`, `style` added) of `rows`, the `result`
    (`<game>-result`)."""
    end = f"<div class='{game}-result' style='font-weight:bold;margin-top:4px'>{html.escape(result)}</div>"
    style = f"border-collapse:collapse;width:100%{style}"
    table = f"<table class='{table}' cellpadding='3' style='{style}'>{''.join(rows)}</table>"
    return f"<h4 style='margin:8px 0 2px'>{title}</h4>{table}{end if result else ''}"


def seats_html(
    game: str, title: str, seats: Table, turns: Turns, won: Collection[int], result: str, note: str = ""
) -> str:
    """The players in seat order (`<game>-players`): each seat's number, who plays it (seat 1 with
    `note`, the winners `won` with ★), then its turn's two cells (`turns[seat]`: None before they
    show, "playing…" at your seat and "to play" at the others), and the result."""
    rows = []
    for seat, turn in enumerate(turns):
        dice, score = turn or ("<i>playing…</i>" if seat == seats.you else "<i>to play</i>", "")
        cells = f"<td><b>{seat + 1}</b></td><td>{seats.who_html(seat)}{'' if seat else note}{WON * (seat in won)}</td>"
        rows.append(seat_row(game, seats, seat, f"{cells}<td>{dice}</td><td>{score}</td>"))
    return sheet_html(game, title, f"{game}-players", rows, result)


def swatch(colour: str, text: str) -> str:
    """`text` after a square of a chart's `colour` (a table's key to the chart)."""
    return f"<span style='color:{colour}'>■</span> {text}"


def figures_html(
    head: Sequence[str], rows: Iterable[Sequence[str]], note: str = "", nowrap: bool = True, css: str = "figures"
) -> str:
    """A table of figures (CSS class `css`): the `head` cells (one alone spans the table), the `rows`,
    then the `note` (HTML)."""
    rows = list(rows)
    style = "font-size:13px;white-space:nowrap" if nowrap else "font-size:13px"
    span = f" colspan='{len(rows[0])}'" if len(head) == 1 and rows else ""
    ths = "".join(f"<th align='left'{span}>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table class='{css}' cellpadding='3' style='{style}'><tr>{ths}</tr>{body}</table>{note}"


class GoalBox:
    """Play for the most points or to beat a score: two buttons (CSS class `<game>-goal`) and the
    score to beat on a slider (`<game>-target`), live only when beating."""

    def __init__(self, game: str, words: tuple[str, str], target: str, value: int, top: int, sizes: str) -> None:
        label_width, width = sizes.split()
        self.goal = widgets.ToggleButtons(options=list(words), value=words[0], style={"button_width": "110px"})
        self.target = widgets.IntSlider(value, 0, top, description=target, disabled=True, continuous_update=False)
        self.target.style.description_width, self.target.layout.width = label_width, width
        self.goal.add_class(f"{game}-goal")
        self.target.add_class(f"{game}-target")
        play_for = widgets.HTML("<b>play for</b>&nbsp;", layout={"width": "62px"})
        self.widget = widgets.HBox([play_for, self.goal, self.target])

    @property
    def beat(self) -> bool:
        """Whether the goal is to beat the score (else the most points)."""
        return self.goal.value == self.goal.options[1]


class GoalDashboard(TableDashboard):
    """A dice page played for a goal: your turn alone, or a game against machine players.
    `restart()` deals the start, then `start()`: the machines before you play at once. Your moves
    (`roll()`, `stop()`) end with `after_move()`: once your turn is `over` in a game, `finish()`
    (the machines after you play), then `draw()`. A subclass gives these, `rules()`, `objective()`,
    `draw_choice()` (the hint) and `draw_chart()`; the words of its moves (Roll, Stop, New) and of
    the New button alone and in a game; how the machines may play (`machines`: the page's words
    and the game's policy names) and their policies (machine, rules, seats) -> {seat: policy}."""

    over_text = "the turn is over"
    new_words = ("New turn", "New game")
    machines: Mapping[str, str]
    machine_policies: Callable[..., dict[int, Policy]]
    move_words: tuple[str, str, str]
    chart_size = "300px chart"  # the chart pane's least height, and its name
    rules: Callable[[], Any]
    state: State
    start: Callable[[], None]
    roll: Callable[[], None]
    stop: Callable[[], None]
    draw: Callable[[], None]
    draw_choice: Callable[[], None]
    draw_chart: Callable[[], None]

    def __init__(self, seed: int | None = None) -> None:
        players = next(p for p in self.game.Rules.params if p.name == "players")
        super().__init__(seed, self.game.name, players, tuple(self.machines))
        moves = self.moves(self.move_words, (self.roll, self.stop, self.next))
        self.roll_button, self.stop_button, self.new_button = moves
        self.goal_box = widgets.HBox()
        self.log = widgets.HTML()
        self.sheet = TableHTML(name=f"{self.slug}-scores")
        self.chart = self.chart_pane(*self.chart_size.split())
        self.figures = TableHTML(name=f"{self.slug}-figures")

    @classmethod
    def app(cls, seed: int | None = None) -> Widget:
        """The page as one widget (what its dashboard shows)."""
        return cls(seed).view

    def watch(self, then: Callable[[], None], *controls: Widget) -> None:
        """Call `then()` through the rules guard (a bad value: a message) when a control changes."""
        for w in controls:
            w.observe(self.rules_guard(lambda _: then()), names="value")

    def play_for(self, box: GoalBox) -> GoalBox:
        """Play for the goal of `box` alone (hidden in a game): the chart and the hint follow it."""
        self.goal_box = box.widget
        self.watch(lambda: self.new_goal(box), box.goal, box.target)
        return box

    def lay_out(self, rules: Widget, turn: Sequence[Widget], right: Sequence[Widget], log: bool = True) -> None:
        """The page: who plays, the goal and the `rules`; your `turn` (its dice), the moves, the
        counter, the status, the log, the hint and the sheet; right, the chart, its figures, `right`."""
        mine = [*turn, widgets.HBox(self.actions), self.counter, self.status, *([self.log] if log else [])]
        left = [self.seats.mode, self.goal_box, self.seats.box, rules, self.messages.widget, *mine]
        right = [self.chart.widget, self.figures, *right]
        self.page([*left, self.hint.toggle, self.hint.widget, self.sheet], right, left_width="590px")

    def new_mode(self) -> None:
        """Alone or against the machine: the goal's controls only alone, and a fresh start."""
        self.goal_box.layout.display = "none" if self.seats.game else None
        self.restart()

    def new_goal(self, box: GoalBox | None = None) -> None:
        """Another goal (alone): the chart and the hint follow it; the turn goes on."""
        if box is not None:
            box.target.disabled = not box.beat
        self.draw_chart()
        self.draw_choice()

    def restart(self) -> None:
        """A new turn alone, or a new game: the machine players before you play at once (`start`)."""
        self.new_button.description = self.new_words[self.seats.game]
        self.rules_now = self.rules()
        self.messages.clear()
        self.you = self.seats.you if self.seats.game else 0
        self.state = self.game.initial_state(self.rules_now)
        self.start()

    def next(self) -> None:
        """The New button: a fresh start."""
        self.restart()

    def machines_play(self, seats: Iterable[int]) -> None:
        """The machine players at `seats` play (`nessus.play`) until a seat without one must move, or the end."""
        self.state = play(self.state, self.machine_policies(self.seats.machine.value, self.rules_now, seats), self.rng)

    def finish(self) -> None:
        """Your turn is over in a game: the machine players after your seat play."""
        self.machines_play(range(self.you + 1, self.rules_now.players))

    @property
    def over(self) -> bool:
        """Whether your turn is over."""
        raise NotImplementedError

    def check_open(self) -> None:
        """A ValueError (press New) once your turn is over."""
        if self.over:
            raise ValueError(f"{self.over_text}: press {self.new_button.description}")

    def after_move(self) -> None:
        """After your move: the message line cleared (said again while a field holds a bad value);
        once your turn is over in a game, the players after you play (`finish`); redraw."""
        try:
            self.rules()
            self.messages.clear()
        except ValueError as e:
            self.messages.error(str(e))
        if self.over and self.seats.game:
            self.finish()
        self.draw()
