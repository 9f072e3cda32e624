"""Nyx dashboard: roll symbol dice, keep one symbol or reroll with the exact expected rolls of
every keep beside you, and place a dream's shape on the 3x3 matrix by clicking its cells.

Left: your dice (black and white, how many: validated, a bad count is a message and disables
Roll), the tray (click a die to keep it, as in Le Palais), Roll and the roll counter, the hint
(every keep with its exact expected rolls still to come for the chosen shape's size:
`odds.keep_hint`, or `odds.shape_game(...).hint` with white dice). Right: the matrix (a shape,
the cells of its valid placements on the free cells in green, your picked cells in orange,
Place / Best placement / Clear matrix), the shape's exact figures with your dice, and the charts:
P(at least k of a symbol within r rolls) for black and white dice (the symbol and the rolls
change it), and the expected rolls for a dream of each size with 6 black, 6 black + 1 white and
7 black dice.

Below: a game against bots (`self.night`, a `kit.match.Match`): New game (2 to 4 players, you in seat 1, the `odds`
and `greedy` bots of `nessus.games.nyx.policies` in the others), the
table (the face-up dreams and spells, every player's points, dice and matrix), a few of your
legal moves as buttons (`night.choices`: the rerolls as "keep a symbol, reroll the rest" and
"reroll all", the dreams best placement first, spells, buying dice, passing, ending the night),
the heuristic hint (`State.hint`), the log of every move and who won.

The pictures and words are pure functions in `views` (the dice, the matrix, the charts) and
`night` (the night against bots).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import ipywidgets as widgets

from nessus import game
from nessus.games.nyx import night
from nessus.games.nyx import views as v
from nessus.games.nyx.matrix import CELLS, NAMES, SHAPES, best_placements, placements
from nessus.games.nyx.odds import Keep, keep_hint, shape_game
from nessus.games.nyx.policies import policies as bot_policies
from nessus.games.nyx.rules import FACES, SYMBOLS, Rules
from nessus.games.nyx.state import State, initial_state
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import DiceTray, HintPanel
from nessus.kit.match import Match, log_html, result_line, seat_name
from nessus.rules import Param
from nessus.solver import Hint

BLACK = Param("black", 6, 1, 9, "black dice you roll (6 at the start, at most 9)")
WHITE = Param("white", 0, 0, 3, "white dice bought for this night (the reserve holds 3 per player)")
MAX_TRAY = int(BLACK.hi) + int(WHITE.hi)
SIDES = {colour: [i for i, n in enumerate(counts) for _ in range(n)] for colour, counts in FACES.items()}
"""A die's six faces as symbol indices (black: 3 stars, 2 crescents, 1 moon; white: 2 of each)."""


class SymbolTray(DiceTray):
    """The dice tray with symbol dice: `faces` are symbol indices (0 star, 1 crescent, 2 moon),
    `colours` each die's colour; a die's classes are `face-<index + 1>`, `nyx-<colour>`, `sym-<symbol>`."""

    def __init__(self, size: int, on_change: Callable[[], None] | None = None) -> None:
        self.colours: list[str] = []
        super().__init__(size, "kept", on_change)

    def _classes(self, i: int) -> tuple[str, ...]:
        symbol = SYMBOLS[self.faces[i]]
        return ("nyx-die", f"face-{self.faces[i] + 1}", f"nyx-{self.colours[i]}", f"sym-{symbol}")

    def _describe(self, i: int) -> str:
        return f"{self.colours[i]} die showing a {SYMBOLS[self.faces[i]]}"


class NyxDashboard(Dashboard):
    """The widgets of the Nyx page: your dice and their hint, the matrix, the charts."""

    notebook, title = "nyx.ipynb", "Nyx"
    sentence = (
        "Symbol dice: a black die shows 3 stars, 2 crescents and 1 full moon, a white die 2 of each. A dream asks "
        "for dice all showing one symbol (any symbol), placed on free cells of your 3x3 matrix in the card's shape, "
        "turned or flipped as you like. Roll, keep one symbol and reroll the rest, with the exact expected rolls of "
        "every keep beside you; then place the dream. Beside (below on a phone): the odds of each symbol."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.black = self.param_field(BLACK, width="150px")
        self.black.widget.add_class("nyx-black-count")
        self.white = self.param_field(WHITE, width="150px")
        self.white.widget.add_class("nyx-white-count")
        self.tray = SymbolTray(MAX_TRAY, on_change=self.guard(lambda: self.draw_choice()))
        self.roll_button = widgets.Button(description="Roll 6 dice", button_style="primary", icon="refresh")
        self.roll_button.add_class("roll-button")
        self.actions = [self.roll_button]
        self.counter, self.status = widgets.HTML(), widgets.HTML()
        self.hint = HintPanel("the exact expected rolls still to come after each keep")

        self.shape = widgets.Dropdown(
            options=[(f"{n} ({len(SHAPES[n])} cells{'' if placements(n) else ', never fits'})", n) for n in NAMES],
            value="L4",
            description="dream",
            style={"description_width": "45px"},
            layout=widgets.Layout(width="230px"),
        )
        self.shape.add_class("nyx-shape")
        self.preview = widgets.HTML()
        self.cells = []
        for cell in CELLS:
            b = widgets.Button(description=str(cell), tooltip=f"cell {cell}")
            b.add_class("nyx-cell")
            b.on_click(self.guard(lambda _, cell=cell: self.click_cell(cell)))
            self.cells.append(b)
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
            options=[(night.PLURAL[s], s) for s in SYMBOLS], value="moon", style={"button_width": "90px"}
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
        self.night = widgets.VBox(
            [
                widgets.HTML(
                    night.night_css() + "<h3 style='margin:4px 0'>A night against bots</h3><small style='color:#555'>"
                    "You are player 1, against the odds and greedy bots. Each turn: reroll (or not), then one "
                    "move; ending a night scores its dreams and spells.</small>"
                ),
                widgets.HBox([self.players, self.new_button], layout=widgets.Layout(flex_flow="row wrap")),
                self.table,
                self.prompt,
                self.moves,
                self.log,
            ]
        )
        self.night.add_class("nyx-night")

        guard = self.guard
        self.black.widget.observe(self.rules_guard(lambda _: self.new_hand()), names="value")
        self.white.widget.observe(self.rules_guard(lambda _: self.new_hand()), names="value")
        self.roll_button.on_click(guard(lambda _: self.roll()))
        self.shape.observe(guard(lambda _: self.new_shape()), names="value")
        self.place_button.on_click(guard(lambda _: self.place()))
        self.best_button.on_click(guard(lambda _: self.best()))
        self.clear_button.on_click(guard(lambda _: self.clear()))
        self.symbol.observe(guard(lambda _: self.draw_odds()), names="value")
        self.new_button.on_click(guard(lambda _: self.new_game()))
        self.rolls.observe(guard(lambda _: self.draw_odds()), names="value")

        self.occupied: dict[int, str] = {}
        self.picked: frozenset[int] = frozenset()
        self.page(
            [
                widgets.HTML(v.page_css()),
                widgets.HBox([self.black.widget, self.white.widget]),
                self.messages.widget,
                widgets.HTML(
                    "<small style='color:#555'>Click a die to keep it (dice of one symbol); Roll rerolls the "
                    "others.</small>"
                ),
                self.tray.widget,
                widgets.HBox([self.roll_button, self.counter], layout=widgets.Layout(align_items="center")),
                self.status,
                self.hint.toggle,
                self.hint.widget,
                widgets.HTML(v.faces_table()),
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
        self.sizes.show(v.expected_chart(self.size))
        self.new_game()

    # -- a night against bots ---------------------------------------------------------------------
    @property
    def bots(self) -> tuple[str, ...]:
        """Each seat's player: "you", then the bots."""
        return ("you", *night.BOTS[: self.state.players - 1])

    @property
    def state(self) -> State:
        assert isinstance(self.match.state, State)
        return self.match.state

    def new_game(self) -> None:
        """A new game with the chosen number of players: the deal, your first roll (`kit.match.Match`)."""
        rules = Rules(players=int(self.players.value))
        bots = ("you", *night.BOTS[: rules.players - 1])
        named = bot_policies(rules)

        def told(s: game.State, action: game.Action) -> str | None:
            assert isinstance(s, State)
            return night.move_line(s, action, seat_name(s.mover, bots))

        def result(s: game.State) -> str:
            assert isinstance(s, State)
            return result_line(s, bots, scores=s.scores)

        seats = {p: named[b] for p, b in enumerate(bots) if p != night.HUMAN}
        self.match = Match(initial_state(rules), seats, self.rng, bots, told, result)
        self.games = getattr(self, "games", 0) + 1
        self.match.lines.append(f"New game: you against {', '.join(bots[1:])}.")
        self.messages.clear()
        self.match.advance()
        self.draw_night()

    def move(self, action: game.Action) -> None:
        """Your move, then chance's and the bots' until it is yours again."""
        self.match.move(action)
        self.messages.clear()
        self.draw_night()

    def draw_night(self) -> None:
        """The table, your move's buttons with the hint, the log."""
        s, who = self.state, [seat_name(p, self.bots) for p in range(self.state.players)]
        self.table.value = night.table_html(s, who)
        self.log.value = log_html(self.match.lines, "nyx-log")
        if s.is_terminal():
            self.prompt.value = (
                f"<div class='nyx-prompt nyx-over' data-game='{self.games}'><b>{self.match.lines[-1]}</b></div>"
            )
            self.moves.children = ()
            return
        best = s.hint().best
        shown = night.choices(s)
        if not any(a == best for *_, a in shown):
            shown.append(("hint", f"Hint's move: {s.describe(best)}", best))
        what = "reroll or not" if s.phase == "choose" else "your move"
        self.prompt.value = (
            f"<div class='nyx-prompt' data-game='{self.games}'><b>Your turn: {what}.</b> <small>Hint (a heuristic): "
            f"<span class='nyx-hint'>{s.describe(best)}</span>.</small></div>"
        )
        rows = []
        for group in dict.fromkeys(g for g, *_ in shown):
            buttons = []
            for _, label, action in (c for c in shown if c[0] == group):
                b = widgets.Button(description=label, tooltip=s.describe(action))
                b.add_class("nyx-move")
                b.add_class(f"move-{type(action).__name__.lower()}")
                if action == best:
                    b.button_style = "info"
                b.on_click(self.guard(lambda _, a=action: self.move(a)))
                buttons.append(b)
            head = widgets.HTML(f"<small style='min-width:110px;display:inline-block'><b>{group}</b></small>")
            box = widgets.HBox([head, *buttons])
            box.add_class("nyx-group")
            rows.append(box)
        self.moves.children = tuple(rows)

    # -- your dice --------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """The dice of one symbol the chosen dream needs."""
        return len(SHAPES[self.shape.value])

    def new_hand(self) -> None:
        """New dice counts (a bad one: a ValueError, Roll disabled): the matrix is cleared, every die unrolled."""
        self.n_black, self.n_white = int(self.black.value()), int(self.white.value())
        self.messages.clear()
        self.clear()

    def clear(self) -> None:
        """A fresh night: every cell free, every die back in the tray, unrolled."""
        self.occupied = {}
        self.picked = frozenset()
        self.spent = {"black": 0, "white": 0}
        self.fresh_chase("Press Roll to throw your dice.")
        self.draw_matrix()

    def fresh_chase(self, empty: str) -> None:
        """The dice left in the tray, not rolled yet: the next roll throws them all."""
        self.tray.colours = ["black"] * (self.n_black - self.spent["black"]) + ["white"] * (
            self.n_white - self.spent["white"]
        )
        self.rolled, self.made = False, 0
        self.kept_before: tuple[str | None, int, int] = (None, 0, 0)
        self.last: tuple[tuple[int, int, int], tuple[int, int, int]] = ((0, 0, 0), (0, 0, 0))
        self.tray.show((), empty=empty)
        self.draw_dice()

    def held_symbols(self) -> set[str]:
        return {SYMBOLS[f] for f, h in zip(self.tray.faces, self.tray.held) if h}

    def roll(self) -> None:
        """Keep the dice marked kept (one symbol) and roll the others (the first roll: all of them)."""
        if self.blocked:
            raise ValueError("fix the number of dice first")
        colours = self.tray.colours
        if not colours:
            raise ValueError("no dice left: press Clear matrix to take them back")
        held = list(self.tray.held) if self.rolled else [False] * len(colours)
        symbols = self.held_symbols() if self.rolled else set()
        if len(symbols) > 1:
            raise ValueError("keep dice of one symbol only (a dream takes dice all showing one symbol)")
        if all(held):
            raise ValueError("every die is kept: release the dice you want to roll, or place the dream")
        kept = sum(held)
        if symbols and kept >= self.size:
            raise ValueError(
                f"you keep {kept} dice of one symbol, enough for the {self.shape.value}: pick its cells and press "
                "Place (or release dice to roll them)"
            )
        old = self.tray.faces if self.rolled else [0] * len(colours)
        faces = [f if h else int(self.rng.choice(SIDES[c])) for f, h, c in zip(old, held, colours)]
        symbol = symbols.pop() if symbols else None
        kb = sum(1 for h, c in zip(held, colours) if h and c == "black")
        self.kept_before = (symbol, kb, kept - kb)
        fresh = [f for f, h in zip(faces, held) if not h]
        self.last = v.roll_symbols(fresh, [c for c, h in zip(colours, held) if not h])
        self.rolled = True
        self.made += 1
        self.messages.clear()
        self.tray.show(faces, held)
        self.draw_dice()

    def chosen(self) -> Hashable:
        """The keep the dice marked kept make: Keep(symbol, count, white), or MIXED."""
        symbols = self.held_symbols()
        if not symbols:
            return Keep(None, 0)
        if len(symbols) > 1:
            return v.MIXED
        white = sum(1 for c, h in zip(self.tray.colours, self.tray.held) if h and c == "white")
        return Keep(symbols.pop(), len(self.tray.held_faces), white)

    def keep_hint(self) -> Hint:
        """Every keep after this roll with its exact expected rolls still to come (`odds.keep_hint`
        for dice of one colour, the chase of `odds.shape_game` with black and white dice)."""
        black = self.tray.colours.count("black")
        white = len(self.tray.colours) - black
        symbol, kb, kw = self.kept_before
        rb, rw = self.last
        if not white:
            return keep_hint(self.size, rb, (symbol, kb) if symbol else None, dice=black, colour="black")
        state = ("rolled", symbol if kb + kw else None, kb, kw, rb, rw, None)
        return shape_game(self.size, black, white).hint(state)

    def draw_dice(self) -> None:
        """The Roll button, the counter, the status line and the hint."""
        n = len(self.tray.colours)
        self.counter.value = (
            f"<span class='roll-counter' data-made='{self.made}' style='font-size:15px;margin-left:8px'>"
            + (f"<b>Roll {self.made}</b> for this dream" if self.made else "<b>No roll yet</b>")
            + "</span>"
        )
        if not self.rolled:
            spent = self.spent["black"] + self.spent["white"]
            self.status.value = (
                f"<div class='nyx-status'>{n} dice to roll"
                + (f" ({spent} placed on the matrix)" if spent else "")
                + ".</div>"
            )
        else:
            faces, colours = self.tray.faces, self.tray.colours
            dice = "".join(night.mini_die(SYMBOLS[f], c, 18) for f, c in zip(faces, colours))
            self.status.value = f"<div class='nyx-status'>Your dice: {dice} {v.dice_text(faces, colours)}.</div>"
        self.draw_choice()

    def draw_choice(self) -> None:
        """The Roll label and the hint for the dice marked kept."""
        n = len(self.tray.colours)
        rolling = n - (len(self.tray.held_faces) if self.rolled else 0)
        self.roll_button.description = f"Roll {rolling} di{'e' if rolling == 1 else 'ce'}" if rolling else "Roll"
        if not self.rolled:
            return self.hint.show(None, "Roll the dice first: the hint weighs what to keep after a roll.")
        symbol, kb, kw = self.kept_before
        if n < self.size:
            return self.hint.show(
                None, f"{n} dice left: not enough for the {self.shape.value}. Clear the matrix to take them back."
            )
        if kb + kw >= self.size:
            return self.hint.show(None, f"Your kept dice already make the {self.shape.value}: place it.")
        chosen, shape = self.chosen(), self.shape.value
        black = self.tray.colours.count("black")
        self.hint.show(lambda: v.hint_html(self.keep_hint(), chosen, shape, black, n - black))

    # -- the matrix ---------------------------------------------------------------------------------
    def options(self) -> list[frozenset[int]]:
        """The placements of the shape on the free cells that contain the picked cells."""
        return [p for p in placements(self.shape.value, self.occupied) if self.picked <= p]

    def click_cell(self, cell: int) -> None:
        """Pick or unpick a free cell."""
        if cell in self.occupied:
            raise ValueError(f"cell {cell} is taken until the night ends")
        self.picked = self.picked ^ {cell}
        self.draw_matrix()

    def new_shape(self) -> None:
        self.picked = frozenset()
        self.messages.clear()
        self.draw_matrix()
        self.draw_choice()
        self.sizes.show(v.expected_chart(self.size))

    def best(self) -> None:
        """Pick the placement that keeps most room for later dreams (`matrix.best_placements`)."""
        free = [c for c in CELLS if c not in self.occupied]
        ranked = best_placements(self.shape.value, free)
        if not ranked:
            raise ValueError(f"no placement of {self.shape.value} fits the free cells")
        self.picked = ranked[0][0]
        self.draw_matrix()

    def place(self) -> None:
        """Put dice of one symbol on the picked cells: they leave the tray and the cells are taken."""
        shape, size = self.shape.value, self.size
        if self.picked not in placements(shape, self.occupied):
            raise ValueError(f"pick the {size} cells of a placement of {shape} first (the green cells fit)")
        symbols = self.held_symbols() if self.rolled else set()
        kept = len(self.tray.held_faces) if self.rolled else 0
        if len(symbols) != 1 or kept < size:
            raise ValueError(
                f"Place needs {size} dice kept showing one symbol; you keep {kept}"
                + (" of different symbols" if len(symbols) > 1 else "")
            )
        symbol = symbols.pop()
        order = sorted((i for i, h in enumerate(self.tray.held) if h), key=lambda i: self.tray.colours[i] != "white")[
            :size
        ]  # white dice first: they go back at the night's end anyway
        for i in order:
            self.spent[self.tray.colours[i]] += 1
        for cell in self.picked:
            self.occupied[cell] = symbol
        cells = ", ".join(map(str, sorted(self.picked)))
        self.picked = frozenset()
        self.messages.clear()
        left = [i for i in range(len(self.tray.colours)) if i not in order]
        self.fresh_chase(
            f"{len(left)} dice left: press Roll for the next dream."
            if left
            else "Every die is on the matrix: press Clear matrix for a new night."
        )
        self.status.value = (
            f"<div class='nyx-status nyx-placed'>Placed: {shape} of {night.PLURAL[symbol]} on cells {cells}. "
            f"{len(left)} dice left to roll for the next dream.</div>"
        )
        self.draw_matrix()

    def draw_matrix(self) -> None:
        """The cells (taken, picked, in a fitting placement), the pick's words, the shape's figures."""
        shape = self.shape.value
        options = self.options()
        free = placements(shape, self.occupied)
        ready = self.picked in free
        for cell, b in zip(CELLS, self.cells):
            b._dom_classes = v.cell_classes(cell, self.occupied, self.picked, options, ready)
            if cell in self.occupied:
                b.description = night.GLYPH[self.occupied[cell]]
                b.tooltip = f"cell {cell}: a {self.occupied[cell]}, taken until the night ends"
            else:
                b.description = str(cell)
                b.tooltip = f"cell {cell}: click to pick it" if cell not in self.picked else f"cell {cell}: picked"
        self.place_button.disabled = not ready
        self.preview.value = night.shape_preview(shape)
        self.pick.value = (
            f"<div class='nyx-pick-line' data-free='{len(free)}' data-occupied='{len(self.occupied)}'>"
            f"{v.matrix_status(shape, self.picked, options, len(free))}</div>"
        )
        self.figures.value = v.figures_html(shape, self.occupied, self.n_black, self.n_white)

    # -- charts -----------------------------------------------------------------------------------
    def draw_odds(self) -> None:
        """P(at least k of the symbol within the rolls), black dice beside white dice."""
        self.odds.show(v.at_least_chart(self.symbol.value, self.rolls.value))


def app(seed: int | None = None) -> widgets.Widget:
    """The Nyx dashboard as one widget."""
    return NyxDashboard(seed).view


__all__: Sequence[str] = ("NyxDashboard", "SymbolTray", "app")
