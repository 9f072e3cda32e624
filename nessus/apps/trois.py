"""Les Trois dashboard: play a turn (set aside at least one die per roll, lowest total wins)
with the exact value of every set-aside beside you, alone (for a goal you choose) or in a game
against machine players.

Left: the dice (click the ones to set aside; dice set aside on earlier rolls are final), Roll /
Set aside all, the rolls so far, the hint panel and, in a game, the score sheet. Right: the
exact score distribution of a turn played for the goal against "every 3, or the lowest die",
and the chance of shooting the moon from each point of a turn.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial

import altair as alt
import ipywidgets as widgets
import numpy as np
import polars as pl

from nessus.apps.common import TableHTML
from nessus.apps.dicegame import (
    HELD, HEURISTIC, OPTIMAL, DiceTray, TableDashboard, hint_table, kind_of, mini_dice, policy_bars, policy_frame,
)
from nessus.dist import Dist, exact_str
from nessus.games import trois
from nessus.games.trois import Play
from nessus.numbers import number_html, number_text
from nessus.solver import Hint

GOALS = [("the least expected score", "mean"), ("P(score 0): five 3s", "zero"), ("P(score ≤ a target)", "target"),
         ("shoot the moon: five 6s", "moon")]
MACHINES = ("optimal", "every 3, or the lowest", "chase the moon")
HEURISTIC_NAME = "every 3, or the lowest die"
MAX_ROUNDS = 1000  # tie-break rounds played out for the machines (a tie lasting this long has probability ~0)

Policy = Callable[[tuple[int, tuple[int, ...] | None]], Hashable]


# -- goals ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Goal:
    """What a turn is played for: "mean" (the least expected score), "target" (P(score <= target)),
    "moon" (P(five 6s)) or "win" (P(score <= target, or the moon): the last player of a final round)."""

    kind: str = "mean"
    target: int = 0

    @classmethod
    def win(cls, need: int, dice: int) -> Goal:
        """Play to score at most `need` (or shoot the moon); needs below 0 (or above every score) are all alike."""
        return cls("win", min(max(need, -1), 6 * dice))

    @property
    def maximise(self) -> bool:
        return self.kind != "mean"

    @property
    def unit(self) -> str:
        return "expected final score" if self.kind == "mean" else "probability"

    def text(self, dice: int) -> str:
        """The goal in words."""
        if self.kind == "mean":
            return "the least expected score"
        if self.kind == "moon":
            return f"P(shooting the moon: {dice} sixes)"
        if self.kind == "target":
            return "P(score 0)" if self.target == 0 else f"P(score ≤ {self.target})"
        if self.target < 0:
            return "P(shooting the moon), the only way left to win"
        if self.target >= 6 * dice:
            return "P(winning): certain, whatever you score"
        return f"P(score ≤ {self.target}, or the moon)"

    def figure(self, d: Dist, dice: int) -> Fraction:
        """The goal's value for a turn whose score has the distribution d."""
        if self.kind == "mean":
            return d.mean()
        if self.kind == "moon":
            return d[6 * dice] if 6 * dice in d.outcomes else Fraction(0)
        if self.kind == "target":
            return d.prob(lambda s: s <= self.target)
        return d.prob(lambda s: s <= self.target or s == 6 * dice)

    def policy(self, dice: int) -> Policy:
        """The engine's play for the goal, ties broken by the least expected score."""
        return trois.policy(dice, self.kind, self.target)

    def hint(self, play: Play) -> Hint:
        """Every set-aside's value for the goal; the best one as the policy plays it (ties: the least expected score)."""
        h = play.hint(self.kind, self.target)
        return Hint(h.state, h.values, self.policy(play.dice)((play.score, play.roll)), h.maximise)


@cache
def distributions(dice: int, goal: Goal) -> tuple[Dist, Dist]:
    """The exact score distribution of a turn played for the goal, and setting aside every 3 (or the lowest die)."""
    rules = trois.Rules(dice=dice)
    return trois.score_distribution(rules, goal.policy(dice)), trois.score_distribution(rules, trois.heuristic)


@cache
def moon_chances(dice: int) -> tuple[Fraction, ...]:
    """P(shooting the moon) chasing it, with k dice still to roll and every die set aside a 6: k = 1 .. dice."""
    game = trois.moon_turn(dice).game
    return tuple(Fraction(game.after_value((True, k))) for k in range(1, dice + 1))


def play_machine(dice: int, policy: Policy, rng: np.random.Generator) -> Play:
    """A whole turn played by `policy`: the finished turn."""
    play = Play(dice)
    while not play.over:
        play = play.throw(rng)
        play = play.set_aside(policy((play.score, play.roll)))
    return play


def points_text(n: int) -> str:
    """"1 point", "7 points"."""
    return f"{n} point{'' if n == 1 else 's'}"


def action_label(play: Play, aside: Hashable) -> str:
    """A set-aside in the game's words, with little dice."""
    if len(aside) == len(play.roll):
        return f"set aside all: score {play.score + trois.score(aside)}"
    return f"set aside {mini_dice(aside, held=True)}, roll {len(play.roll) - len(aside)}"


def counter_html(rolls: int, aside: int, dice: int, over: bool) -> str:
    """The roll counter: a pip per die (filled once set aside) and the rolls made."""
    pips = "".join(f"<span style='color:{OPTIMAL if i < aside else '#ccc'}'>●</span>" for i in range(dice))
    if over:
        text = f"Turn over after {rolls} roll{'' if rolls == 1 else 's'}"
    elif rolls == 0:
        text = f"{dice} dice to roll"
    else:
        text = f"Roll {rolls} · {aside} of {dice} dice set aside"
    return f"<span class='roll-counter' data-made='{rolls}' style='font-size:15px'>{pips} <b>{text}</b></span>"


class AsideTray(DiceTray):
    """A DiceTray whose locked dice (set aside on an earlier roll) stay down, greyed, labelled "final"."""

    def _draw(self) -> None:
        super()._draw()
        for note, locked in zip(self.notes, self.locked):
            if locked:
                note.value = "<span style='color:#777'>final</span>"


TRAY_CSS = ("<style>.trois-tray .nessus-die.locked{transform:none;filter:saturate(.35) brightness(.97)}"
            ".trois-sheet td,.trois-sheet th{padding:3px 5px}</style>")


class TroisDashboard(TableDashboard):
    """The widgets of the Les Trois page and the turn (or game) they play."""

    notebook, title = "les-trois.ipynb", "Les Trois"
    sentence = ("Five dice, lowest total wins: after each roll set aside at least one die (set-aside dice are final) "
                "and roll the others, until every die is set aside. A 3 counts 0, so five 3s score 0; five 6s “shoot "
                "the moon” and win at once. Beside (below on a phone): the exact score of a turn when you play for "
                "your goal, or set aside every 3 (else the lowest die), and your chance of the moon.")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "trois", trois.PLAYERS, MACHINES)
        self.goal = widgets.Dropdown(options=GOALS, value="mean", description="play for", style={"description_width": "65px"},
                                     layout=widgets.Layout(width="300px"))
        self.goal.add_class("trois-goal")
        self.target = widgets.IntSlider(value=trois.TARGET.default, min=0, max=6 * trois.DICE.default, description="target",
                                        continuous_update=False, style={"description_width": "45px"},
                                        layout=widgets.Layout(width="270px", display="none"))
        self.target.add_class("trois-target")
        self.goal_box = widgets.HBox([self.goal, self.target])
        self.dice = self.param_field(trois.DICE, width="150px")
        self.dice.widget.style.description_width = "45px"
        self.dice.widget.add_class("trois-dice")
        self.rounds = self.param_field(trois.ROUNDS, width="150px")
        self.rounds.widget.style.description_width = "55px"
        self.seats.box.children = (*self.seats.box.children, self.rounds.widget)

        self.tray = AsideTray(trois.DICE.hi, "aside", on_change=self.guard(lambda: self.clicked()))
        self.tray.widget.add_class("trois-tray")
        self.roll_button, self.stop_button, self.new_button = self.moves(("Roll 5 dice", "Set aside all", "New turn"),
                                                                         (self.roll, self.set_aside_all, self.next))
        self.log = widgets.HTML()
        self.sheet = TableHTML(name="les-trois-scores")
        self.chart = self.chart_pane("330px", "turn-score")
        self.figures = TableHTML(name="les-trois-figures")
        self.moon = self.chart_pane("210px", "moon")
        self.charted: tuple[int, Goal] | None = None

        rules_guard = self.rules_guard
        self.goal.observe(rules_guard(lambda _: self.new_goal()), names="value")
        self.target.observe(rules_guard(lambda _: self.new_goal()), names="value")
        self.dice.widget.observe(rules_guard(lambda _: self.restart()), names="value")
        self.rounds.widget.observe(rules_guard(lambda _: self.restart()), names="value")

        self.page([
            widgets.HTML(TRAY_CSS), widgets.HBox([self.seats.mode, self.dice.widget]), self.goal_box, self.seats.box,
            self.messages.widget,
            widgets.HTML("<small style='color:#555'>Click the dice to set aside (at least one), then Roll the others. "
                         "A 3 counts 0.</small>"),
            self.tray.widget, widgets.HBox([self.roll_button, self.stop_button, self.new_button]),
            self.counter, self.status, self.log, self.hint.toggle, self.hint.widget, self.sheet,
        ], [self.chart.widget, self.figures, self.moon.widget], left_width="590px")
        self.seats.new_players()

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> trois.Rules:
        """The rules in the controls (players and rounds only count in a game)."""
        dice = self.dice.value()
        if not self.seats.game:
            return trois.Rules(dice=dice)
        return trois.Rules(dice=dice, players=self.seats.players.value(), rounds=self.rounds.value())

    def objective(self) -> Goal:
        """What the hint and the chart are for: your goal alone; in a game the least expected
        score, or the win when you play last in a deciding round."""
        if self.seats.game:
            return self.goal_for(self.you)
        if self.goal.value == "zero":
            return Goal("target", 0)
        return Goal(self.goal.value, self.target.value if self.goal.value == "target" else 0)

    def new_mode(self) -> None:
        """Alone or against the machine: the goal is yours to choose only alone."""
        self.goal_box.layout.display = "none" if self.seats.game else None
        self.restart()

    def new_goal(self) -> None:
        """Another goal (or target): the chart and the hint follow it."""
        self.target.layout.display = None if self.goal.value == "target" else "none"
        self.draw_chart()
        self.draw_turn()

    def restart(self) -> None:
        """A new turn (alone) or a new game: the machine players before you play at once."""
        self.rules_now = self.rules()
        self.messages.clear()
        self.target.max = 6 * self.rules_now.dice
        if self.seats.game:
            self.new_game()
        else:
            self.new_turn()

    def next(self) -> None:
        """The New / Next button."""
        if self.seats.game and not self.result and self.played_out():
            self.start_round()
        else:
            self.restart()

    # -- the game ---------------------------------------------------------------------------------
    def new_game(self) -> None:
        """An empty score sheet; the machine players before you play the first round."""
        n = self.rules_now.players
        self.you = self.seats.you
        self.scores: list[dict[int, int]] = [{} for _ in range(n)]
        self.turns: list[Play | None] = [None] * n
        self.live = list(range(n))
        self.round = 0
        self.played: set[int] = set()
        self.result, self.winner = "", -1
        self.lines: list[str] = []
        self.clear_turn()
        self.advance()

    def total(self, seat: int) -> int:
        """A player's total so far."""
        return sum(self.scores[seat].values())

    def deciding(self) -> bool:
        """Is this the last scheduled round, or a tie-break round?"""
        return self.round >= self.rules_now.rounds - 1

    def played_out(self) -> bool:
        """Has every player still in contention played this round?"""
        return all(s in self.played for s in self.live)

    def goal_for(self, seat: int) -> Goal:
        """The least expected score; in a deciding round, for the last player in contention to
        play, the most they may score and stay lowest (or the moon)."""
        others = [s for s in self.live if s != seat]
        if self.deciding() and others and all(s in self.played for s in others):
            return Goal.win(min(self.total(s) for s in others) - self.total(seat) - 1, self.rules_now.dice)
        return Goal()

    def machine_policy(self, seat: int) -> Policy:
        """How a machine player sets dice aside this turn (the "they play" control)."""
        kind = self.seats.machine.value
        if kind == MACHINES[0]:
            return self.goal_for(seat).policy(self.rules_now.dice)
        return trois.heuristic if kind == MACHINES[1] else trois.policy(self.rules_now.dice, "moon")

    def advance(self) -> None:
        """The machine players take their turns in seat order until it is yours, or the round
        is over, or the game; out of contention, you watch the machines play the game out."""
        while not self.result and self.round < MAX_ROUNDS:
            seat = next((s for s in self.live if s not in self.played), None)
            if seat is None:
                self.end_round()
                if self.result or self.you in self.live:
                    break
                self.round += 1
                self.played = set()
            elif seat == self.you:
                self.new_turn()
                return
            else:
                self.play_seat(seat)
        self.draw_game_over_or_wait()

    def play_seat(self, seat: int) -> None:
        """A machine player's whole turn."""
        self.record(seat, play_machine(self.rules_now.dice, self.machine_policy(seat), self.rng))

    def record(self, seat: int, turn: Play) -> None:
        """A finished turn on the score sheet; a moon ends the game at once."""
        self.scores[seat][self.round] = turn.score
        self.turns[seat] = turn
        self.played.add(seat)
        if turn.moon:
            self.winner = seat
            name = self.seats.name(seat)
            self.result = f"{name} shoot{'' if seat == self.you else 's'} the moon ({turn.dice} sixes) and win{'' if seat == self.you else 's'} at once!"

    def end_round(self) -> None:
        """After a deciding round: the lowest total wins, or the tied play one more round."""
        if not self.deciding():
            return
        totals = {s: self.total(s) for s in self.live}
        low = min(totals.values())
        tied = [s for s in self.live if totals[s] == low]
        if len(tied) == 1:
            self.winner = tied[0]
            name = self.seats.name(tied[0])
            self.result = f"{name} win{'' if tied[0] == self.you else 's'} with the lowest total, {low}."
        else:
            self.live = tied
            self.lines.append(f"Tie at {low} between {' and '.join(self.seats.name(s) for s in tied)}: one more round between them.")

    def start_round(self) -> None:
        """Next round: the machine players before you play it."""
        self.round += 1
        self.played = set()
        self.turns = [None] * self.rules_now.players
        self.lines = []
        self.clear_turn()
        self.advance()

    def draw_game_over_or_wait(self) -> None:
        """The round (or the game) is over: show it and wait for Next round / New game."""
        self.new_button.description = "New game" if self.result else "Next round"
        self.draw_turn()

    # -- your moves -------------------------------------------------------------------------------
    def clear_turn(self) -> None:
        """No dice on the table yet."""
        self.play = Play(self.rules_now.dice)
        self.rolls = 0
        self.steps: list[str] = []
        self.tray.show((), empty=f"Press Roll to throw the {self.rules_now.dice} dice.")

    def new_turn(self) -> None:
        """Your turn starts (alone: a new turn)."""
        self.clear_turn()
        if self.seats.game:
            self.new_button.description = "New game"
        else:
            self.new_button.description = "New turn"
        self.draw_chart()
        self.draw_turn()

    def chosen(self) -> tuple[int, ...]:
        """The dice of the roll marked to set aside."""
        return tuple(sorted(f for f, h, k in zip(self.tray.faces, self.tray.held, self.tray.locked) if h and not k))

    def waiting(self) -> bool:
        """In a game, is it not your turn (the game is over, or you have played this round, or are out of contention)?"""
        return self.seats.game and bool(self.result or self.you in self.played or self.you not in self.live)

    def check_playing(self) -> None:
        """A ValueError (a message in the page) when you may not roll now."""
        if self.waiting():
            word = "game" if self.result else "turn"
            raise ValueError(f"your {word} is over: press {self.new_button.description}")
        if self.play.over:
            raise ValueError(f"the turn is over: press {self.new_button.description}")

    def clicked(self) -> None:
        """A die marked or unmarked: the hint weighs the new choice."""
        self.messages.clear()
        self.draw_choice()

    def roll(self) -> None:
        """Set aside the dice marked and roll the others (the first roll: every die)."""
        self.check_playing()
        if self.play.roll is not None:
            aside = self.chosen()
            if not aside:
                raise ValueError("set aside at least one die first: click it (a 3 counts 0)")
            self.set_aside(aside)
            if self.play.over:
                self.end_turn()
                return
        self.play = self.play.throw(self.rng)
        self.rolls += 1
        self.messages.clear()
        self.draw_turn()

    def set_aside_all(self) -> None:
        """Set aside every die of the roll: the turn is over."""
        self.check_playing()
        if self.play.roll is None:
            raise ValueError("roll the dice before setting them aside")
        self.set_aside(self.play.roll)
        self.end_turn()

    def set_aside(self, aside: tuple[int, ...]) -> None:
        """Set these dice of the roll aside, and say so in the list of rolls."""
        roll, kept = self.play.roll, self.play.kept
        self.play = self.play.set_aside(aside)
        self.steps.append(f"Roll {self.rolls}: {mini_dice(roll)} → set aside {mini_dice(aside, held=True)} "
                          f"({points_text(trois.score(aside))}; {points_text(trois.score(kept + aside))} in all).")

    def end_turn(self) -> None:
        """Your turn is over; in a game, the players after you play."""
        self.messages.clear()
        if not self.seats.game:
            self.draw_turn()
            return
        self.record(self.you, self.play)
        if self.result:
            self.draw_game_over_or_wait()
        else:
            self.advance()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        """The dice, buttons, status, rolls so far, score sheet, hint and moon chart."""
        p = self.play
        kept, roll = list(p.kept), list(p.roll or ())
        if kept or roll:
            self.tray.show(kept + roll, locked=[True] * len(kept) + [False] * len(roll), active=bool(roll))
        done = p.over or self.waiting()
        self.roll_button.disabled = done
        self.stop_button.disabled = done or p.roll is None
        if not p.over and done:
            verdict = "The game is over." if self.result else "You are out of contention: the tied players play on."
        elif p.over:
            verdict = f"Turn over: score <b class='trois-score'>{p.score}</b>."
            if p.moon:
                verdict = f"<b>You shoot the moon</b> ({p.dice} sixes): you win the pot at once!"
            elif p.score == 0:
                verdict += " All 3s: every other player pays you a stake."
        elif p.roll is None and not p.kept:
            verdict = f"Your turn: press <b>Roll {p.dice} dice</b>."
        elif p.roll is None:
            verdict = f"Set aside so far: <b class='trois-score'>{p.score}</b>. Roll the other {p.left} di{'e' if p.left == 1 else 'ce'}."
        else:
            verdict = (f"Set aside so far: <b class='trois-score'>{p.score}</b>. Choose the dice to set aside from this roll "
                       "(at least one).")
        self.status.value = f"<div class='trois-status' style='font-size:15px'>{self.game_line()}{verdict}</div>"
        lines = "".join(f"<div>{line}</div>" for line in self.steps)
        self.log.value = f"<div class='trois-log' style='font-size:13px;line-height:1.8;min-height:20px'>{lines}</div>"
        self.draw_sheet()
        self.draw_choice()
        self.draw_moon()
        aside = len(p.kept)
        self.counter.value = counter_html(self.rolls, aside, p.dice, done)  # last: the page is then up to date

    def game_line(self) -> str:
        """In a game: which round, and what you play for in a deciding one."""
        if not self.seats.game or self.result:
            return ""
        r = self.rules_now.rounds
        which = f"Round {self.round + 1} of {r}" if self.round < r else f"Tie-break round {self.round + 1 - r}"
        goal = self.objective()
        if self.waiting():
            aim = "your turn is over; press Next round when you are ready."
        elif goal.kind == "win":
            if goal.target < 0:
                aim = "you play last and only the moon can still make you lowest."
            elif goal.target >= 6 * self.rules_now.dice:
                aim = "you play last and win whatever you score."
            else:
                aim = f"you play last: score at most <b>{goal.target}</b> to finish lowest (or shoot the moon)."
        elif self.deciding():
            aim = "a deciding round; the players after you still play, so the hint plays for the least expected score."
        else:
            aim = "the hint plays for the least expected score."
        return f"<div class='trois-round' style='font-size:13px;color:#555'>{which}: {aim}</div>"

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked."""
        p = self.play
        if p.roll is None or self.waiting():
            done = p.over or self.waiting()
            self.roll_button.description = "Roll" if done else f"Roll {p.left} di{'e' if p.left == 1 else 'ce'}"
            self.stop_button.description = "Set aside all"
            self.hint.show(None, "The turn is over: no choice is left to weigh." if done
                           else "Roll first: the hint weighs the dice you may set aside.")
            return
        aside = self.chosen()
        n = len(p.roll) - len(aside)
        if not aside:
            self.roll_button.description = "Roll (set a die aside)"
        elif n:
            self.roll_button.description = f"Roll {n} di{'e' if n == 1 else 'ce'}"
        else:
            self.roll_button.description = f"End turn: score {p.score + trois.score(aside)}"
        self.stop_button.description = f"Set aside all: {p.score + trois.score(p.roll)}"
        goal = self.objective()
        self.hint.show(lambda: self.hint_html(goal, aside or None))

    def hint_html(self, goal: Goal, chosen: tuple[int, ...] | None) -> str:
        """The goal, and every set-aside with its exact value (for the least expected score
        when every choice is worth the same for the goal)."""
        p, dice = self.play, self.play.dice
        h = goal.hint(p)
        label = partial(action_label, p)
        head = f"<div style='color:#555'>Goal: <b>{html.escape(goal.text(dice))}</b></div>"
        if len(set(h.values.values())) == 1 and goal.kind != "mean":
            v = next(iter(h.values.values()))
            why = "the moon is lost" if goal.kind == "moon" and v == 0 else "every choice is worth the same for it"
            head += (f"<div class='hint-tie' style='color:#555'>Here {why}: {html.escape(goal.unit)} {number_html(v, kind_of(goal.unit))} whatever you "
                     "set aside. So play for the least expected score:</div>")
            h, goal = Goal().hint(p), Goal()
        return head + hint_table(h, chosen, label, unit=goal.unit)

    def draw_sheet(self) -> None:
        """The score sheet of a game: every player's score, round by round, and the last turn's dice."""
        if not self.seats.game:
            self.sheet.value = ""
            return
        r = self.rules_now.rounds
        columns = max(r, self.round + 1)
        head = "".join(f"<th>{k + 1 if k < r else f'tie {k + 1 - r}'}</th>" for k in range(columns))
        rows = []
        for seat, scores in enumerate(self.scores):
            cells = []
            for k in range(columns):
                if k in scores:
                    s = scores[k]
                    mark = " <b>moon</b>" if s == 6 * self.rules_now.dice else " ✦" if s == 0 else ""
                    cells.append(f"<td align='center'>{s}{mark}</td>")
                elif k == self.round and seat == self.you and seat in self.live and not self.result:
                    cells.append("<td align='center'>…</td>")
                elif k == self.round and seat not in self.live:
                    cells.append("<td align='center' style='color:#aaa'>—</td>")
                else:
                    cells.append("<td></td>")
            turn = self.turns[seat]
            last = mini_dice(turn.kept, 16) if turn is not None else ""
            won = " <b style='color:#2e7d32'>★ wins</b>" if self.result and seat == self.winner else ""
            rows.append(f"<tr class='trois-player' style='{self.seats.row_style(seat)}'><td>{self.seats.who_html(seat)}{won}</td>"
                        f"{''.join(cells)}<td align='center'><b>{self.total(seat)}</b></td><td>{last}</td></tr>")
        lines = "".join(f"<div>{html.escape(line)}</div>" for line in self.lines)
        result = f"<div class='trois-result' style='font-weight:bold;margin-top:4px'>{html.escape(self.result)}</div>" if self.result else ""
        self.sheet.value = (
            "<h4 style='margin:8px 0 2px'>Score sheet: the lowest total wins</h4>"
            "<table class='trois-sheet' style='border-collapse:collapse;width:100%;font-size:13px'>"
            f"<tr><th align='left'>player</th>{head}<th>total</th><th align='left'>this round</th></tr>{''.join(rows)}</table>"
            f"<div style='font-size:13px;color:#555'>{lines}</div>{result}"
            "<small style='color:#777'>✦ a 0 (every other player pays a stake; stakes are not counted here).</small>"
        )

    def draw_chart(self) -> None:
        """The score of a turn played for the goal vs every 3 (or the lowest die), and their figures."""
        dice, goal = self.rules_now.dice, self.objective()
        if self.charted == (dice, goal):
            return
        best, rule = distributions(dice, goal)
        scores = list(range(0, 6 * dice + 1))
        name = "optimal" if goal.kind == "mean" else "played for the goal"
        frame = policy_frame({name: best, HEURISTIC_NAME: rule}, scores, str)
        text = goal.text(dice)
        values = [goal.figure(d, dice) for d in (best, rule)]
        title = alt.Title(f"Score of one turn with {dice} dice, playing for {text}",
                          subtitle=f"{'expected score' if goal.kind == 'mean' else text}: {name} {float(values[0]):.4f}, "
                                   f"{HEURISTIC_NAME} {float(values[1]):.4f} (exact)")
        self.chart.show(policy_bars(frame, title, f"score ({6 * dice}: the moon)", [str(s) for s in scores], width=500, height=200))
        self.charted = (dice, goal)
        rows = [("expected score", best.mean(), rule.mean()), ("P(score 0)", best[0] if 0 in best.outcomes else Fraction(0),
                                                                 rule[0] if 0 in rule.outcomes else Fraction(0))]
        if goal.kind in ("target", "win") and goal.target > 0:
            rows.append((text, *values))
        moon = Goal("moon")
        rows.append(("P(moon)", moon.figure(best, dice), moon.figure(rule, dice)))
        body = "".join(f"<tr style='border-top:1px solid #eee'><td style='white-space:nowrap'>{html.escape(a)}</td><td>{number_html(b, kind_of(a))}</td>"
                       f"<td>{number_html(c, kind_of(a))}</td></tr>" for a, b, c in rows)
        self.figures.value = (
            "<table class='figures' cellpadding='3' style='font-size:13px;border-collapse:collapse'><tr><th></th><th align='left'>"
            f"<span style='color:{OPTIMAL}'>■</span> {name}</th><th align='left'><span style='color:{HEURISTIC}'>■</span> "
            f"{HEURISTIC_NAME}</th></tr>{body}</table><small style='color:#555'>Exact (expectimax over every roll). "
            + ("The optimal player sets aside the dice that make the expected score least. " if goal.kind == "mean" else
               "Played for the goal: the best choice for it, ties broken by the least expected score. ")
            + "The person's rule sets aside every 3, or with no 3 the single lowest die.</small>"
        )

    def draw_moon(self) -> None:
        """P(moon) chasing it from each number of dice still to roll, the current one marked."""
        p = self.play
        dice = p.dice
        chances = moon_chances(dice)
        alive = all(d == 6 for d in p.kept) and not p.over and (p.roll is None or 6 in p.roll)
        here = (len(p.roll) if p.roll else p.left) if alive else 0
        frame = pl.DataFrame({
            "value": [f"{k}" for k in range(dice, 0, -1)],
            "probability": [float(chances[k - 1]) for k in range(dice, 0, -1)],
            "exact": [exact_str(chances[k - 1]) for k in range(dice, 0, -1)],
            "where": ["you are here" if k == here else "other" for k in range(dice, 0, -1)],
        })
        if p.over:
            now = "you shot the moon!" if p.moon else "turn over"
        elif not alive:
            lost = "a die other than 6 is set aside" if any(d != 6 for d in p.kept) else "this roll has no 6"
            now = f"your turn: the moon is lost ({lost})"
        elif p.roll is not None:
            now = f"your turn: the moon is still possible, P(moon) {number_text(p.hint('moon').value)} from this roll, chasing it"
        else:
            now = f"your turn: the moon is still possible, P(moon) {number_text(chances[here - 1])} before this roll"
        title = alt.Title("Shooting the moon: the chance chasing it (exact)", subtitle=now)
        base = alt.Chart(frame, title=title).encode(
            x=alt.X("value:N", title="dice still to roll, every die set aside so far a 6", sort=frame["value"].to_list(),
                    axis=alt.Axis(labelAngle=0)),
        )
        bars = base.mark_bar().encode(
            y=alt.Y("probability:Q", title="P(moon)"),
            color=alt.Color("where:N", scale=alt.Scale(domain=["you are here", "other"], range=[HELD, OPTIMAL]), legend=None),
            tooltip=["value", alt.Tooltip("probability:Q", format=".6f"), "exact"],
        )
        text = base.mark_text(dy=-6, fontSize=11, color="#333").encode(y="probability:Q", text=alt.Text("probability:Q", format=".4f"))
        self.moon.show(alt.layer(bars, text).properties(width=500, height=120))


def app(seed: int | None = None) -> widgets.Widget:
    """The Les Trois dashboard as one widget."""
    return TroisDashboard(seed).view
