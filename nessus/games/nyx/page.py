"""Nyx dashboard: roll symbol dice, keep one symbol or reroll with the exact expected rolls of
every keep beside you, and place a dream's shape on the 3x3 matrix by clicking its cells.

Left: your dice (black and white, how many: validated, a bad count is a message and disables
Roll), the tray (click a die to keep it, as in Le Palais), Roll and the roll counter, the hint
(every keep with its exact expected rolls still to come). Right: the matrix (a shape, the cells
of its valid placements on the free cells in green, your picked cells in orange, Place / Best
placement / Clear matrix), the shape's exact figures with your dice, and the charts: P(at least
k of a symbol within r rolls) for black and white dice, and the expected rolls for a dream of
each size with 6 black, 6 black + 1 white and 7 black dice. Below: a game against the `odds` and
`greedy` bots (a `kit.match.Match`, 2 to 4 players, you in seat 1): the table, a few of your
legal moves as buttons, the heuristic hint (`State.hint`), the log of every move and who won.

The page holds the widgets and what each does; the game decides: your dice are a
`policies.Hand` (what a roll keeps and throws, what Place takes), your matrix a `matrix.Board`,
the hint the objective `policies.Fewest(shape)`. The pictures and words are pure functions in
`views` (the tray, the hint, the matrix, the charts), `dice` (the symbol dice) and `night` (the
night against bots: the table, the moves offered, the log's lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import ipywidgets as widgets

from nessus import game as protocol
from nessus.games.nyx import GAME, night
from nessus.games.nyx import views as v
from nessus.games.nyx.dice import PLURAL, TRAY_NOTE, counter_html, faces_table, roll_label, status_html, tray_words
from nessus.games.nyx.matrix import CELLS, Board
from nessus.games.nyx.policies import Fewest, Hand
from nessus.games.nyx.rules import HAND_BLACK, HAND_WHITE, SYMBOLS, Rules
from nessus.games.nyx.state import State, initial_state
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import HintPanel
from nessus.kit.match import Match, log_html, result_line, seat_name

MAX_TRAY = int(HAND_BLACK.hi) + int(HAND_WHITE.hi)


class NyxDashboard(Dashboard):
    """The widgets of the Nyx page: your dice and their hint, the matrix, the charts."""

    game = GAME
    sentence = (
        "Symbol dice: a black die shows 3 stars, 2 crescents and 1 full moon, a white die 2 of each. A dream asks "
        "for dice all showing one symbol (any symbol), placed on free cells of your 3x3 matrix in the card's shape, "
        "turned or flipped as you like. Roll, keep one symbol and reroll the rest, with the exact expected rolls of "
        "every keep beside you; then place the dream. Beside (below on a phone): the odds of each symbol."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.black = self.param_field(HAND_BLACK, width="150px")
        self.black.widget.add_class("nyx-black-count")
        self.white = self.param_field(HAND_WHITE, width="150px")
        self.white.widget.add_class("nyx-white-count")
        self.tray = v.SymbolTray(MAX_TRAY, on_change=self.guard(lambda: self.draw_choice()))
        self.roll_button = widgets.Button(description="Roll 6 dice", button_style="primary", icon="refresh")
        self.roll_button.add_class("roll-button")
        self.actions = [self.roll_button]
        self.counter, self.status = widgets.HTML(), widgets.HTML()
        self.hint = HintPanel("the exact expected rolls still to come after each keep")

        self.shape = widgets.Dropdown(
            options=v.shape_options(),
            value="L4",
            description="dream",
            style={"description_width": "45px"},
            layout=widgets.Layout(width="230px"),
        )
        self.shape.add_class("nyx-shape")
        self.preview = widgets.HTML()
        self.cells = [widgets.Button() for _ in CELLS]  # drawn by draw_matrix
        for cell, b in zip(CELLS, self.cells):
            b.on_click(self.guard(lambda _, cell=cell: self.set_board(self.board.pick(cell))))
        self.grid = widgets.GridBox(self.cells)
        self.grid.add_class("nyx-matrix")
        self.place_button = widgets.Button(description="Place", button_style="success", icon="check")
        self.place_button.add_class("place-button")
        self.best_button = widgets.Button(description="Best placement", tooltip="the placement that keeps most room")
        self.best_button.add_class("best-button")
        self.clear_button = widgets.Button(description="Clear matrix", tooltip="free every cell, take the dice back")
        self.clear_button.add_class("clear-button")
        self.pick = widgets.HTML()
        self.figures = TableHTML(name="nyx-figures")

        self.symbol = widgets.ToggleButtons(
            options=[(PLURAL[s], s) for s in SYMBOLS], value="moon", style={"button_width": "90px"}
        )
        self.symbol.add_class("nyx-symbol")
        self.rolls = widgets.IntSlider(
            value=3, min=1, max=6, description="rolls", style={"description_width": "40px"}, continuous_update=False
        )
        self.rolls.add_class("nyx-rolls")
        self.odds = self.chart_pane("280px", "at-least")
        self.sizes = self.chart_pane("280px", "expected-rolls")
        self.players = widgets.Dropdown(
            options=[2, 3, 4], value=2, description="players", layout=widgets.Layout(width="140px")
        )
        self.players.add_class("nyx-players")
        self.new_button = widgets.Button(description="New game", icon="refresh", button_style="primary")
        self.new_button.add_class("nyx-new-game")
        self.table, self.prompt, self.log = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.moves = widgets.VBox()
        self.moves.add_class("nyx-moves")
        head = widgets.HTML(night.head_html())
        controls = widgets.HBox([self.players, self.new_button], layout=widgets.Layout(flex_flow="row wrap"))
        self.night = widgets.VBox([head, controls, self.table, self.prompt, self.moves, self.log])
        self.night.add_class("nyx-night")

        self.black.widget.observe(self.rules_guard(lambda _: self.new_hand()), names="value")
        self.white.widget.observe(self.rules_guard(lambda _: self.new_hand()), names="value")
        self.roll_button.on_click(self.guard(lambda _: self.roll()))
        self.shape.observe(self.guard(lambda _: self.new_shape()), names="value")
        self.place_button.on_click(self.guard(lambda _: self.place()))
        self.best_button.on_click(self.guard(lambda _: self.set_board(self.board.best(self.shape.value))))
        self.clear_button.on_click(self.guard(lambda _: self.clear()))
        self.symbol.observe(self.guard(lambda _: self.draw_odds()), names="value")
        self.new_button.on_click(self.guard(lambda _: self.new_game()))
        self.rolls.observe(self.guard(lambda _: self.draw_odds()), names="value")

        self.page(
            [
                widgets.HTML(v.page_css()),
                widgets.HBox([self.black.widget, self.white.widget]),
                self.messages.widget,
                widgets.HTML(TRAY_NOTE),
                self.tray.widget,
                widgets.HBox([self.roll_button, self.counter], layout=widgets.Layout(align_items="center")),
                self.status,
                self.hint.toggle,
                self.hint.widget,
                widgets.HTML(faces_table()),
            ],
            [
                widgets.HTML("<h4 style='margin:4px 0'>Your dream matrix</h4>"),
                widgets.HBox([self.shape, self.preview], layout=widgets.Layout(align_items="center")),
                self.grid,
                widgets.HBox([self.place_button, self.best_button, self.clear_button]),
                self.pick,
                self.figures,
                widgets.HTML("<h4 style='margin:8px 0 2px'>The odds</h4>"),
                widgets.HBox([self.symbol, self.rolls]),
                self.odds.widget,
                self.sizes.widget,
            ],
            below=[self.night],
            left_width="440px",
        )
        self.new_hand()
        self.draw_odds()
        self.sizes.show(v.expected_chart(self.goal.size))
        self.new_game()

    # -- a night against bots ---------------------------------------------------------------------
    def new_game(self) -> None:
        """A new game with the chosen number of players: the deal, your first roll (`kit.match.Match`)."""
        rules = Rules(players=int(self.players.value))
        bots, seats = night.seats(rules)
        self.who = [seat_name(p, bots) for p in range(rules.players)]

        def result(s: protocol.State) -> str:
            assert isinstance(s, State)
            return result_line(s, bots, scores=s.scores)

        told = partial(night.move_line, names=self.who)
        self.match = Match(initial_state(rules), seats, self.rng, bots, told, result)
        self.games = getattr(self, "games", 0) + 1
        self.match.lines.append(f"New game: you against {', '.join(bots[1:])}.")
        self.messages.clear()
        self.match.advance()
        self.draw_night()

    def move(self, action: protocol.Action) -> None:
        """Your move, then chance's and the bots' until it is yours again."""
        self.match.move(action)
        self.messages.clear()
        self.draw_night()

    def draw_night(self) -> None:
        """The table, your move's buttons (the hint's move highlighted), the log."""
        s = self.match.state
        assert isinstance(s, State)
        self.table.value = night.table_html(s, self.who)
        self.log.value = log_html(self.match.lines, "nyx-log")
        best = None if s.is_terminal() else s.hint().best
        self.prompt.value = night.prompt_html(s, self.games, best, self.match.lines[-1])
        rows = []
        for group, shown in night.offered(s, best).items():
            buttons = []
            for _, label, action in shown:
                style = "info" if action == best else ""
                b = widgets.Button(description=label, tooltip=s.describe(action), button_style=style)
                b.add_class("nyx-move")
                b.add_class(f"move-{type(action).__name__.lower()}")
                b.on_click(self.guard(lambda _, a=action: self.move(a)))
                buttons.append(b)
            head = widgets.HTML(f"<small style='min-width:110px;display:inline-block'><b>{group}</b></small>")
            box = widgets.HBox([head, *buttons])
            box.add_class("nyx-group")
            rows.append(box)
        self.moves.children = tuple(rows)

    # -- your dice --------------------------------------------------------------------------------
    @property
    def goal(self) -> Fewest:
        """What the dice chase: the chosen dream in the fewest rolls."""
        return Fewest(self.shape.value)

    def new_hand(self) -> None:
        """New dice counts (a bad one: a ValueError, Roll disabled): the matrix is cleared, every die unrolled."""
        self.n_black, self.n_white = int(self.black.value()), int(self.white.value())
        self.messages.clear()
        self.clear()

    def clear(self) -> None:
        """A fresh night: every cell free, every die back in the tray, unrolled."""
        self.board = Board()
        self.hand = Hand.of(self.n_black, self.n_white)
        self.draw_dice()
        self.draw_matrix()

    def roll(self) -> None:
        """Keep the dice marked kept (one symbol) and roll the others (`Hand.roll`)."""
        if self.blocked:
            raise ValueError("fix the number of dice first")
        self.hand = self.hand.roll(self.tray.held, self.goal, self.rng)
        self.messages.clear()
        self.draw_dice()

    def draw_dice(self) -> None:
        """The tray (before a roll: the dice to roll), the Roll button, the counter, the status line and the hint."""
        self.tray.colours = list(self.hand.colours)
        self.tray.show(self.hand.faces, self.hand.held or None, empty=tray_words(self.hand))
        self.counter.value = counter_html(self.hand.made)
        self.status.value = status_html(self.hand)
        self.draw_choice()

    def draw_choice(self) -> None:
        """The Roll label and the hint for the dice marked kept."""
        held = list(self.tray.held)
        self.roll_button.description = roll_label(len(self.hand.colours) - sum(held))
        hand, goal = self.hand, self.goal
        idle = v.hint_idle(hand, goal)
        self.hint.show(None if idle else lambda: v.hint_html(hand, goal, held), idle or "")

    # -- the matrix ---------------------------------------------------------------------------------
    def set_board(self, board: Board) -> None:
        """Show the board after a pick: a cell picked or unpicked (`Board.pick`), the best placement (`Board.best`)."""
        self.board = board
        self.draw_matrix()

    def new_shape(self) -> None:
        self.board = Board(self.board.taken)
        self.messages.clear()
        self.draw_matrix()
        self.draw_choice()
        self.sizes.show(v.expected_chart(self.goal.size))

    def place(self) -> None:
        """Put dice of one symbol on the picked cells: they leave the tray and the cells are taken."""
        shape, picked = self.shape.value, self.board.picked
        self.board.check(shape)
        symbol, self.hand = self.hand.place(self.tray.held, self.goal.size)
        self.board = self.board.place(shape, symbol)
        self.messages.clear()
        self.draw_dice()
        self.status.value = v.placed_html(shape, symbol, picked, len(self.hand.colours))
        self.draw_matrix()

    def draw_matrix(self) -> None:
        """The cells (taken, picked, in a fitting placement), the pick's words, the shape's figures."""
        shape, board = self.shape.value, self.board
        for cell, b in zip(CELLS, self.cells):
            b._dom_classes, b.description, b.tooltip = v.cell_look(cell, board, shape)
        self.place_button.disabled = not board.ready(shape)
        self.preview.value = night.shape_preview(shape)
        self.pick.value = v.pick_html(shape, board)
        self.figures.value = v.figures_html(shape, board.taken, self.n_black, self.n_white)

    # -- charts -----------------------------------------------------------------------------------
    def draw_odds(self) -> None:
        """P(at least k of the symbol within the rolls), black dice beside white dice."""
        self.odds.show(v.at_least_chart(self.symbol.value, self.rolls.value))


def app(seed: int | None = None) -> widgets.Widget:
    """The Nyx dashboard as one widget."""
    return NyxDashboard(seed).view


__all__: Sequence[str] = ("NyxDashboard", "app")
