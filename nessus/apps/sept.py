"""Le Sept fatal (and Pig) dashboard: push your luck with two dice (a 7 wipes the turn) or with
one die (Pig: a 1 wipes it), alone for one turn played for points, or in a two-player game
against the machine.

Left: the switch between the two games, who plays, the dice, Roll / Hold, the turn total, the
hint panel (alone: the exact expected turn score after rolling and after holding; in a game:
P(you win) after each, by value iteration, in floats) and the score sheet. Right: the exact
score of one turn holding at N (a slider), the expected turn score for every N, and in a game
the turn total at which optimal play first holds, by the mover's position.
"""

from __future__ import annotations

import html
from collections.abc import Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial

import altair as alt
import ipywidgets as widgets
import numpy as np
import polars as pl

from nessus.apps.common import TableHTML
from nessus.apps.dicegame import HEURISTIC, OPTIMAL, DiceTray, TableDashboard, hint_table, mini_dice, probability_bars
from nessus.dist import exact_str
from nessus.games import _pushluck as pl_
from nessus.games import pig, sept
from nessus.numbers import number_html, number_text
from nessus.solver import Hint

SEPT, PIG = "Le Sept fatal", "Pig"
MACHINES = ("optimal (to win)", "hold at N")
BUST = "#b00020"


@dataclass(frozen=True)
class Kind:
    """What differs between the two games on this page."""

    name: str
    roll: pl_.Roll
    dice: int
    bust_face: str  # the roll that wipes the turn, in words
    widest: int  # the chart of expected scores shows N = 1 .. widest

    def busts(self, faces: tuple[int, ...]) -> bool:
        """Whether this roll wipes the turn."""
        return sum(faces) == 7 if self.dice == 2 else faces[0] == 1

    @property
    def best(self) -> tuple[int, Fraction]:
        """The best hold for points and its expected turn score (exact)."""
        return _best_hold(self.name)


KINDS = {SEPT: Kind(SEPT, sept.ROLL, 2, "a 7", 90), PIG: Kind(PIG, pig.ROLL, 1, "a 1", 60)}


@cache
def _best_hold(name: str) -> tuple[int, Fraction]:
    return pl_.best_hold(KINDS[name].roll)


# -- exact one-turn figures (cached: the charts are redrawn often) ----------------------------------
@cache
def turn_frame(name: str, n: int) -> pl.DataFrame:
    """The exact distribution of one turn's score holding at n: `value`, `probability`, `exact`."""
    d = pl_.hold_at_distribution(KINDS[name].roll, n)
    return pl.DataFrame({
        "value": [str(s) for s in d.outcomes],
        "probability": [float(d[s]) for s in d.outcomes],
        "exact": [number_text(d[s]) for s in d.outcomes],
    })


@cache
def means_frame(name: str) -> pl.DataFrame:
    """The exact expected turn score holding at N, for N = 1 .. the chart's widest: `N`, `mean`, `exact`."""
    kind = KINDS[name]
    means = [pl_.hold_at_mean(kind.roll, n) for n in range(1, kind.widest + 1)]
    return pl.DataFrame({"N": range(1, kind.widest + 1), "mean": [float(m) for m in means], "exact": [number_text(m) for m in means]})


# -- the two-player games, solved by value iteration ------------------------------------------------
def solved(name: str, size: int) -> sept.Solution | pl_.Solved:
    """Optimal play for `size` rounds (Le Sept fatal) or goal `size` (Pig): stored for the default
    rules, else solved once per kernel (the engines memoise)."""
    return sept.solution(sept.Rules(rounds=size)) if name == SEPT else pig.solution(pig.Rules(goal=size))


_solved: set[tuple[str, int]] = set()  # the games solved (or read) in this kernel


def solver_turn(game: sept.Game) -> int:
    """The solver's turn for the game's turn (extra rounds after a tie share two turns)."""
    rounds = game.rules.rounds
    return game.turn if game.turn < 2 * rounds else 2 * rounds + game.mover


def scores(game: sept.Game | pig.Game) -> tuple[int, int]:
    """The banked scores (Le Sept fatal: totals so far), first player first."""
    return game.totals if isinstance(game, sept.Game) else game.scores


def machine_rolls(game: sept.Game | pig.Game, sol: sept.Solution | pl_.Solved, hold: int | None) -> bool:
    """Whether the machine rolls: optimal for its winning chance (`hold` None), or hold at `hold`."""
    k = game.turn_total
    if k == 0:
        return True
    if hold is not None:
        return k < hold
    mine, theirs = scores(game)[game.mover], scores(game)[1 - game.mover]
    if isinstance(game, sept.Game):
        return sol.rolls(solver_turn(game), mine - theirs, k)
    return bool(sol.rolls()[mine * game.goal + theirs, k])


def win_hint(game: sept.Game | pig.Game, sol: sept.Solution | pl_.Solved) -> Hint | None:
    """P(the mover wins) after each legal action (floats, value iteration); None off the solved grid."""
    values = game.hint(sol)
    if any(np.isnan(v) for v in values.values()):
        return None
    best = "hold" if "hold" in values and values["hold"] >= values["roll"] else "roll"
    return Hint(game.turn_total, values, best)


def points_hint(kind: Kind, k: int) -> Hint:
    """One turn played for points: the exact expected turn score after rolling and after holding."""
    values = pl_.points_values(kind.roll, k)
    best = "hold" if "hold" in values and values["hold"] >= values["roll"] else "roll"
    return Hint(k, values, best)


CUT_OFF = 1e-6  # a turn start whose bracket is wider than this is shown as shaken by the cut-off


def bracket(sol: sept.Solution, t: int, lead: int) -> float:
    """The width of the bracket on the mover's chance at the start of turn t with this lead
    (every cut-off state lost, then won, for the first player); 1 off the grid."""
    d = sol.duel
    c = d.context(t, lead) if abs(lead) <= d.margin else -1
    return float(abs(sol.high_starts[c] - sol.low_starts[c])) if c >= 0 else 1.0


def method_note(game: sept.Game | pig.Game, sol: sept.Solution | pl_.Solved) -> str:
    """How the winning chances were computed, and how accurate they are here."""
    if isinstance(game, sept.Game):
        totals = scores(game)
        width = bracket(sol, solver_turn(game), totals[game.mover] - totals[1 - game.mover])
        return (f"≈: floats, not exact: value iteration until the largest change of a sweep is below {sept.TOLERANCE:g}; leads "
                f"beyond ±{sol.duel.margin} points are cut off: solving with every cut-off state lost, then won, brackets "
                f"your chance at the start of this turn in an interval of width {width:.1g}.")
    return (f"≈: floats, not exact: value iteration until the largest change of a sweep is below {pig.TOLERANCE:g}, within "
            f"{pig.ACCURACY:g} of the exact values.")


def p_first(name: str, sol: sept.Solution | pl_.Solved) -> float:
    """P(the first player wins), both optimal (value iteration)."""
    return sol.p_first if name == SEPT else float(sol.starts[0])


# -- one turn alone ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Turn:
    """One turn played alone: the turn total, the rolls (the last may be the bust), and how it ended."""

    total: int = 0
    rolls: tuple[tuple[int, ...], ...] = ()
    bust: bool = False
    held: bool = False

    @property
    def over(self) -> bool:
        return self.bust or self.held


def action_label(action: Hashable, k: int, after: str = "") -> str:
    """An action in the game's words."""
    if action == "roll":
        return "roll" if k == 0 else "roll again"
    return f"hold: bank {k}{after}"


def rolls_html(rolls: tuple[tuple[int, ...], ...], kind: Kind) -> str:
    """This turn's rolls as little dice with the running turn total (the bust in red)."""
    parts, total = [], 0
    for faces in rolls:
        if kind.busts(faces):
            parts.append(f"{mini_dice(faces)}<b style='color:{BUST}'>✗</b>")
        else:
            total += sum(faces)
            parts.append(f"{mini_dice(faces)}<small>→{total}</small>")
    return " ".join(parts)


class SeptDashboard(TableDashboard):
    """The widgets of the Le Sept fatal (and Pig) page and the turn (or game) they play."""

    notebook, title = "le-sept-fatal.ipynb", "Le Sept fatal (and Pig)"
    sentence = ("Push your luck: roll as often as you like, adding to your turn total, and hold to bank it; in Le "
                "Sept fatal (two dice, three rounds, the highest total wins) a 7 wipes the turn, in Pig (one die, "
                "first to 100) a 1 does. Alone, play one turn for points with the exact expected score of each move; "
                "against the machine, the hint gives your chance of winning after each move. Beside (below on a "
                "phone): the exact score of one turn when you hold at N, and the expected score for every N.")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "sept", sept.PLAYERS, MACHINES)
        self.switch = widgets.ToggleButtons(options=[SEPT, PIG], value=SEPT, style={"button_width": "150px"})
        self.switch.add_class("sept-game")
        self.rounds = self.param_field(sept.ROUNDS, width="150px")
        self.goal = self.param_field(pig.GOAL, width="150px")
        self.goal.widget.layout.display = "none"
        self.seats.box.children = (self.seats.seat, self.seats.machine, self.rounds.widget, self.goal.widget)
        best = KINDS[SEPT].best[0]
        self.hold_at = widgets.IntSlider(value=best, min=1, max=100, description="hold at N", continuous_update=False,
                                         style={"description_width": "70px"}, layout=widgets.Layout(width="420px"))
        self.hold_at.add_class("sept-hold")

        self.tray = DiceTray(2)
        self.roll_button, self.hold_button, self.new_button = self.moves(("Roll 2 dice", "Hold", "New turn"),
                                                                         (self.roll, self.hold, self.restart))
        self.total = widgets.HTML()
        self.advice = widgets.HTML()
        self.sheet = TableHTML(name="le-sept-fatal-scores")
        self.log = widgets.HTML()
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

        self.page([
            widgets.HTML(f"<style>.sept-bust .nessus-die{{outline:3px solid {BUST};outline-offset:1px;border-radius:10px}}</style>"),
            widgets.HBox([widgets.HTML("<b>game</b>&nbsp;", layout=widgets.Layout(width="50px")), self.switch]),
            self.seats.mode, self.seats.box, self.messages.widget,
            widgets.HBox([self.tray.widget, self.total], layout=widgets.Layout(align_items="flex-end")),
            widgets.HBox([self.roll_button, self.hold_button, self.new_button]),
            self.counter, self.status, self.advice, self.hint.toggle, self.hint.widget, self.sheet, self.log,
        ], [self.hold_at, self.chart.widget, self.figures, self.means.widget, self.boundary.widget], left_width="590px")
        self.seats.new_players()
        self.draw_charts()

    # -- controls -----------------------------------------------------------------------------
    @property
    def kind(self) -> Kind:
        """The game chosen by the switch."""
        return KINDS[self.switch.value]

    def size(self) -> int:
        """The game's rounds (Le Sept fatal) or goal (Pig), from its field."""
        return self.rounds.value() if self.kind.name == SEPT else self.goal.value()

    def field(self) -> str:
        """What the game's field holds: the number of rounds (Le Sept fatal) or the goal (Pig)."""
        return "number of rounds" if self.kind.name == SEPT else "goal"

    def new_kind(self) -> None:
        """The other game: its dice, its best hold on the slider, a new turn or game."""
        sept_now = self.kind.name == SEPT
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
        self.made = self.moves = 0  # your rolls, your rolls and holds (this turn alone, this game)
        self.last: tuple[Hint | None, str, str] | None = None
        self.shown: tuple[int, ...] = ()  # your last roll
        self.note = ""  # how your last turn ended (in a game)
        if not self.seats.game:
            self.messages.clear()
            self.turn = Turn()
            self.game = None
            self.draw()
            return
        name = self.kind.name
        try:
            size = self.size()
        except ValueError:
            self.game = None  # no game until the field is fixed
            self.draw()
            raise
        self.messages.clear()
        stored = size == (sept.ROUNDS.default if name == SEPT else pig.GOAL.default)
        if (name, size) not in _solved and not stored:
            what = f"{size} round{'s' if size > 1 else ''}" if name == SEPT else f"Pig to {size}"
            self.status.value = (f"<div class='sept-status' style='font-size:15px'>Solving {what} by value iteration "
                                 "(once per session; a few seconds)…</div>")
        self.sol = solved(name, size)
        _solved.add((name, size))
        self.game = sept.Game(sept.Rules(rounds=size)) if name == SEPT else pig.Game.start(pig.Rules(goal=size))
        self.you = self.seats.you
        self.machine_hold = None if self.seats.machine.value == MACHINES[0] else self.hold_at.value
        self.banked: list[list[int]] = [[], []]
        self.lines: list[str] = []
        self.rolls: tuple[tuple[int, ...], ...] = ()
        self.result = ""
        self.machine_turns()
        self.draw()

    # -- moves ---------------------------------------------------------------------------------------
    def throw(self) -> tuple[int, ...]:
        """The faces of one roll of the game's dice."""
        return tuple(int(x) for x in self.rng.integers(1, 7, size=self.kind.dice))

    def roll(self) -> None:
        """Roll the dice: add their points, or lose the turn total on the bust."""
        faces = self.throw()
        self.note = ""
        if not self.seats.game:
            t = self.turn
            if t.over:
                raise ValueError("the turn is over: press New turn")
            self.last = (points_hint(self.kind, t.total), "roll", f"at turn total {t.total}")
            bust = self.kind.busts(faces)
            self.turn = Turn(0 if bust else t.total + sum(faces), t.rolls + (faces,), bust)
        else:
            self.your_move("roll", faces)
        self.shown = faces
        self.made += 1
        self.moves += 1
        self.messages.clear()
        self.draw()

    def hold(self) -> None:
        """Bank the turn total (not before the turn's first roll)."""
        if not self.seats.game:
            t = self.turn
            if t.over:
                raise ValueError("the turn is over: press New turn")
            if not t.total:
                raise ValueError("the first roll of a turn is compulsory: press Roll")
            self.last = (points_hint(self.kind, t.total), "hold", f"at turn total {t.total}")
            self.turn = replace(t, held=True)
        else:
            self.your_move("hold", None)
        self.moves += 1
        self.messages.clear()
        self.draw()

    def your_move(self, action: str, faces: tuple[int, ...] | None) -> None:
        """Your roll or hold in a game; when your turn ends, the machine plays its turn(s)."""
        g = self.game
        if g is None:
            raise ValueError(f"type a valid {self.field()} to start a game")
        if g.over:
            raise ValueError("the game is over: press New game")
        if action == "hold" and not g.turn_total:
            raise ValueError("the first roll of a turn is compulsory: press Roll")
        k = g.turn_total
        self.last = (win_hint(g, self.sol), action, f"at turn total {k}")
        if self.ends_turn(action, faces, "You"):
            if action == "hold":
                self.note = f"You banked {k}."
            elif self.kind.busts(faces):
                self.note = f"<b style='color:{BUST}'>{self.kind.bust_face.capitalize()}!</b> " + (f"Your {k} points are wiped." if k else "No points this turn.")
            self.machine_turns()

    def ends_turn(self, action: str, faces: tuple[int, ...] | None, who: str) -> bool:
        """Play one action for the mover; True when it ends their turn (and it is logged)."""
        g = self.game
        mover, k = g.mover, g.turn_total
        if action == "hold":
            self.game = g.hold()
            banked, end = k, f"holds: <b>+{k}</b>"
        else:
            self.rolls += (faces,)
            self.game = g.roll(dice=faces) if self.kind.name == SEPT else g.roll(die=faces[0])
            if self.kind.busts(faces):
                banked, end = 0, f"<b style='color:{BUST}'>{self.kind.bust_face}: loses {k}</b>" if k else f"<b style='color:{BUST}'>{self.kind.bust_face}: 0</b>"
            elif self.game.over and self.kind.name == PIG:
                banked, end = k + sum(faces), f"reaches the goal: <b>+{k + sum(faces)}</b>"
            else:
                return False
        self.banked[mover].append(banked)
        self.lines.append(f"<div class='sept-line'>{who}: {rolls_html(self.rolls, self.kind)} {end}</div>")
        self.lines = self.lines[-6:]
        self.rolls = ()
        if self.game.over:
            self.finish()
        return True

    def machine_turns(self) -> None:
        """The machine plays while it is its turn."""
        while not self.game.over and self.game.mover != self.you:
            while not self.ends_turn("roll" if machine_rolls(self.game, self.sol, self.machine_hold) else "hold",
                                     self.throw(), "Machine"):
                pass

    def finish(self) -> None:
        """The game is over: the result in words."""
        totals = scores(self.game)
        w = self.game.winner
        you, them = totals[self.you], totals[1 - self.you]
        if w == -1:
            self.result = f"A tie, {you} to {them}: half a win each."
        elif w == self.you:
            self.result = f"You win, {you} to {them}."
        else:
            self.result = f"The machine wins, {them} to {you}."

    # -- drawing ------------------------------------------------------------------------------------
    def draw(self) -> None:
        """Everything that follows the turn or game (the counter last: the page is then up to date)."""
        kind = self.kind
        if self.seats.game and self.game is None:
            self.draw_no_game()
            return
        if self.seats.game:
            g = self.game
            rolls, k, over = self.rolls, g.turn_total, g.over
        else:
            t = self.turn
            rolls, k, over = t.rolls, t.total, t.over
        last = self.shown
        bust = bool(last) and kind.busts(last)
        if last:
            self.tray.show(last, active=False)
        else:
            self.tray.show((), active=False, empty=f"Press Roll to throw the {'two dice' if kind.dice == 2 else 'die'}.")
        if bust:
            self.tray.widget.add_class("sept-bust")
        else:
            self.tray.widget.remove_class("sept-bust")
        self.total.value = (f"<div class='sept-total' data-total='{k}' style='margin:0 0 22px 18px;font-size:15px'>turn total "
                            f"<b style='font-size:28px'>{k}</b></div>")
        self.roll_button.description = "Roll 2 dice" if kind.dice == 2 else "Roll the die"
        self.roll_button.disabled = over
        self.hold_button.disabled = over or k == 0
        self.hold_button.description = f"Hold: bank {k}" if k else "Hold"
        self.draw_status()
        self.draw_sheet()
        self.draw_advice()
        self.draw_hint()
        self.draw_boundary()
        n = len(rolls)
        self.counter.value = (f"<span class='roll-counter' data-made='{self.made}' data-moves='{self.moves}' style='font-size:14px'>"
                              f"{rolls_html(rolls, kind) if rolls else ''} <b>{n} roll{'' if n == 1 else 's'} this turn</b></span>")

    def draw_no_game(self) -> None:
        """No game while the rounds (or goal) field holds a bad value."""
        self.tray.show((), active=False)
        self.total.value = "<div class='sept-total' data-total='0'></div>"
        self.roll_button.disabled = self.hold_button.disabled = True
        self.status.value = f"<div class='sept-status' style='font-size:15px'>Type a valid {self.field()} to start a game.</div>"
        self.sheet.value = self.log.value = self.advice.value = ""
        self.hint.show(None, "No game yet.")
        self.counter.value = f"<span class='roll-counter' data-made='{self.made}' data-moves='{self.moves}'></span>"

    def draw_status(self) -> None:
        """Where the turn or the game stands, and how your last turn ended."""
        kind = self.kind
        if not self.seats.game:
            t = self.turn
            if t.bust:
                text = (f"<b style='color:{BUST}'>{kind.bust_face.capitalize()}!</b> The turn total is wiped: you score "
                        f"<b class='sept-score'>0</b>. <b>Turn over.</b>")
            elif t.held:
                text = f"You hold: you score <b class='sept-score'>{t.total}</b>. <b>Turn over.</b>"
            elif t.rolls:
                text = f"Turn total <b>{t.total}</b>: roll again, or hold to bank it."
            else:
                text = f"One turn, playing for points: press <b>Roll</b> ({kind.bust_face} wipes the turn)."
            self.status.value = f"<div class='sept-status' style='font-size:15px'>{text}</div>"
            return
        g = self.game
        totals = scores(g)
        you, them = totals[self.you], totals[1 - self.you]
        note = f"{self.note} The machine has played its turn (below). " if self.note and not g.over else self.note + " "
        if g.over:
            text = "<b>Game over.</b>"
        elif isinstance(g, sept.Game):
            rounds = g.rules.rounds
            r = g.turn // 2 + 1
            stage = f"round {r} of {rounds}" if r <= rounds else "an extra round (the totals were level)"
            text = f"Your turn, {stage}: you <b>{you}</b>, the machine <b>{them}</b>."
        else:
            text = f"Your turn: you <b>{you}</b>, the machine <b>{them}</b>, first to <b>{g.goal}</b>."
        result = f"<div class='sept-result' style='font-weight:bold;font-size:16px'>{html.escape(self.result)}</div>" if self.result else ""
        self.status.value = f"<div class='sept-status' style='font-size:15px'>{note}{text}</div>{result}"

    def draw_advice(self) -> None:
        """What hold-at-N says now, and the best N for points."""
        n, k = self.hold_at.value, (self.game.turn_total if self.seats.game else self.turn.total)
        over = self.game.over if self.seats.game else self.turn.over
        best, _ = self.kind.best
        if over:
            says = ""
        elif k == 0:
            says = "roll (the first roll is compulsory)"
        else:
            says = f"<b>roll</b> ({k} &lt; {n})" if k < n else f"<b>hold</b> ({k} ≥ {n})"
        tail = f"Hold at N = {n} says: {says}. " if says else ""
        self.advice.value = (f"<div class='sept-advice' style='color:#444'>{tail}<small>For points the best N is {best}: one more "
                             f"roll gains on average while the turn total is below {exact_str(self.kind.roll.break_even)}.</small></div>")

    def draw_hint(self) -> None:
        """The value of rolling and of holding now (exact alone; P(win) by value iteration in a game)."""
        verdict = self.verdict()
        self.hint.offer = ("your chance of winning after each move (value iteration)" if self.seats.game
                           else "the exact expected turn score after each move")
        if not self.seats.game:
            t = self.turn
            if t.over:
                self.hint.show(None, verdict + "The turn is over: no move is left to weigh.")
                return
            h = points_hint(self.kind, t.total)
            self.hint.show(lambda: (verdict + "<div style='color:#555'>Goal: <b>the expected score of this turn</b> (exact; "
                                    "after this move you play for points)</div>"
                                    + hint_table(h, None, lambda a: action_label(a, t.total), unit="expected turn score")))
            return
        g = self.game
        if g.over:
            self.hint.show(None, verdict + "The game is over: no move is left to weigh.")
            return
        h = win_hint(g, self.sol)
        if h is None:
            self.hint.show(None, verdict + "The lead is beyond the solved grid: whoever is that far ahead holds, whoever is "
                           "that far behind rolls.")
            return
        mine = scores(g)[g.mover]
        first = self.first_holds()
        table = hint_table(h, None, lambda a: action_label(a, g.turn_total, f" (you would have {mine + g.turn_total})"),
                           fmt=_approx, unit="P(you win)", method="≈, value iteration")
        self.hint.show(lambda: (verdict + "<div style='color:#555'>Goal: <b>P(you win)</b>, both playing optimally after this "
                                f"move. Optimal play first holds at turn total <b>{first}</b> this turn.</div>" + table
                                + f"<div class='sept-method' style='font-size:12px;color:#555'>{method_note(g, self.sol)}</div>"))

    def verdict(self) -> str:
        """What your last move was worth against the best (exact alone, floats in a game)."""
        if self.last is None or self.last[0] is None:
            return ""
        h, action, where = self.last
        fmt = _approx if self.seats.game else partial(number_html, kind="value")
        what = f"Your last move ({action} {where})"
        if h.cost(action) == 0:
            return f"<div class='sept-verdict' style='color:#2e7d32'>{what} was optimal.</div>"
        unit = "P(win)" if self.seats.game else "expected turn score"
        return f"<div class='sept-verdict'>{what} cost {fmt(h.cost(action))} of {unit} against {h.best}.</div>"

    def first_holds(self) -> int:
        """The smallest turn total at which optimal play holds in the mover's current turn."""
        g = self.game
        totals = scores(g)
        mine, theirs = totals[g.mover], totals[1 - g.mover]
        if isinstance(g, sept.Game):
            return self.sol.hold_boundary(solver_turn(g), mine - theirs)
        return pl_.hold_boundary(self.sol, mine * g.goal + theirs)

    def draw_sheet(self) -> None:
        """The score sheet of a game (and what the machine did)."""
        if not self.seats.game:
            self.sheet.value = self.log.value = ""
            return
        g = self.game
        totals = scores(g)
        machine = "optimal" if self.machine_hold is None else f"hold at {self.machine_hold}"
        who = {self.you: "You", 1 - self.you: f"Machine <small>({machine})</small>"}
        rows = []
        if isinstance(g, sept.Game):
            rounds = g.rules.rounds
            n = max(rounds, *(len(b) + (seat == g.mover and not g.over) for seat, b in enumerate(self.banked)))
            head = "".join(f"<th>{f'round {r + 1}' if r < rounds else 'extra'}</th>" for r in range(n))
            for seat in (0, 1):
                b = self.banked[seat]
                now = seat == g.mover and not g.over
                cells = "".join(f"<td align='center'>{b[r] if r < len(b) else ('…' if now and r == len(b) else '')}</td>" for r in range(n))
                rows.append(f"<tr class='sept-player' style='{self.seats.row_style(seat)}'><td>{who[seat]}</td>{cells}"
                            f"<td align='center'><b>{totals[seat]}</b></td></tr>")
            title = "Score sheet: the higher total after the last round wins (a tie: one more round)"
            table = f"<tr><th align='left'>player</th>{head}<th>total</th></tr>{''.join(rows)}"
        else:
            for seat in (0, 1):
                width = round(200 * totals[seat] / g.goal)
                bar = (f"<span style='display:inline-block;width:200px;height:10px;background:#eee'><span style='display:block;"
                       f"width:{width}px;height:10px;background:{OPTIMAL if seat == self.you else HEURISTIC}'></span></span>")
                rows.append(f"<tr class='sept-player' style='{self.seats.row_style(seat)}'><td>{who[seat]}</td><td>{bar}</td>"
                            f"<td align='center'><b>{totals[seat]}</b></td><td align='center'>{len(self.banked[seat])}</td></tr>")
            title = f"Score sheet: first to {g.goal} wins"
            table = f"<tr><th align='left'>player</th><th></th><th>score</th><th>turns</th></tr>{''.join(rows)}"
        seat = "first" if self.you == 0 else "second"
        p = p_first(self.kind.name, self.sol)
        p_you = p if self.you == 0 else 1 - p
        published = "; Neller and Presser published 0.5306 for the first player" if self.kind.name == PIG and g.goal == 100 else ""
        self.sheet.value = (f"<h4 style='margin:8px 0 2px'>{title}</h4><table class='sept-sheet' cellpadding='3' "
                            f"style='border-collapse:collapse;width:100%'>{table}</table>"
                            f"<div style='font-size:12px;color:#555;margin-top:3px'>You play {seat}. With optimal play by both, "
                            f"you would win ≈ {p_you:.6f} of games (value iteration{published}).</div>")
        self.log.value = (f"<div class='sept-log' style='font-size:13px;line-height:1.8;margin-top:4px'><b>Last turns</b>"
                          f"{''.join(self.lines) or '<div>none yet</div>'}</div>")

    def draw_charts(self) -> None:
        """One turn's exact score holding at N, and the expected score for every N."""
        kind, n = self.kind, self.hold_at.value
        d = pl_.hold_at_distribution(kind.roll, n)
        frame = turn_frame(kind.name, n)
        title = alt.Title(f"{kind.name}: the score of one turn holding at {n} (exact)",
                          subtitle=f"average {float(d.mean()):.4f} points; P(score 0) = {float(d[0]):.4f}")
        self.chart.show(probability_bars(frame, title, "turn score (0: the turn ended on " + kind.bust_face + ")",
                                         frame["value"].to_list(), width=500, height=150))
        best, best_mean = kind.best
        self.figures.value = (
            "<table class='figures' cellpadding='3' style='font-size:13px;white-space:nowrap'>"
            f"<tr><th align='left'>holding at {n}</th><th align='left'>exact</th></tr>"
            f"<tr><td>expected turn score</td><td>{number_html(d.mean(), 'value')}</td></tr>"
            f"<tr><td>P(the turn scores 0)</td><td>{number_html(d[0])}</td></tr>"
            f"<tr><td>best N for points: {best}</td><td>{number_html(best_mean, 'value')}</td></tr></table>"
        )
        means = means_frame(kind.name)
        base = alt.Chart(means).encode(x=alt.X("N:Q", title="hold at N", scale=alt.Scale(domain=[1, kind.widest])))
        line = base.mark_line(color=OPTIMAL, point=alt.OverlayMarkDef(size=14, color=OPTIMAL)).encode(
            y=alt.Y("mean:Q", title="expected turn score"), tooltip=["N", alt.Tooltip("mean:Q", format=".6f"), "exact"])
        marks = pl.DataFrame({"N": [best, n], "what": [f"best N = {best}", f"your N = {n}"]})
        rules = alt.Chart(marks).mark_rule(strokeDash=[6, 3]).encode(
            x="N:Q", color=alt.Color("what:N", scale=alt.Scale(range=["#999999", HEURISTIC]), legend=alt.Legend(orient="top", title=None)))
        chart = alt.layer(line, rules).properties(
            width=500, height=150, title=alt.Title("Expected score of one turn holding at N (exact)",
                                                   subtitle=f"{n > kind.widest and f'(your N = {n} is off the right edge) ' or ''}"
                                                            f"best N = {best}: {float(best_mean):.4f} points"))
        self.means.show(chart)

    def draw_boundary(self) -> None:
        """In a game: the turn total at which optimal play first holds, by the mover's position, this turn."""
        if not self.seats.game or self.game.over:
            return
        g = self.game
        totals = scores(g)
        mine, theirs = totals[g.mover], totals[1 - g.mover]
        if isinstance(g, sept.Game):
            t = solver_turn(g)
            key = (SEPT, g.rules.rounds, t, mine - theirs)
            if key == self._boundary_key:
                return
            leads = [0] if t == 2 * g.rules.rounds else range(-60, 61)
            kept = [x for x in leads if bracket(self.sol, t, x) <= CUT_OFF]
            frame = pl.DataFrame({"x": kept, "holds from": [self.sol.hold_boundary(t, x) for x in kept]})
            x_title, here = "your lead at the start of this turn", mine - theirs
            stage = f"turn {t + 1} of {2 * g.rules.rounds}" if t < 2 * g.rules.rounds else "the extra round"
            subtitle = f"{stage}; the dot: your lead now ({here:+d}); dashed: hold at {KINDS[SEPT].best[0]}"
            if len(kept) < len(leads):
                subtitle = [subtitle, f"leads whose chance the cut-off at ±{self.sol.duel.margin} moves by more than {CUT_OFF:g} are left out"]
        else:
            key = (PIG, g.goal, theirs, mine)
            if key == self._boundary_key:
                return
            frame = pl.DataFrame({"x": range(g.goal), "holds from": [pl_.hold_boundary(self.sol, i * g.goal + theirs) for i in range(g.goal)]})
            x_title, here = "your score", mine
            subtitle = f"the machine at {theirs}; the dot: your score now ({mine}); dashed: hold at {KINDS[PIG].best[0]}"
        self._boundary_key = key
        base = alt.Chart(frame).encode(x=alt.X("x:Q", title=x_title))
        line = base.mark_line(color=OPTIMAL, interpolate="step-after").encode(
            y=alt.Y("holds from:Q", title="first holds at turn total"), tooltip=[alt.Tooltip("x:Q", title=x_title), "holds from"])
        dot = alt.Chart(frame.filter(pl.col("x") == here)).mark_point(color=HEURISTIC, size=90, filled=True).encode(
            x="x:Q", y="holds from:Q", tooltip=[alt.Tooltip("x:Q", title=x_title), "holds from"])
        best = alt.Chart(pl.DataFrame({"y": [self.kind.best[0]]})).mark_rule(color="#999999", strokeDash=[6, 3]).encode(y="y:Q")
        chart = alt.layer(line, best, dot).properties(
            width=500, height=150, title=alt.Title("Optimal play to win: the turn total at which it first holds (value iteration)",
                                                   subtitle=subtitle))
        self.boundary.show(chart)


def _approx(v: float) -> str:
    """A chance found by value iteration (a float): a decimal, never a fraction."""
    return number_html(v, approx=True)


def app(seed: int | None = None) -> widgets.Widget:
    """The Le Sept fatal (and Pig) dashboard as one widget."""
    return SeptDashboard(seed).view
