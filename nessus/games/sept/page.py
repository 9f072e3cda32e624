"""Le Sept fatal (and Pig) dashboard: push your luck with two dice (a 7 wipes the turn) or one die
(Pig: a 1 wipes it), alone for one turn played for points (`Points`), or in a game against the
machine (`Win`). A turn alone or a game is a `Match` of the game's state (`sept.State`,
`pig.State`); the hint is `state.hint(objective)`, the words and charts are in `views`."""

from __future__ import annotations

from typing import cast

import ipywidgets as widgets

from nessus import pushluck as core
from nessus.game import Game
from nessus.games import pig, sept
from nessus.games.sept import views as v
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import DiceTray, TableDashboard
from nessus.kit.match import Match, log_html
from nessus.kit.pushluck import OneTurn

GAMES = {record.title: record for record in (sept.GAME, pig.GAME)}
TURNS = {  # one turn of each game, for the charts (expected scores for N up to 90, or 60 in Pig)
    g.title: OneTurn(g.title, s.LAW, s.BUST_WORDS, n)
    for g, s, n in ((sept.GAME, sept.State, 90), (pig.GAME, pig.State, 60))
}
MACHINES = ("optimal (to win)", "hold at N")
SIZES = {sept.NAME: sept.ROUNDS, pig.NAME: pig.GOAL}  # what sets a game's length: its rounds, or its goal
SIZE_WORDS = {sept.NAME: "number of rounds", pig.NAME: "goal"}
POINTS = "the exact expected turn score after each move"  # what the hint offers alone
WIN = "your chance of winning after each move (value iteration)"  # and in a game
STORED = {sept.NAME: sept.STORED_ROUNDS, pig.NAME: (pig.GOAL.default,)}  # the games read from data/
_solved: set[tuple[str, int]] = set()  # the games solved (or read) in this kernel


class SeptDashboard(TableDashboard):
    """The widgets of the Le Sept fatal (and Pig) page and the turn (or game) they play."""

    game = sept.GAME
    sentence = (
        "Push your luck: roll as often as you like, adding to your turn total, and hold to bank it; in Le "
        "Sept fatal (two dice, three rounds, the highest total wins) a 7 wipes the turn, in Pig (one die, "
        "first to 100) a 1 does. Alone, play one turn for points with the exact expected score of each move; "
        "against the machine, the hint gives your chance of winning after each move. Beside (below on a "
        "phone): the exact score of one turn when you hold at N, and the expected score for every N."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "sept", sept.PLAYERS, MACHINES, POINTS)
        self.switch = widgets.ToggleButtons(options=list(GAMES), value=sept.GAME.title, style={"button_width": "150px"})
        self.switch.add_class("sept-game")
        self.fields = {name: self.param_field(param, width="150px") for name, param in SIZES.items()}
        self.fields[pig.NAME].widget.layout.display = "none"
        self.seats.box.children = (self.seats.seat, self.seats.machine, *(f.widget for f in self.fields.values()))
        best, style = core.best_hold(sept.ROLL)[0], {"description_width": "70px"}
        self.hold_at = widgets.IntSlider(best, 1, 100, description="hold at N", style=style, layout={"width": "420px"})
        self.hold_at.continuous_update = False
        self.hold_at.add_class("sept-hold")

        self.tray = DiceTray(2)
        self.roll_button, self.hold_button, self.new_button = self.moves(
            ("Roll 2 dice", "Hold", "New turn"), (lambda: self.move("roll"), lambda: self.move("hold"), self.restart)
        )
        self.total, self.advice, self.log = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.sheet = TableHTML(name="le-sept-fatal-scores")
        self.chart = self.chart_pane("250px", "turn-score")
        self.figures = TableHTML(name="le-sept-fatal-figures")
        self.means = self.chart_pane("240px", "mean-by-n")
        self.boundary = self.chart_pane("250px", "hold-boundary")
        self.boundary.widget.layout.display = "none"
        self._boundary_key: tuple | None = None

        self.switch.observe(self.rules_guard(lambda _: self.new_kind()), names="value")
        for f in self.fields.values():
            f.widget.observe(self.rules_guard(lambda _: self.restart()), names="value")
        self.hold_at.observe(self.rules_guard(lambda _: self.new_hold()), names="value")

        self.page(
            [
                widgets.HTML(
                    f"<style>.sept-bust .nessus-die{{outline:3px solid {v.BUST};"
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
    def record(self) -> Game:
        """The game chosen by the switch."""
        return GAMES[self.switch.value]

    @property
    def state(self) -> v.State:
        """The turn alone (the first turn of a fresh game) or the game being played."""
        assert self.match is not None
        return cast(v.State, self.match.state)

    @property
    def objective(self) -> core.Points | core.Win:
        """What you play for: the points of this turn alone, or the game against the machine."""
        return core.Win(self.seats.you) if self.seats.game else core.Points()

    @property
    def unit(self) -> str:
        """What New starts: a "game" against the machine, or a "turn" alone."""
        return "game" if self.seats.game else "turn"

    def new_kind(self) -> None:
        """The other game: its dice, its field, its best hold on the slider (the charts), a new turn or game."""
        for name, f in self.fields.items():
            f.widget.layout.display = None if name == self.record.name else "none"
        best = core.best_hold(TURNS[self.switch.value].law)[0]
        if self.hold_at.value == best:
            self.draw_charts()
        self.hold_at.value = best  # a new value draws the charts
        self.restart()

    def new_mode(self) -> None:
        """Alone or against the machine: a new turn or game (and the hold boundary chart in a game)."""
        self.new_button.description, self.hint.offer = f"New {self.unit}", WIN if self.seats.game else POINTS
        self.boundary.widget.layout.display = None if self.seats.game else "none"
        self._boundary_key = None
        self.restart()

    def new_hold(self) -> None:
        """Another N on the slider: the charts and the hold-at-N advice."""
        self.draw_charts()
        self.draw()

    # -- a new turn or game ---------------------------------------------------------------------
    def restart(self) -> None:
        """A new turn alone, or a new game (the machine moves first when you sit second)."""
        self.last: tuple = ()  # your last move: its hint, the action, where
        self.match: Match | None = None  # no game while the field holds a bad value
        if self.seats.game:
            try:
                self.new_game(self.fields[self.record.name].value())
            except ValueError:
                self.draw()
                raise
        else:
            self.match = Match(self.record.initial_state(), {}, self.rng)
        self.messages.clear()
        self.draw()

    def new_game(self, size: int) -> None:
        """A new game of `size` rounds (or to goal `size`) against the machine, solved first if need be."""
        name, you = self.record.name, self.seats.you
        if (name, size) not in _solved and size not in STORED[name]:
            what = f"{size} round{'s' if size > 1 else ''}" if name == sept.NAME else f"Pig to {size}"
            self.status.value = v.status_html(f"Solving {what} by value iteration (once per session; a few seconds)…")
        _solved.add((name, size))
        rules = self.record.Rules(**{SIZES[name].name: size})
        hold = None if self.seats.machine.value == MACHINES[0] else self.hold_at.value
        machine = self.record.policies(rules)["optimal"] if hold is None else core.hold_at(hold)
        names = ["you" if seat == you else "optimal" if hold is None else f"hold at {hold}" for seat in (0, 1)]
        self.match = Match(self.record.initial_state(rules), {1 - you: machine}, self.rng, names, you=you)
        self.match.advance()

    # -- moves ---------------------------------------------------------------------------------------
    def now(self) -> tuple[v.Rolls, int, bool]:
        """This turn's rolls, the turn total, and whether the turn (alone) or the game is over."""
        if self.seats.game:
            return self.state.rolls, self.state.turn_total, self.state.is_terminal()
        rolls, total, end = self.state.first_turn()
        return rolls, total, end is not None

    def move(self, action: str) -> None:
        """Your roll or hold (a ValueError when it is not allowed); in a game, the machine plays when your turn ends."""
        if self.match is None:
            raise ValueError(f"type a valid {SIZE_WORDS[self.record.name]} to start a game")
        _, k, over = self.now()
        if over:
            raise ValueError(f"the {self.unit} is over: press {self.new_button.description}")
        if action == "hold" and not k:
            raise ValueError("the first roll of a turn is compulsory: press Roll")
        hint = self.state.hint(self.objective)
        self.last = (None if hint.method == "heuristic" else hint, action, f"at turn total {k}")
        self.match.move(action)
        self.messages.clear()
        self.draw()

    # -- drawing ------------------------------------------------------------------------------------
    def draw(self) -> None:
        """Everything that follows the turn or game (the counter last: the page is then up to date)."""
        if self.match is None:
            self.draw_no_game()
            return
        s, you = self.state, self.seats.you if self.seats.game else 0
        rolls, k, over = self.now()
        mine = s.rolls_of(you)  # your rolls (this turn alone, this game)
        shown = mine[-1] if mine else ()
        self.tray.show(shown, active=False, empty=f"Press Roll to throw the {'two dice' if s.DICE == 2 else 'die'}.")
        (self.tray.widget.add_class if shown and s.busts(shown) else self.tray.widget.remove_class)("sept-bust")
        self.total.value = v.total_html(k)
        self.roll_button.description = "Roll 2 dice" if s.DICE == 2 else "Roll the die"
        self.roll_button.disabled = over
        self.hold_button.disabled = over or k == 0
        self.hold_button.description = f"Hold: bank {k}" if k else "Hold"
        if self.seats.game:
            self.status.value = v.status_html(v.game_status(s, you), s.result_text(you))
            self.sheet.value = v.sheet_html(s, self.seats, self.match.names[1 - you])
            lines = [v.turn_line(s, turn, you) for turn in s.history]
            self.log.value = log_html(lines, "sept-log", keep=6, escape=False)
        else:
            self.status.value = v.status_html(v.turn_status(s))
            self.sheet.value = self.log.value = ""
        self.advice.value = v.advice_html(TURNS[self.switch.value].law, self.hold_at.value, k, over)
        self.draw_hint()
        self.draw_boundary()
        self.counter.value = v.counter_html(len(mine), self.match.made, rolls, s)

    def draw_no_game(self) -> None:
        """No game while the rounds (or goal) field holds a bad value."""
        self.tray.show((), active=False)
        self.total.value = v.total_html(None)
        self.roll_button.disabled = self.hold_button.disabled = True
        self.status.value = v.status_html(f"Type a valid {SIZE_WORDS[self.record.name]} to start a game.")
        self.sheet.value = self.log.value = self.advice.value = ""
        self.hint.show(None, "No game yet.")
        self.counter.value = v.counter_html(0, 0)

    def draw_hint(self) -> None:
        """The value of rolling and of holding now, for what you play for (`state.hint(objective)`)."""
        s, objective = self.state, self.objective
        verdict = v.verdict_html(self.last or None, objective)
        if self.now()[2]:
            self.hint.show(None, verdict + f"The {self.unit} is over: no move is left to weigh.")
        elif (h := s.hint(objective)).method == "heuristic":
            beyond = "The lead is beyond the solved grid: whoever is that far ahead holds, whoever is that far behind"
            self.hint.show(None, verdict + beyond + " rolls.")
        else:
            self.hint.show(lambda: v.hint_html(s, objective, h, verdict))

    def draw_charts(self) -> None:
        """One turn's exact score holding at N, and the expected score for every N."""
        n, turn = self.hold_at.value, TURNS[self.switch.value]
        self.chart.show(turn.turn_chart(n))
        self.figures.value = turn.figures_html(n)
        self.means.show(turn.means_chart(n))

    def draw_boundary(self) -> None:
        """In a game: the turn total at which optimal play first holds, by the mover's position, this turn."""
        g = self.state
        if self.seats.game and not g.is_terminal() and (g.rules, g.turn, g.scores) != self._boundary_key:
            self._boundary_key = (g.rules, g.turn, g.scores)
            self.boundary.show(v.boundary_chart(g))


def app(seed: int | None = None) -> widgets.Widget:
    """The Le Sept fatal (and Pig) dashboard as one widget."""
    return SeptDashboard(seed).view
