"""Le Palais dashboard: play a turn of poker dice with the exact value of every hold beside
you, alone (for a goal you choose) or in a game against machine players.

Left: the dice (click one to hold or release it), Roll / Stop, the hint panel and, in a
game, the players' hands. Right: the exact distribution of the final hand under the optimal
holds for the goal against "keep the most common face", and the single-roll odds of each hand.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction
from functools import cache, partial

import altair as alt
import ipywidgets as widgets
import numpy as np
import polars as pl

from nessus.apps.common import TableHTML
from nessus.apps.dicegame import (
    DiceTray, TableDashboard, counter_html, hint_table, mini_dice, policy_bars, policy_frame, probability_bars,
)
from nessus.dist import Dist, exact_str
from nessus.games import palais
from nessus.games.palais import AtLeast, Beat, Outlast, Turn
from nessus.numbers import number_html

BEAT = "beat"
NAMES = {h: h.replace("_", " ").capitalize() for h in palais.HANDS}
GOALS = [(f"at least {NAMES[h]}", h) for h in palais.HANDS[1:-1]] + [("Palais", "palais"), ("beat a given hand", BEAT)]
MACHINES = ("optimal", "most common face")
TIE_BREAKS = [("A: higher dice win", "A"), ("B: same hand, roll off", "B")]
DEFAULT_TARGET = "3 3 3 2 2"

Objective = AtLeast | Beat | Outlast


# -- goals and policies (what the machine players and the chart play) -------------------------------
def goal_text(objective: Objective) -> str:
    """The goal in words, as a probability."""
    if isinstance(objective, AtLeast):
        return "P(Palais)" if objective.hand == "palais" else f"P({NAMES[objective.hand]} or better)"
    if isinstance(objective, Beat):
        tie = ", a tie counting half" if objective.tie else ""
        if objective.tie_break == "B":
            return f"P(a better hand than {NAMES[palais.category(objective.target)]}{tie})"
        return f"P(beating {hand_text(objective.target)}{tie})"
    return f"P(none of {objective.others} later player{'s' if objective.others > 1 else ''} beats you)"


def heuristic(objective: Objective) -> palais.Policy:
    """Keep the most common face: stop at the goal's hand (at least X), once ahead (beat a
    hand), or at Manoir (the opener); otherwise hold every die of the most common face."""
    if isinstance(objective, AtLeast):
        return palais.keep_most_common(objective.hand)
    if isinstance(objective, Beat):
        return partial(_chase_most_common, objective)
    return palais.keep_most_common("manoir")


def _chase_most_common(goal: Beat, state: palais.State) -> palais.Action:
    _, kept, rolled = state
    if rolled and palais.strength(tuple(sorted(kept + rolled)), goal.tie_break) > palais.strength(goal.target, goal.tie_break):
        return "stop"
    return palais.keep_most_common("palais")(state)


@cache
def optimal(objective: Objective, sticky: bool) -> palais.Policy:
    """The optimal holds for the goal (cached: the machine players reuse them)."""
    return palais.optimal(objective, palais.Rules(sticky_holds=sticky))


@cache
def final_hands(objective: Objective, sticky: bool) -> tuple[Dist, Dist, Fraction, Fraction]:
    """The final hand's exact distribution under the optimal holds and under the heuristic,
    and the goal's probability under each."""
    rules = palais.Rules(sticky_holds=sticky)
    best = palais.hand_distribution(optimal(objective, sticky), rules)
    rule = palais.hand_distribution(heuristic(objective), rules)
    value = [sum((p * Fraction(objective(h)) for h, p in d.items()), Fraction(0)) for d in (best, rule)]
    return best, rule, value[0], value[1]


def play_machine(turn: Turn, policy: palais.Policy, rng: np.random.Generator) -> Turn:
    """A whole turn played by `policy`."""
    while not turn.over:
        action = policy(turn.state)
        if action == "roll":
            turn = turn.roll(rng)
        elif action == "stop":
            turn = turn.stop()
        else:
            turn = turn.hold(action).roll(rng)
    return turn


def reading_order(hand: Sequence[int]) -> list[int]:
    """Five dice as a player reads them: the most common faces first, highest first (5 5 5 5 2)."""
    counts = Counter(hand)
    return sorted(hand, key=lambda f: (counts[f], f), reverse=True)


def hand_text(hand: Sequence[int]) -> str:
    """The dice in reading order, as text ("5 5 5 5 2")."""
    return " ".join(map(str, reading_order(hand)))


def parse_hand(text: str) -> tuple[int, ...]:
    """Five dice typed as "3 3 3 2 2" (spaces or commas), or a ValueError saying how to type them."""
    words = [w for w in re.split(r"[\s,;]+", text.strip()) if w]
    if len(words) != palais.DICE or not all(w.isdigit() and 1 <= int(w) <= 6 for w in words):
        raise ValueError(f"hand to beat: type five dice from 1 to 6, e.g. {DEFAULT_TARGET} (got {text!r})")
    return tuple(sorted(int(w) for w in words))


def action_label(turn: Turn, action: Hashable) -> str:
    """An action in the game's words, with little dice."""
    if action == "roll":
        return "roll all five dice"
    if action == "stop":
        return f"stop: keep {NAMES[turn.category]}" if turn.rolled else "stop"
    if not action:
        return "reroll all five"
    return f"hold {mini_dice(action, held=True)} reroll {palais.DICE - len(action)}"


class PalaisDashboard(TableDashboard):
    """The widgets of the Le Palais page and the turn (or game) they play."""

    notebook, title = "le-palais.ipynb", "Le Palais"
    sentence = ("Poker dice: roll five dice up to three times, holding any of them between rolls; the best hand wins "
                "(Palais, Tour, Manoir, Grande suite, Trident, Suite, Deux paires, Paire, Faillite). Beside (below on"
                " a phone): how the final hand falls out when you hold optimally for your goal, or keep the most "
                "common face, and the odds of each hand on a single roll.")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "palais", palais.PLAYERS, MACHINES)
        narrow = {"description_width": "90px"}
        self.goal = widgets.Dropdown(options=GOALS, value="manoir", description="goal", style=narrow, layout=widgets.Layout(width="260px"))
        self.goal.add_class("palais-goal")
        self.target = widgets.Text(value=DEFAULT_TARGET, description="hand to beat", continuous_update=False, style=narrow,
                                   layout=widgets.Layout(width="220px", display="none"))
        self.sticky = widgets.Checkbox(value=False, description="set-aside dice stay aside", indent=False,
                                       layout=widgets.Layout(width="240px"))
        self.tie_break = widgets.Dropdown(options=TIE_BREAKS, value="A", description="equal hands", style=narrow,
                                          tooltip=palais.TIE_BREAK.help, layout=widgets.Layout(width="300px"))
        self.tie_break.add_class("palais-tie-break")
        self.tray = DiceTray(palais.DICE, "held", on_change=self.guard(lambda: self.draw_choice()))
        self.roll_button, self.stop_button, self.new_button = self.moves(("Roll 5 dice", "Stop", "New turn"),
                                                                         (self.roll, self.stop, self.restart))
        self.table = widgets.HTML()
        self.chart = self.chart_pane("330px", "final-hand")
        self.figures = TableHTML(name="le-palais-figures")
        self.single = self.chart_pane("220px", "single-roll")

        rules_guard = self.rules_guard
        self.goal.observe(rules_guard(lambda _: self.new_goal()), names="value")
        self.target.observe(rules_guard(lambda _: self.new_goal()), names="value")
        self.sticky.observe(rules_guard(lambda _: self.restart()), names="value")
        self.tie_break.observe(rules_guard(lambda _: self.restart()), names="value")

        self.page([
            self.seats.mode, widgets.HBox([self.goal, self.target]), self.seats.box,
            widgets.HBox([self.sticky, self.tie_break]), self.messages.widget,
            widgets.HTML("<small style='color:#555'>Click a die to hold it (or release it); Roll rerolls the others.</small>"),
            self.tray.widget, widgets.HBox([self.roll_button, self.stop_button, self.new_button]),
            self.counter, self.status, self.hint.toggle, self.hint.widget, self.table,
        ], [self.chart.widget, self.figures, self.single.widget], left_width="590px")
        self.seats.new_players()
        self.draw_single()

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> palais.Rules:
        """The rules in the controls (players only counts in a game)."""
        players = self.seats.players.value() if self.seats.game else palais.PLAYERS.default
        return palais.Rules(sticky_holds=self.sticky.value, tie_break=self.tie_break.value, players=players)

    def chosen_goal(self) -> Objective:
        """The goal in the controls (playing alone)."""
        if self.goal.value == BEAT:
            return Beat(parse_hand(self.target.value), self.tie_break.value)
        return AtLeast(self.goal.value)

    def objective(self) -> Objective:
        """What the hint and the chart are for: your goal alone, your seat's goal in a game."""
        return self.turn.objective() if self.seats.game else self.chosen_goal()

    def new_mode(self) -> None:
        game = self.seats.game
        self.goal.layout.display = "none" if game else None
        self.target.layout.display = "none" if game or self.goal.value != BEAT else None
        self.new_button.description = "New game" if game else "New turn"
        self.restart()

    def new_goal(self) -> None:
        self.target.layout.display = None if self.goal.value == BEAT and not self.seats.game else "none"
        if not self.seats.game:
            self.objective()
            self.messages.clear()
        self.draw_chart()
        self.draw_choice()

    def restart(self) -> None:
        """A new turn (alone) or a new game: the machine players before you play at once."""
        self.rules_now = self.rules()
        self.messages.clear()
        if self.seats.game:
            n = self.rules_now.players
            self.you = self.seats.you
            self.hands: list[Turn | None] = [None] * n
            self.result, self.winner = "", -1
            for seat in range(self.you):
                self.play_seat(seat)
        self.turn = Turn.start(self.rules_now, target=self.best_so_far() if self.seats.game else None)
        self.tray.show((), empty="Press Roll to throw the five dice.")
        self.draw_turn()
        self.draw_chart()

    # -- the game ---------------------------------------------------------------------------------
    def best_so_far(self) -> tuple[int, ...] | None:
        """The strongest hand played so far in the game (None before anyone has played)."""
        done = [t.hand for t in self.hands if t is not None]
        return max(done, key=lambda h: palais.strength(h, self.rules_now.tie_break)) if done else None

    def play_seat(self, seat: int) -> None:
        """A machine player's whole turn, chasing the best hand so far."""
        turn = Turn.start(self.rules_now, target=self.best_so_far())
        goal = turn.objective()
        policy = optimal(goal, self.rules_now.sticky_holds) if self.seats.machine.value == "optimal" else heuristic(goal)
        self.hands[seat] = play_machine(turn, policy, self.rng)

    def finish_game(self) -> None:
        """You have played: the players after you play, and the best hand wins."""
        self.hands[self.you] = self.turn
        for seat in range(self.you + 1, len(self.hands)):
            self.play_seat(seat)
        key = [palais.strength(t.hand, self.rules_now.tie_break) for t in self.hands]
        top = [i for i, k in enumerate(key) if k == max(key)]
        winner = top[0] if len(top) == 1 else int(self.rng.choice(top))
        name = self.seats.name(winner)
        hand = self.hands[winner]
        verb = "win" if winner == self.you else "wins"
        rolloff = f"{' and '.join(self.seats.name(i) for i in top)} tie; a roll-off picks one at random: " if len(top) > 1 else ""
        self.result = f"{rolloff}{name} {verb} with {NAMES[hand.category]} ({hand_text(hand.hand)})."
        self.winner = winner

    # -- your moves -------------------------------------------------------------------------------
    def roll(self) -> None:
        """Hold the dice marked held and roll the others (the first roll: all five)."""
        if self.turn.over:
            raise ValueError("the turn is over: press " + self.new_button.description)
        if self.turn.rolled:
            hold = self.tray.held_faces
            if len(hold) == palais.DICE:
                raise ValueError("every die is held: release the dice you want to reroll, or press Stop")
            self.turn = self.turn.hold(hold)
        n = palais.DICE - len(self.turn.kept)
        new = [int(x) for x in self.rng.integers(1, palais.SIDES + 1, size=n)]
        self.turn = self.turn.roll(dice=new)
        if len(self.turn.history) == 1:
            self.tray.faces, self.tray.held = new, [False] * n
        else:
            self.tray.reroll(new)
        self.messages.clear()
        self.after_move()

    def stop(self) -> None:
        """Keep the hand as it is."""
        if self.turn.over:
            raise ValueError("the turn is over: press " + self.new_button.description)
        if not self.turn.rolled:
            raise ValueError("roll the dice before you stop")
        self.turn = self.turn.stop()
        self.messages.clear()
        self.after_move()

    def after_move(self) -> None:
        if self.turn.over and self.seats.game:
            self.finish_game()
        self.draw_turn()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        t = self.turn
        if t.rolled:
            sticky = self.rules_now.sticky_holds
            held = [h and not t.over for h in self.tray.held]
            locked = [h and sticky for h in held]
            self.tray.show(self.tray.faces, held, locked, active=not t.over)
        self.stop_button.disabled = t.over or not t.rolled
        self.roll_button.disabled = t.over
        if not t.rolled:
            self.status.value = "<div class='palais-status'>Your turn: press <b>Roll 5 dice</b>.</div>"
        else:
            cat = NAMES[t.category]
            end = " <b>Turn over.</b>" if t.over else ""
            self.status.value = (f"<div class='palais-status' style='font-size:15px'>Your hand: <b class='palais-hand'>{cat}</b> "
                                 f"({hand_text(t.hand)}).{end}</div>")
        self.draw_table()
        self.draw_choice()
        self.counter.value = counter_html(len(t.history), palais.ROLLS, t.over)  # last: the page is then up to date

    def chosen(self) -> Hashable:
        """What the dice marked held say you will do."""
        t = self.turn
        if not t.rolled:
            return "roll"
        hold = self.tray.held_faces
        return "stop" if len(hold) == palais.DICE else hold

    def draw_choice(self) -> None:
        """The Roll button's label and the hint for the dice marked held."""
        t = self.turn
        if t.rolled and not t.over:
            n = palais.DICE - len(self.tray.held_faces)
            self.roll_button.description = f"Roll {n} di{'e' if n == 1 else 'ce'}" if n else "Roll (hold fewer)"
        elif not t.rolled:
            self.roll_button.description = "Roll 5 dice"
        if t.over:
            self.roll_button.description = "Roll"
            self.hint.show(None, "The turn is over: no move is left to weigh.")
            return
        try:
            goal = self.objective()
        except ValueError as e:
            self.hint.show(None, html.escape(str(e)))
            return
        self.hint.show(lambda: f"<div style='color:#555'>Goal: <b>{html.escape(goal_text(goal))}</b></div>"
                       + hint_table(t.hint(goal), self.chosen(), partial(action_label, t), unit="probability"))

    def draw_table(self) -> None:
        """The players' final hands in a game."""
        if not self.seats.game:
            self.table.value = ""
            return
        rows = []
        for seat, t in enumerate(self.hands):
            you = seat == self.you
            who = self.seats.who_html(seat)
            if t is None:
                hand, cat = ("<i>playing…</i>" if you else "<i>to play</i>"), ""
            else:
                hand, cat = mini_dice(reading_order(t.hand)), f"<b>{NAMES[t.category]}</b> <small>in {len(t.history)} roll{'s' if len(t.history) > 1 else ''}</small>"
            won = " <b style='color:#2e7d32'>★ wins</b>" if self.result and seat == self.winner else ""
            rows.append(f"<tr class='palais-player' style='{self.seats.row_style(seat)}'><td><b>{seat + 1}</b></td>"
                        f"<td>{who}{won}</td><td>{hand}</td><td>{cat}</td></tr>")
        result = f"<div class='palais-result' style='font-weight:bold;margin-top:4px'>{html.escape(self.result)}</div>" if self.result else ""
        self.table.value = (f"<h4 style='margin:8px 0 2px'>The game, in seat order</h4><table class='palais-players' cellpadding='3' "
                            f"style='border-collapse:collapse;width:100%'>{''.join(rows)}</table>{result}")

    def draw_chart(self) -> None:
        """The final hand under the optimal holds for the goal vs keeping the most common face."""
        goal = self.objective()
        best, rule, v_best, v_rule = final_hands(goal, self.rules_now.sticky_holds)
        names = [NAMES[h] for h in palais.HANDS]
        cats = {"optimal holds": best.map(palais.category), "most common face": rule.map(palais.category)}
        frame = policy_frame(cats, palais.HANDS, NAMES.__getitem__)
        text = goal_text(goal)
        title = alt.Title(f"Your final hand, playing for {text}",
                          subtitle=f"{text}: optimal holds {float(v_best):.4f}, most common face {float(v_rule):.4f}")
        self.chart.show(policy_bars(frame, title, "final hand", names, width=500, height=200))
        self.figures.value = (
            "<table class='figures' cellpadding='3' style='font-size:13px'>"
            f"<tr><th align='left'>{html.escape(text)}</th><th align='left'>exact</th></tr>"
            f"<tr><td><span style='color:#4c78a8'>■</span> optimal holds</td><td>{number_html(v_best)}</td></tr>"
            f"<tr><td><span style='color:#f58518'>■</span> keep the most common face</td><td>{number_html(v_rule)}</td></tr>"
            "</table><small style='color:#555'>The bars: the exact chance of ending the turn with each hand. The optimal "
            "holds maximise the goal's probability; the person's rule holds every die of the most common face.</small>"
        )

    def draw_single(self) -> None:
        """The chance of each hand on a single roll of five dice."""
        p = palais.p_single()
        frame = pl.DataFrame({
            "value": [NAMES[h] for h in palais.HANDS],
            "probability": [float(p[h]) for h in palais.HANDS],
            "exact": [f"{exact_str(p[h])} = {p[h] * 7776}/7776" for h in palais.HANDS],
        })
        self.single.show(probability_bars(frame, "Each hand on a single roll of five dice (exact)", "hand",
                                          [NAMES[h] for h in palais.HANDS], width=500, height=130))


def app(seed: int | None = None) -> widgets.Widget:
    """The Le Palais dashboard as one widget."""
    return PalaisDashboard(seed).view
