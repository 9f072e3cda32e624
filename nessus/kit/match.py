"""A match on a page: a game's state, the machine's seats and the log, played through
`nessus.play`: `move(action)` plays the person's move, then `advance()` lets chance and the
machine play until it is the person's move again or the game ends (tests: tests/kit/)."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from nessus.game import Action, Policy, State
from nessus.play import play

Describe = Callable[[State, Action], str | None]
"""A move told in words (`state` before `action`), or None for a move the log leaves out."""


def seat_name(seat: int, names: Sequence[str], you: int | None = 0) -> str:
    """ "you" for the person's seat, else "player 3 (greedy)" (seats from 0, `names[seat]` the
    policy playing it)."""
    return "you" if seat == you else f"player {seat + 1} ({names[seat]})"


def winners_text(returns: Sequence[Fraction], names: Sequence[str], you: int | None = 0) -> str:
    """Who won, from the returns of a game with a winner: "you win", "player 2 (odds) wins",
    "you and player 3 (odds) share the win"."""
    best = max(returns)
    won = [p for p, r in enumerate(returns) if r == best and r > 0]
    who = " and ".join(seat_name(p, names, you) for p in won)
    verb = "win" if won == [you] else "wins" if len(won) == 1 else "share the win"
    return f"{who} {verb}"


def result_line(state: State, names: Sequence[str], you: int | None = 0, scores: Sequence[object] = ()) -> str:
    """The log's last line: "Game over: you win, 12 – 9 points." (`scores` when given)."""
    points = f", {' – '.join(map(str, scores))} points" if scores else ""
    return f"Game over: {winners_text(state.returns(), names, you)}{points}."


def log_html(lines: Sequence[str], css_class: str = "", keep: int = 80, escape: bool = True) -> str:
    """The log as HTML, the latest line first (the last `keep` lines; `data-lines` counts them
    all). Lines are text (escaped) unless `escape` is False (lines a page built as HTML)."""
    shown = [html.escape(line) if escape else line for line in reversed(lines[-keep:])]
    body = "".join(f"<div>{line}</div>" for line in shown)
    classes = f"nessus-log {css_class}".strip()
    return f"<div class='{classes}' data-lines='{len(lines)}'>{body}</div>"


@dataclass
class Match:
    """A game being played on a page: `state`, the machine's `seats` (seat -> policy; the
    person's seats have none), the random generator for chance, the log's `lines`, and the
    policy `names` of the seats for the log. `describe(state, action)` tells a move, and
    `result(state)` the end (default: `result_line`). `until(state)`, when given, pauses
    `advance()` early, where it is true (e.g. at a round's end, for a page played round by round)."""

    state: State
    seats: Mapping[int, Policy]
    rng: np.random.Generator
    names: Sequence[str] = ()
    describe: Describe | None = None
    result: Callable[[State], str] | None = None
    you: int | None = 0
    lines: list[str] = field(default_factory=list)
    made: int = 0
    until: Callable[[State], bool] | None = None

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.is_terminal()

    def your_move(self) -> bool:
        """Whether the person (`you`) is to move."""
        return not self.over and self.state.current_player() == self.you

    def check(self, action: Action) -> None:
        """A ValueError saying why the person cannot play `action` now, else nothing."""
        if self.over:
            raise ValueError("the game is over: press New game")
        if not self.your_move():
            raise ValueError("it is not your turn")
        if action not in self.state.legal_actions():
            raise ValueError(f"you cannot {action} now")

    def tell(self, state: State, action: Action) -> None:
        """Write `action` (played from `state`) in the log, if `describe` tells it."""
        line = self.describe(state, action) if self.describe else None
        if line:
            self.lines.append(line)

    def move(self, action: Action) -> None:
        """The person's move (checked), then chance's and the machine's until it is theirs again."""
        self.check(action)
        self.tell(self.state, action)
        self.state = self.state.apply(action)
        self.made += 1
        self.advance()

    def advance(self) -> None:
        """Chance and the machine play (`nessus.play.play`) until a seat without a policy must
        move, `until(state)` is true, or the game ends; the end is written in the log."""
        self.state = play(self.state, dict(self.seats), self.rng, on_move=self.tell, until=self.until)
        if self.over:
            self.lines.append(self.result(self.state) if self.result else result_line(self.state, self.names, self.you))
