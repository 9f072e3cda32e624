"""L'Hypogéon's page: turns of 21 with dice (2d6, then one die at a time), the exact value of
rolling and of standing beside you, alone against opponents who stand at k or a whole game
against machine players to the points target; the charts of stand-at rules and best replies
beside. What it draws is in `views`."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction
from functools import partial
from typing import cast

import ipywidgets as widgets

from nessus.games import hypogeon
from nessus.games.hypogeon import GAME
from nessus.games.hypogeon import views as v
from nessus.games.hypogeon.odds import Tally
from nessus.games.hypogeon.state import ROLL, STAND, State, TurnRecord
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import TableDashboard, hint_table, mini_dice
from nessus.kit.match import log_html
from nessus.numbers import number_html, number_text
from nessus.play import play


class HypogeonDashboard(TableDashboard):
    """The widgets of the L'Hypogéon page and the turn (or game) they play."""

    game = GAME
    state: State  # the game (alone: a new one each turn)
    turn: TurnRecord  # your turn in it (seat 1)
    sentence = (
        "Roll two dice, then add one die at a time as long as you dare; above 21 you are bust. Each round a "
        "sole 21 earns 2 points, otherwise the single best total 1 point (a tie for best: nobody); first to "
        "the target wins. Everyone plays at once: the others' dice are shown when your turn ends. Beside "
        "(below on a phone): exact odds of the rule “stand at k” and of the best reply to it."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "hypogeon", hypogeon.PLAYERS, hypogeon.MACHINES)
        self.stand_at = widgets.IntSlider(
            value=hypogeon.STAND_AT.default,
            min=2,
            max=hypogeon.LIMIT,
            description="they stand at",
            continuous_update=False,
            style={"description_width": "90px"},
            layout=widgets.Layout(width="330px"),
        )
        self.stand_at.add_class("hypogeon-stand-at")
        self.seats.seat.layout.display = "none"  # everyone plays at once: your seat changes nothing
        self.seats.players.widget.layout.width = "160px"
        self.target = self.param_field(hypogeon.TARGET, width="150px")
        self.target.widget.add_class("hypogeon-target")
        self.seats.box.children = (self.seats.machine, self.target.widget)

        self.dice = widgets.HTML()
        self.gauge = widgets.HTML()
        self.roll_button, self.stop_button, self.new_button = self.moves(
            ("Roll 2 dice", "Stand", "New turn"), (partial(self.move, ROLL), partial(self.move, STAND), self.next)
        )
        self.log = widgets.HTML()
        self.sheet = TableHTML(name="l-hypogeon-scores")
        self.totals = self.chart_pane("260px", "final-total")
        self.figures = TableHTML(name="l-hypogeon-figures")
        self.points = self.chart_pane("220px", "points")
        self.by_k = self.chart_pane("230px", "by-k")

        self.stand_at.observe(self.rules_guard(lambda _: self.new_rule()), names="value")
        self.target.widget.observe(self.rules_guard(lambda _: self.restart()), names="value")

        self.page(
            [
                self.seats.mode,
                widgets.HBox([self.seats.players.widget, self.stand_at]),
                self.seats.box,
                self.messages.widget,
                self.dice,
                self.gauge,
                widgets.HBox([self.roll_button, self.stop_button, self.new_button]),
                self.status,
                self.log,
                self.hint.toggle,
                self.hint.widget,
                self.sheet,
            ],
            [self.totals.widget, self.figures, self.points.widget, self.by_k.widget],
            left_width="590px",
        )
        self.seats.new_players()

    # -- controls ---------------------------------------------------------------------------------
    def read_rules(self) -> hypogeon.Rules:
        """The rules in the controls: stand_at is the machines' rule, the one the hint plays against."""
        players, k = self.seats.players.value(), self.stand_at.value
        if not self.seats.game:
            return hypogeon.Rules(stand_at=k, players=players, target=int(hypogeon.TARGET.default))
        stand_at = hypogeon.machines_stand_at(self.seats.machine.value, k, players)
        return hypogeon.Rules(stand_at=stand_at, players=players, target=self.target.value())

    def new_rule(self) -> None:
        """Another k: a new game; alone, the turn in play weighed against it (or the next turn)."""
        if self.seats.game:
            self.restart()
            return
        self.rules_now = self.read_rules()
        self.messages.clear()
        if self.turn.over:
            self.new_turn()
        else:
            self.state = replace(self.state, rules=self.rules_now)  # the turn in play, weighed against the new rule
            self.draw_turn()
        self.draw_charts()

    def restart(self) -> None:
        """A new turn (alone: the tally starts again) or a new game."""
        self.rules_now = self.read_rules()
        self.messages.clear()
        self.tally = Tally()
        self.state = hypogeon.initial_state(self.rules_now)
        self.new_turn()
        self.draw_charts()

    def new_turn(self) -> None:
        """Your next turn (alone: a round of a new game; in a game: its next round)."""
        if not self.seats.game:
            self.state = hypogeon.initial_state(self.rules_now)
        self.turn = TurnRecord()
        self.decisions: list[str] = []
        self.cost = Fraction(0)
        self.round_start = tuple(self.state.scores)  # the odds of the game are all from this moment
        self.draw_turn()

    def next(self) -> None:
        """The New / Next button: a new game, a game's next round or (alone) a new turn."""
        if self.seats.game and (self.state.is_terminal() or not self.turn.over):
            self.restart()
        else:
            self.new_turn()

    # -- your moves -------------------------------------------------------------------------------
    def move(self, action: str) -> None:
        """Roll or stand, weighed against the optimal move; once your turn is over the machines play."""
        before = self.turn
        if before.over:
            raise ValueError(f"your turn is over: press {self.new_button.description}")
        if action == STAND and not before.rolls:
            raise ValueError("roll the two dice before you stand")
        cost = self.state.hint().cost(action) if before.rolls else None
        assert not isinstance(cost, float), "L'Hypogéon's hints are exact (expectimax)"
        self.cost += cost or 0
        self.state = self.state.roll(self.rng) if action == ROLL else self.state.stand()
        self.turn = cast(TurnRecord, self.state.turn_of(0))
        self.decisions.append(self.decision(before, cost))
        self.messages.clear()
        if self.turn.over:
            self.state = cast(State, play(self.state, hypogeon.machine_policies(self.rules_now), self.rng))
            if not self.seats.game:  # alone: your points against what the optimal rule and theirs expect
                self.tally.add(self.state.round_points[0], self.rules_now.stand_at, self.rules_now.players, self.cost)
        self.draw_turn()

    def decision(self, before: TurnRecord, cost: Fraction | int | None) -> str:
        """Your move from `before` in the log: the dice or the stand, the total, and what it cost
        against the best move (`cost` None: the first roll, which is no choice)."""
        turn = self.turn
        if cost is None or cost == 0:
            verdict = "" if cost is None else "<span class='verdict' style='color:#2e7d32'>✓ best</span>"
        else:
            worse = number_text(cost, kind="value")
            verdict = f"<span class='verdict' style='color:{v.BUST_RED}'>✗ costs {worse} points</span>"
        if turn.stood:
            return f"stand on <b>{turn.total}</b> {verdict}"
        where = f"at {before.total}, " if before.rolls else ""
        bust = f" <b style='color:{v.BUST_RED}'>bust</b>" if turn.bust else ""
        return f"{where}roll {mini_dice(turn.rolls[-1], 18)} → <b>{turn.total}</b>{bust} {verdict}"

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        """The dice, the buttons, the status, your decisions, the hint, the sheet and (last) the gauge."""
        t, r, game = self.turn, self.rules_now, self.seats.game
        self.dice.value = v.dice_row(t.rolls)
        self.roll_button.disabled = t.over
        self.stop_button.disabled = t.over or not t.rolls
        self.roll_button.description = "Roll 2 dice" if not t.rolls else "Roll" if t.over else "Roll 1 die"
        self.stop_button.description = f"Stand on {t.total}" if t.rolls and not t.over else "Stand"
        next_round = game and t.over and not self.state.is_terminal()
        self.new_button.description = "New turn" if not game else "Next round" if next_round else "New game"
        reply_to = self.stand_at.value if game and self.seats.machine.value == hypogeon.BEST_REPLY else None
        self.status.value = v.status_html(t, r.players, r.stand_at, reply_to)
        self.draw_log()
        self.draw_hint()
        self.sheet.value = v.sheet_html(self.state, t, self.seats, game, self.round_start, self.tally)
        self.gauge.value = v.gauge_html(t, r.stand_at)  # last: the roll counter says the page is up to date

    def draw_log(self) -> None:
        """Your decisions this turn (the latest first), and at its end what they cost against the best play."""
        log, n = log_html(self.decisions, "hypogeon-log", escape=False), len(self.decisions)
        if self.turn.over and n > 1 and self.cost:
            cost = f"cost <b>{number_html(self.cost, 'value')}</b> expected points against the best play"
            log += f"<div class='hypogeon-cost'>Your decisions this turn {cost}.</div>"
        elif self.turn.over and n > 1:
            log += "<div class='hypogeon-cost' style='color:#2e7d32'>Every decision this turn was optimal.</div>"
        self.log.value = f"<div style='font-size:13px;line-height:1.6'>{log}</div>"

    def draw_hint(self) -> None:
        """The hint on your turn: what its values are (in a game: that they leave out the scores);
        before the first roll what the round is worth played optimally, after it every move's value."""
        state, turn, r = self.state, self.turn, self.rules_now
        if turn.over:
            self.hint.show(None, "Your turn is over: no decision is left to weigh.")
            return
        best, them = hypogeon.optimal_text(r.stand_at, r.players), hypogeon.opponents_text(r.players, r.stand_at)
        scores = " It does not weigh the scores of the game (the chance of winning the game)."
        what = (
            "<div style='color:#555;font-size:12px;margin-bottom:3px'>Each value is your <b>expected points in this"
            f" round</b> (2 for a sole 21, 1 for a sole best total) against {them}, playing optimally afterwards:"
            f" exact, by expectimax over every total.{scores if self.seats.game else ''}</div>"
        )
        if not turn.rolls:
            only = f"The only move is to roll the two dice. Played optimally ({best}), this round is worth"
            self.hint.show(lambda: f"{what}{only} {number_html(state.hint().value, 'value')} expected points to you.")
            return
        note = f"<div style='color:#555;font-size:12px;margin-top:3px'>The optimal play against them: {best}.</div>"
        labels: dict[Hashable, str] = {STAND: f"stand on {turn.total}", ROLL: "roll one more die"}
        self.hint.show(lambda: what + hint_table(state.hint(), None, labels.__getitem__, unit="expected points") + note)

    def draw_charts(self) -> None:
        """The three chart panes and the figures, for the slider's k and the players."""
        k, n = self.stand_at.value, self.rules_now.players
        best = hypogeon.best_response(k, n)[0]
        self.totals.show(v.totals_chart(k, best, n))
        self.figures.value = v.figures_html(k, best, n)
        self.points.show(v.points_chart(k, n))
        self.by_k.show(v.by_k_charts(k, n))


def app(seed: int | None = None) -> widgets.Widget:
    """The L'Hypogéon dashboard as one widget."""
    return HypogeonDashboard(seed).view
