"""Le Sept fatal (and Pig) dashboard: push your luck with two dice (a 7 wipes the turn) or with
one die (Pig: a 1 wipes it), alone for one turn played for points, or in a two-player game
against the machine.

Left: the switch between the two games, who plays, the dice, Roll / Hold, the turn total, the
hint panel (alone: the exact expected turn score after rolling and after holding; in a game:
P(you win) after each, by value iteration, in floats) and the score sheet. Right: the exact
score of one turn holding at N (a slider), the expected turn score for every N, and in a game
the turn total at which optimal play first holds, by the mover's position.

A game is the game's protocol state (`sept.State`, `pig.State`, which keeps every turn with its
rolls): the machine plays through `nessus.play.play` and the hint panel reads `state.hint()`.
The figures, words and charts are pure functions in `nessus.apps.sept_views`.
"""

from __future__ import annotations

from typing import cast

import ipywidgets as widgets

from nessus import pushluck as core
from nessus.apps import sept_play as p
from nessus.apps import sept_views as v
from nessus.games.pushluck import pig, sept
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import DiceTray, TableDashboard
from nessus.play import play
from nessus.solver import Hint


class SeptDashboard(TableDashboard):
    """The widgets of the Le Sept fatal (and Pig) page and the turn (or game) they play."""

    notebook, title = "le-sept-fatal.ipynb", "Le Sept fatal (and Pig)"
    sentence = (
        "Push your luck: roll as often as you like, adding to your turn total, and hold to bank it; in Le "
        "Sept fatal (two dice, three rounds, the highest total wins) a 7 wipes the turn, in Pig (one die, "
        "first to 100) a 1 does. Alone, play one turn for points with the exact expected score of each move; "
        "against the machine, the hint gives your chance of winning after each move. Beside (below on a "
        "phone): the exact score of one turn when you hold at N, and the expected score for every N."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "sept", sept.PLAYERS, p.MACHINES)
        self.switch = widgets.ToggleButtons(options=[p.SEPT, p.PIG], value=p.SEPT, style={"button_width": "150px"})
        self.switch.add_class("sept-game")
        self.rounds = self.param_field(sept.ROUNDS, width="150px")
        self.goal = self.param_field(pig.GOAL, width="150px")
        self.goal.widget.layout.display = "none"
        self.seats.box.children = (self.seats.seat, self.seats.machine, self.rounds.widget, self.goal.widget)
        self.hold_at = widgets.IntSlider(
            value=p.KINDS[p.SEPT].best[0],
            min=1,
            max=100,
            description="hold at N",
            continuous_update=False,
            style={"description_width": "70px"},
            layout=widgets.Layout(width="420px"),
        )
        self.hold_at.add_class("sept-hold")

        self.tray = DiceTray(2)
        self.roll_button, self.hold_button, self.new_button = self.moves(
            ("Roll 2 dice", "Hold", "New turn"), (self.roll, self.hold, self.restart)
        )
        self.total, self.advice, self.log = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.sheet = TableHTML(name="le-sept-fatal-scores")
        self.chart = self.chart_pane("250px", "turn-score")
        self.figures = TableHTML(name="le-sept-fatal-figures")
        self.means = self.chart_pane("240px", "mean-by-n")
        self.boundary = self.chart_pane("250px", "hold-boundary")
        self.boundary.widget.layout.display = "none"
        self._boundary_key: tuple | None = None
        self._quiet = False

        rules_guard = self.rules_guard
        self.switch.observe(rules_guard(lambda _: self.new_kind()), names="value")
        self.rounds.widget.observe(rules_guard(lambda _: self.restart()), names="value")
        self.goal.widget.observe(rules_guard(lambda _: self.restart()), names="value")
        self.hold_at.observe(rules_guard(lambda _: None if self._quiet else self.new_hold()), names="value")

        self.page(
            [
                widgets.HTML(
                    f"<style>.sept-bust .nessus-die{{outline:3px solid {p.BUST};"
                    "outline-offset:1px;border-radius:10px}</style>"
                ),
                widgets.HBox([widgets.HTML("<b>game</b>&nbsp;", layout=widgets.Layout(width="50px")), self.switch]),
                self.seats.mode,
                self.seats.box,
                self.messages.widget,
                widgets.HBox([self.tray.widget, self.total], layout=widgets.Layout(align_items="flex-end")),
                widgets.HBox([self.roll_button, self.hold_button, self.new_button]),
                self.counter,
                self.status,
                self.advice,
                self.hint.toggle,
                self.hint.widget,
                self.sheet,
                self.log,
            ],
            [self.hold_at, self.chart.widget, self.figures, self.means.widget, self.boundary.widget],
            left_width="590px",
        )
        self.seats.new_players()
        self.draw_charts()

    # -- controls -----------------------------------------------------------------------------
    @property
    def kind(self) -> p.Kind:
        """The game chosen by the switch."""
        return p.KINDS[self.switch.value]

    def size(self) -> int:
        """The game's rounds (Le Sept fatal) or goal (Pig), from its field."""
        return self.rounds.value() if self.kind.name == p.SEPT else self.goal.value()

    def field(self) -> str:
        """What the game's field holds: the number of rounds (Le Sept fatal) or the goal (Pig)."""
        return "number of rounds" if self.kind.name == p.SEPT else "goal"

    def new_kind(self) -> None:
        """The other game: its dice, its best hold on the slider, a new turn or game."""
        sept_now = self.kind.name == p.SEPT
        self.rounds.widget.layout.display = None if sept_now else "none"
        self.goal.widget.layout.display = "none" if sept_now else None
        self._quiet = True
        try:
            self.hold_at.value = self.kind.best[0]
        finally:
            self._quiet = False
        self.draw_charts()
        self.restart()

    def new_mode(self) -> None:
        """Alone or against the machine: a new turn or game (and the hold boundary chart in a game)."""
        self.new_button.description = "New game" if self.seats.game else "New turn"
        self.boundary.widget.layout.display = None if self.seats.game else "none"
        self._boundary_key = None
        self.restart()

    def new_hold(self) -> None:
        """Another N on the slider: the charts and the hold-at-N advice."""
        self.draw_charts()
        self.draw_advice()

    # -- a new turn or game ---------------------------------------------------------------------
    def restart(self) -> None:
        """A new turn alone, or a new game (the machine moves first when you sit second)."""
        self.made = self.moved = 0  # your rolls, your rolls and holds (this turn alone, this game)
        self.last: tuple[Hint | None, str, str] | None = None
        self.shown: tuple[int, ...] = ()  # your last roll
        self.note = ""  # how your last turn ended (in a game)
        self.alone: p.State = self.kind.fresh  # your turn alone: the first turn of a fresh game
        self.game: p.State | None = None
        if self.seats.game:
            try:
                size = self.size()
            except ValueError:
                self.draw()  # no game until the field is fixed
                raise
            self.new_game(size)
        self.messages.clear()
        self.draw()

    def new_game(self, size: int) -> None:
        """A new game of `size` rounds (or to goal `size`), solved first if need be."""
        name = self.kind.name
        if p.solving_text(name, size):
            self.status.value = v.status_html(p.solving_text(name, size))
        self.sol, self.game = p.new_game(name, size)
        self.you = self.seats.you
        self.machine_hold = None if self.seats.machine.value == p.MACHINES[0] else self.hold_at.value
        self.machine = p.machine_policy(name, self.machine_hold)
        self.machine_turns()

    # -- moves ---------------------------------------------------------------------------------------
    def now(self) -> tuple[p.Rolls, int, bool]:
        """This turn's rolls, the turn total, and whether the turn (alone) or the game is over."""
        if self.game:
            return self.game.rolls, self.game.turn_total, self.game.is_terminal()
        rolls, total, end = p.alone(self.alone)
        return rolls, total, end is not None

    def random_faces(self) -> tuple[int, ...]:
        """The faces of one roll of the game's dice."""
        return tuple(int(x) for x in self.rng.integers(1, 7, size=self.kind.dice))

    def roll(self) -> None:
        """Roll the dice: add their points, or lose the turn total on the bust."""
        self.move("roll", self.random_faces())

    def hold(self) -> None:
        """Bank the turn total (not before the turn's first roll)."""
        self.move("hold", None)

    def move(self, action: str, faces: tuple[int, ...] | None) -> None:
        """Your roll or hold (a ValueError when it is not allowed); in a game, the machine plays when your turn ends."""
        _, k, over = self.now()
        if self.seats.game and self.game is None:
            raise ValueError(f"type a valid {self.field()} to start a game")
        if over:
            raise ValueError(
                f"the {'game' if self.seats.game else 'turn'} is over: press {self.new_button.description}"
            )
        if action == "hold" and not k:
            raise ValueError("the first roll of a turn is compulsory: press Roll")
        hint: Hint | None = self.game.hint() if self.game else self.alone.hint(core.Points())
        if hint is not None and hint.method == "heuristic":
            hint = None  # off the solved grid: no verdict
        self.last, self.note = (hint, action, f"at turn total {k}"), ""
        if self.game is None:
            self.alone = self.alone.hold() if faces is None else self.alone.roll(dice=faces)
        else:
            turns = len(self.game.history)
            self.game = self.game.hold() if faces is None else self.game.roll(dice=faces)
            if len(self.game.history) > turns:  # your turn ended
                self.note = v.your_note(self.kind, self.game.history[-1])
                self.machine_turns()
        if faces:
            self.shown, self.made = faces, self.made + 1
        self.moved += 1
        self.messages.clear()
        self.draw()

    def machine_turns(self) -> None:
        """The machine plays (`nessus.play.play`, the dice drawn exactly) until your turn or the end."""
        if self.game is not None:
            self.game = cast(p.State, play(self.game, {1 - self.you: self.machine}, self.rng))

    # -- drawing ------------------------------------------------------------------------------------
    def draw(self) -> None:
        """Everything that follows the turn or game (the counter last: the page is then up to date)."""
        kind = self.kind
        if self.seats.game and self.game is None:
            self.draw_no_game()
            return
        rolls, k, over = self.now()
        dice = "two dice" if kind.dice == 2 else "die"
        self.tray.show(self.shown, active=False, empty="" if self.shown else f"Press Roll to throw the {dice}.")
        bust = bool(self.shown) and kind.busts(self.shown)
        (self.tray.widget.add_class if bust else self.tray.widget.remove_class)("sept-bust")
        self.total.value = v.total_html(k)
        self.roll_button.description = "Roll 2 dice" if kind.dice == 2 else "Roll the die"
        self.roll_button.disabled = over
        self.hold_button.disabled = over or k == 0
        self.hold_button.description = f"Hold: bank {k}" if k else "Hold"
        if self.game:
            self.status.value = v.status_html(
                v.game_status(self.game, self.you, self.note), v.result_text(self.game, self.you)
            )
            machine = "optimal" if self.machine_hold is None else f"hold at {self.machine_hold}"
            self.sheet.value = v.sheet_html(self.game, self.sol, self.you, machine, self.seats.row_style)
            self.log.value = v.log_html(v.turn_lines(self.game, self.you, kind))
        else:
            self.status.value = v.status_html(v.turn_status(kind, self.alone))
            self.sheet.value = self.log.value = ""
        self.draw_advice()
        self.draw_hint()
        self.draw_boundary()
        self.counter.value = v.counter_html(self.made, self.moved, rolls, kind)

    def draw_no_game(self) -> None:
        """No game while the rounds (or goal) field holds a bad value."""
        self.tray.show((), active=False)
        self.total.value = "<div class='sept-total' data-total='0'></div>"
        self.roll_button.disabled = self.hold_button.disabled = True
        self.status.value = v.status_html(f"Type a valid {self.field()} to start a game.")
        self.sheet.value = self.log.value = self.advice.value = ""
        self.hint.show(None, "No game yet.")
        self.counter.value = v.counter_html(self.made, self.moved)

    def draw_advice(self) -> None:
        """What hold-at-N says now, and the best N for points."""
        _, k, over = self.now()
        self.advice.value = v.advice_html(self.kind, self.hold_at.value, k, over)

    def draw_hint(self) -> None:
        """The value of rolling and of holding now (exact alone; P(win) by value iteration in a game)."""
        g = self.game
        self.hint.offer = (
            "your chance of winning after each move (value iteration)"
            if g
            else "the exact expected turn score after each move"
        )
        verdict = v.verdict_html(self.last, g is not None)
        if g is None and not self.now()[2]:
            self.hint.show(lambda: v.points_hint_html(self.alone, verdict))
        elif g is None or g.is_terminal():
            self.hint.show(None, verdict + f"The {'turn' if g is None else 'game'} is over: no move is left to weigh.")
        elif (h := g.hint()).method == "heuristic":
            self.hint.show(
                None,
                verdict + "The lead is beyond the solved grid: whoever is that far ahead holds, whoever "
                "is that far behind rolls.",
            )
        else:
            self.hint.show(lambda: v.win_hint_html(g, self.sol, h, verdict))

    def draw_charts(self) -> None:
        """One turn's exact score holding at N, and the expected score for every N."""
        n = self.hold_at.value
        self.chart.show(v.turn_chart(self.kind, n))
        self.figures.value = v.figures_html(self.kind, n)
        self.means.show(v.means_chart(self.kind, n))

    def draw_boundary(self) -> None:
        """In a game: the turn total at which optimal play first holds, by the mover's position, this turn."""
        if self.game and not self.game.is_terminal() and v.boundary_key(self.game) != self._boundary_key:
            self._boundary_key = v.boundary_key(self.game)
            self.boundary.show(v.boundary_chart(self.game, self.sol))


def app(seed: int | None = None) -> widgets.Widget:
    """The Le Sept fatal (and Pig) dashboard as one widget."""
    return SeptDashboard(seed).view
