"""Nyx's page: your dice (a `policies.Hand`) chasing a dream with the exact expected rolls of every
keep (`policies.Fewest`), your matrix (a `matrix.Board`), the odds, and a game against bots."""

from __future__ import annotations

from functools import partial

import ipywidgets as widgets

from nessus import game as protocol
from nessus.games.nyx import GAME, night
from nessus.games.nyx import views as v
from nessus.games.nyx.matrix import CELLS, Board
from nessus.games.nyx.policies import Fewest, Hand, offered, policies
from nessus.games.nyx.rules import BOT_NAMES, BOTS, HAND_BLACK, HAND_WHITE, PLURAL, SYMBOLS, Rules
from nessus.games.nyx.state import State, initial_state
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML
from nessus.kit.hint import HintPanel, rollout_table
from nessus.kit.match import Match, log_html, result_line, seat_name
from nessus.rules import seat_names

MAX_TRAY = int(HAND_BLACK.hi) + int(HAND_WHITE.hi)


class NyxDashboard(Dashboard):
    """The widgets of the Nyx page: your dice and their hint, the matrix, the charts, a night against bots."""

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
        self.white = self.param_field(HAND_WHITE, width="150px")
        for field, css in ((self.black, "nyx-black-count"), (self.white, "nyx-white-count")):
            field.widget.add_class(css)
            field.widget.observe(self.rules_guard(lambda _: self.new_hand()), names="value")
        self.tray = v.SymbolTray(MAX_TRAY, on_change=self.guard(lambda: self.draw_choice()))
        self.roll_button = self.button("Roll 6 dice", self.roll, "roll-button", button_style="primary", icon="refresh")
        self.actions, self.counter, self.status = [self.roll_button], widgets.HTML(), widgets.HTML()
        self.hint = HintPanel("the exact expected rolls still to come after each keep")
        self.odds_hint = HintPanel("each move's chance to win against the bots, by rollouts")
        self.odds_hint.toggle.remove_class("hint-toggle").add_class("nyx-odds-toggle")  # .hint-toggle: the chase's
        self.shape = widgets.Dropdown(options=v.shape_options(), value="L4", description="dream")
        self.shape.layout.width, self.shape.style.description_width = "230px", "45px"
        self.shape.add_class("nyx-shape")
        self.shape.observe(self.guard(lambda _: self.new_shape()), names="value")
        self.preview, self.pick, self.figures = widgets.HTML(), widgets.HTML(), TableHTML(name="nyx-figures")
        self.cells = [self.button("", partial(self.pick_cell, cell), "") for cell in CELLS]
        self.grid = widgets.GridBox(self.cells, _dom_classes=["nyx-matrix"])  # the cells drawn by draw_matrix
        self.place_button = self.button("Place", self.place, "place-button", button_style="success", icon="check")
        best = "the placement that keeps most room"
        self.best_button = self.button("Best placement", self.best_placement, "best-button", tooltip=best)
        clear = "free every cell, take the dice back"
        self.clear_button = self.button("Clear matrix", self.clear, "clear-button", tooltip=clear)
        self.symbol = widgets.ToggleButtons(options=[(PLURAL[s], s) for s in SYMBOLS], value="moon")
        self.rolls = widgets.IntSlider(value=3, min=1, max=6, description="rolls", continuous_update=False)
        self.symbol.style.button_width, self.rolls.style.description_width = "90px", "40px"
        for control, css in ((self.symbol, "nyx-symbol"), (self.rolls, "nyx-rolls")):
            control.add_class(css)
            control.observe(self.guard(lambda _: self.draw_odds()), names="value")
        self.odds, self.sizes = self.chart_pane("280px", "at-least"), self.chart_pane("280px", "expected-rolls")
        self.players = widgets.Dropdown(options=[2, 3, 4], value=2, description="players", layout={"width": "140px"})
        self.players.add_class("nyx-players")
        self.new_button = self.button("New game", self.new_game, "nyx-new-game", button_style="primary", icon="refresh")
        self.table, self.prompt, self.log = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.moves = widgets.VBox(_dom_classes=["nyx-moves"])
        controls = widgets.HBox([self.players, self.new_button], layout={"flex_flow": "row wrap"})
        night_box = [widgets.HTML(night.HEAD), controls, self.table, self.prompt, self.moves, self.odds_hint.toggle]
        self.night = widgets.VBox([*night_box, self.odds_hint.widget, self.log], _dom_classes=["nyx-night"])
        css, counts = widgets.HTML(v.page_css()), widgets.HBox([self.black.widget, self.white.widget])
        dice = [css, counts, self.messages.widget, widgets.HTML(night.TRAY_NOTE), self.tray.widget]
        roll = widgets.HBox([self.roll_button, self.counter], layout={"align_items": "center"})
        hint = [self.status, self.hint.toggle, self.hint.widget, widgets.HTML(night.faces_table())]
        shape = widgets.HBox([self.shape, self.preview], layout={"align_items": "center"})
        buttons = widgets.HBox([self.place_button, self.best_button, self.clear_button])
        matrix = [widgets.HTML("<h4 style='margin:4px 0'>Your dream matrix</h4>"), shape, self.grid, buttons]
        odds = [widgets.HTML("<h4 style='margin:8px 0 2px'>The odds</h4>"), widgets.HBox([self.symbol, self.rolls])]
        figures = [self.pick, self.figures, *odds, self.odds.widget, self.sizes.widget]
        self.page([*dice, roll, *hint], [*matrix, *figures], below=[self.night], left_width="440px")
        self.new_hand()
        self.draw_odds()
        self.sizes.show(v.expected_chart(self.goal.size))
        self.new_game()

    def new_game(self) -> None:
        """A new game with the chosen number of players: the deal, your first roll (`kit.match.Match`)."""
        rules = Rules(players=int(self.players.value))
        bots, named = ("you", *seat_names(str(BOTS.default), rules.players - 1, BOT_NAMES)), policies(rules)
        self.who, self.model = [seat_name(p, bots) for p in range(rules.players)], ("odds", *bots[1:])
        seats = {p: named[b] for p, b in enumerate(bots) if p}
        told = partial(State.told, names=self.who)
        self.match = Match(initial_state(rules), seats, self.rng, bots, told, self.result)  # type: ignore[arg-type]
        self.games = getattr(self, "games", 0) + 1
        self.match.lines.append(f"New game: you against {', '.join(bots[1:])}.")
        self.messages.clear()
        self.match.advance()
        self.draw_night()

    def result(self, s: State) -> str:
        """The log's last line: who won, with the points (`kit.match.result_line`)."""
        return result_line(s, self.match.names, scores=s.scores)

    def move(self, action: protocol.Action) -> None:
        """Your move, then chance's and the bots' until it is yours again."""
        self.match.move(action)
        self.messages.clear()
        self.draw_night()

    def draw_night(self) -> None:
        """The table, your moves' buttons by group (the hint's move highlighted), the prompt, the log."""
        s = self.match.state
        assert isinstance(s, State)
        self.table.value, self.log.value = night.table_html(s, self.who), log_html(self.match.lines, "nyx-log")
        best = None if s.is_terminal() else s.hint().best
        self.prompt.value = night.prompt_html(s, self.games, best, self.match.lines[-1])
        rows, groups = [], offered(s, best)
        for group, shown in groups.items():
            buttons = []
            for _, label, action in shown:
                css, style = f"nyx-move move-{type(action).__name__.lower()}", "info" if action == best else ""
                click = partial(self.move, action)
                buttons.append(self.button(label, click, css, button_style=style, tooltip=s.describe(action)))
            head = widgets.HTML(f"<small style='min-width:110px;display:inline-block'><b>{group}</b></small>")
            rows.append(widgets.HBox([head, *buttons], _dom_classes=["nyx-group"]))
        self.moves.children = tuple(rows)
        words = {a: label for shown in groups.values() for _, label, a in shown}
        self.odds_hint.show(None if s.is_terminal() else partial(self.odds_html, s, words), "The game is over.")

    def odds_html(self, s: State, words: dict[protocol.Action, str]) -> str:
        """Each move's chance to win against the bots, by rollouts (named as its button)."""
        hint = s.hint(method="rollout", bots=self.model)
        return rollout_table(hint, None, lambda a: words.get(a) or s.describe(a), "final points")  # type: ignore[arg-type]

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
        self.board, self.hand = Board(), Hand.of(self.n_black, self.n_white)
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
        """The tray (before a roll: the dice to roll), the counter, the status line, then `draw_choice`."""
        self.tray.colours = list(self.hand.colours)
        self.tray.show(self.hand.faces, self.hand.held or None, empty=night.tray_words(self.hand))
        self.counter.value = night.counter_html(self.hand.made)
        self.status.value = night.status_html(self.hand)
        self.draw_choice()

    def draw_choice(self) -> None:
        """The Roll label and the hint for the dice marked kept (`Fewest.idle`: why it has none)."""
        held = list(self.tray.held)
        self.roll_button.description = night.roll_label(len(self.hand.colours) - sum(held))
        hand, goal, idle = self.hand, self.goal, self.goal.idle(self.hand)
        self.hint.show(None if idle else lambda: v.hint_html(hand, goal, held), idle or "")

    def pick_cell(self, cell: int) -> None:
        """Pick or unpick a free cell (`Board.pick`)."""
        self.board = self.board.pick(cell)
        self.draw_matrix()

    def best_placement(self) -> None:
        """Pick the placement that keeps most room for later dreams (`Board.best`)."""
        self.board = self.board.best(self.shape.value)
        self.draw_matrix()

    def new_shape(self) -> None:
        """Another dream: nothing picked, the hint and the expected-rolls chart for its size."""
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

    def draw_odds(self) -> None:
        """P(at least k of the symbol within the rolls), black dice beside white dice."""
        self.odds.show(v.at_least_chart(self.symbol.value, self.rolls.value))


def app(seed: int | None = None) -> widgets.Widget:
    """The Nyx dashboard as one widget."""
    return NyxDashboard(seed).view
