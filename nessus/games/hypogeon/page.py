"""L'Hypogéon dashboard: play turns of 21 with dice (2d6, then one die at a time) with the exact
value of rolling and of standing beside you, alone against opponents who stand at k, or a
whole game against machine players to the points target.

Left: the dice, the total on a gauge from 2 to 21, Roll / Stand, your decisions and what each
cost, the hint panel, and the round (alone) or the score sheet (a game) with your exact chance
of winning it. Right: the exact distribution of the final total under "stand at k" and under
the best reply to k, your expected points per round for every rule you could follow, P(bust) and
P(21) by k, and the best reply to every k with the symmetric equilibria.

The page is here; what it draws (the dice, the sheet, the figures, the charts) is in `views`.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction
from functools import partial

import ipywidgets as widgets

from nessus.games.hypogeon import GAME
from nessus.games.hypogeon import views as v
from nessus.games.hypogeon.odds import best_response, optimal_points, points, reply_odds
from nessus.games.hypogeon.policies import opponents_text, optimal_text, standing_at
from nessus.games.hypogeon.rules import LIMIT, PLAYERS, STAND_AT, TARGET, Rules
from nessus.games.hypogeon.state import ROLL, STAND, State, TurnRecord, initial_state, round_text, score_round
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import TableDashboard, hint_table, mini_dice
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
        super().__init__(seed, "hypogeon", PLAYERS, v.MACHINES)
        self.stand_at = widgets.IntSlider(
            value=STAND_AT.default,
            min=2,
            max=LIMIT,
            description="they stand at",
            continuous_update=False,
            style={"description_width": "90px"},
            layout=widgets.Layout(width="330px"),
        )
        self.stand_at.add_class("hypogeon-stand-at")
        self.seats.seat.layout.display = "none"  # everyone plays at once: your seat changes nothing
        self.seats.players.widget.layout.width = "160px"
        self.target = self.param_field(TARGET, width="150px")
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
    @property
    def best_reply_machines(self) -> bool:
        """A game against machines that stand at the best reply to the slider's k."""
        return self.seats.game and self.seats.machine.value == v.BEST_REPLY

    def read_rules(self) -> Rules:
        """The rules in the controls: stand_at is the machines' rule (k, or the best reply to k), the
        one the hint plays against."""
        players, k = self.seats.players.value(), self.stand_at.value
        target = int(self.target.value() if self.seats.game else TARGET.default)
        stand_at = best_response(k, players)[0] if self.best_reply_machines else k
        return Rules(stand_at=stand_at, players=players, target=target)

    def new_rule(self) -> None:
        """Another k: a new game (the machines' rule changed); alone, the turn in play weighed
        anew against the new rule, or the next turn when the round is over."""
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
        self.scores = [0] * self.rules_now.players
        self.rounds: list[str] = []
        self.tally: list[v.Tally] = []
        self.result = ""
        self.state = initial_state(self.rules_now)
        self.new_turn()
        self.draw_charts()

    def new_turn(self) -> None:
        """Your next turn (alone: a round of a new game; in a game: its next round); the machines'
        turns are played when yours ends."""
        if not self.seats.game:
            self.state = initial_state(self.rules_now)
        self.turn = TurnRecord()
        self.decisions: list[str] = []
        self.cost: Fraction = Fraction(0)
        self.round_points: tuple[int | None, int] = (None, 0)
        self.round_text = ""
        self.round_start = tuple(self.scores)  # the odds below are all from this moment
        self.draw_turn()

    def next(self) -> None:
        """The New / Next button: a game's next round once your turn is over, or a new game once it is
        won (or before your turn ends); alone, a new turn."""
        if self.seats.game and (self.result or not self.turn.over):
            self.restart()
        else:
            self.new_turn()

    # -- your moves -------------------------------------------------------------------------------
    def move(self, action: str) -> None:
        """Roll (the first two dice, or one more die) or stand, weighed against the optimal move (its
        cost is added to the turn's); once your turn is over the round is played out and scored."""
        before = self.turn
        if before.over:
            raise ValueError(f"your turn is over: press {self.new_button.description}")
        if action == STAND and not before.rolls:
            raise ValueError("roll the two dice before you stand")
        cost = self.state.hint().cost(action) if before.rolls else None
        assert not isinstance(cost, float), "L'Hypogéon's hints are exact (expectimax)"
        self.cost += cost or 0
        self.state = self.state.roll(self.rng) if action == ROLL else self.state.stand()
        turn = self.state.turn_of(0)
        assert turn is not None
        self.turn = turn
        if cost is None or cost == 0:
            verdict = "" if cost is None else "<span class='verdict' style='color:#2e7d32'>✓ best</span>"
        else:
            worse = number_text(cost, kind="value")
            verdict = f"<span class='verdict' style='color:{v.BUST_RED}'>✗ costs {worse} points</span>"
        if turn.stood:
            self.decisions.append(f"stand on <b>{turn.total}</b> {verdict}")
        else:
            where = f"at {before.total}, " if before.rolls else ""
            bust = f" <b style='color:{v.BUST_RED}'>bust</b>" if turn.bust else ""
            self.decisions.append(f"{where}roll {mini_dice(turn.rolls[-1], 18)} → <b>{turn.total}</b>{bust} {verdict}")
        self.messages.clear()
        if turn.over:
            self.finish_round()
        self.draw_turn()

    def finish_round(self) -> None:
        """Your turn is over: the machines play theirs and the round is scored."""
        r = self.rules_now
        state = play(self.state, dict.fromkeys(range(1, r.players), standing_at(r.stand_at)), self.rng)
        assert isinstance(state, State)
        self.state, finals = state, state.finals
        seat, points_ = self.round_points = score_round(finals)
        self.round_text = round_text(finals, seat, points_, "" if seat is None else self.seats.name(seat))
        if not self.seats.game:
            k, n = r.stand_at, r.players
            self.tally.append((points_ if seat == 0 else 0, optimal_points(k, n), points(k, k, n), self.cost))
            return
        if seat is not None:
            self.scores[seat] += points_
        self.rounds.append(v.round_line(len(self.rounds) + 1, finals, self.round_text))
        if seat is not None and self.scores[seat] >= r.target:
            n = len(self.rounds)
            self.result = (
                f"{self.seats.name(seat)} {'win' if seat == 0 else 'wins'} the game with {self.scores[seat]} "
                f"points after {n} round{'s' if n > 1 else ''}."
            )

    # -- drawing ---------------------------------------------------------------------------------
    def draw_turn(self) -> None:
        """The dice, the buttons, the status, your decisions, the hint, the sheet and (last) the gauge."""
        t, r = self.turn, self.rules_now
        self.dice.value = v.dice_row(t.rolls)
        self.roll_button.disabled = t.over
        self.stop_button.disabled = t.over or not t.rolls
        self.roll_button.description = "Roll 2 dice" if not t.rolls else "Roll" if t.over else "Roll 1 die"
        self.stop_button.description = f"Stand on {t.total}" if t.rolls and not t.over else "Stand"
        if self.seats.game:
            self.new_button.description = "New game" if self.result or not t.over else "Next round"
        else:
            self.new_button.description = "New turn"
        self.status.value = v.status_html(t, r, self.stand_at.value if self.best_reply_machines else None)
        self.log.value = v.decisions_html(self.decisions, self.cost, t.over)
        self.draw_hint()
        self.draw_sheet()
        self.gauge.value = v.gauge_html(t, r.stand_at)  # last: the roll counter says the page is up to date

    def draw_hint(self) -> None:
        """The hint on your turn: what its values are (in a game: that they leave out the scores);
        before the first roll, what the round is worth played optimally; after it, the value of each
        move; and the optimal play against them."""
        state, turn, r = self.state, self.turn, self.rules_now
        if turn.over:
            self.hint.show(None, "Your turn is over: no decision is left to weigh.")
            return
        play = optimal_text(r.stand_at, r.players)
        scores = (
            " It does not weigh the scores of the game (the chance of winning the game)." if self.seats.game else ""
        )
        what = (
            "<div style='color:#555;font-size:12px;margin-bottom:3px'>Each value is your <b>expected points in this"
            f" round</b> (2 for a sole 21, 1 for a sole best total) against {opponents_text(r.players, r.stand_at)},"
            f" playing optimally afterwards: exact, by expectimax over every total.{scores}</div>"
        )
        if not turn.rolls:
            only = "The only move is to roll the two dice. Played optimally"
            self.hint.show(
                lambda: (
                    f"{what}{only} ({play}), this round is worth {number_html(state.hint().value, 'value')} "
                    "expected points to you."
                )
            )
            return
        note = f"<div style='color:#555;font-size:12px;margin-top:3px'>The optimal play against them: {play}.</div>"
        labels: dict[Hashable, str] = {STAND: f"stand on {turn.total}", ROLL: "roll one more die"}
        self.hint.show(lambda: what + hint_table(state.hint(), None, labels.__getitem__, unit="expected points") + note)

    def draw_sheet(self) -> None:
        """The round (alone) or the score sheet (a game): every player's dice, total and points."""
        r, game, over = self.rules_now, self.seats.game, self.turn.over
        rows = []
        for seat in range(r.players):
            turn = self.turn if seat == 0 else self.state.turns[seat] if over else None
            dice, final, won = v.player_cells(turn, seat, self.round_points)
            who = "You" if seat == 0 else f"Player {seat + 1} <small>(stands at {r.stand_at})</small>"
            score = v.score_cell(self.scores[seat], r.target) if game else ""
            rows.append(
                f"<tr class='hypogeon-player' style='{self.seats.row_style(seat)}'><td>{who}</td><td>{dice}</td>"
                f"<td align='center'>{final}</td><td align='center'>{won}</td>{score}</tr>"
            )
        s = "s" if r.target > 1 else ""
        title = f"Score sheet: first to {r.target} point{s}, round {len(self.rounds) + (0 if over else 1)}"
        sheet = v.sheet_html(title if game else "This round", rows, game, self.round_text if over else "", self.result)
        if not game:
            self.sheet.value = sheet + v.tally_html(self.tally)
            return
        odds = "" if self.result else v.odds_html(self.round_start, *reply_odds(r, self.round_start), r.stand_at)
        self.sheet.value = sheet + odds + v.rounds_html(self.rounds)

    def draw_charts(self) -> None:
        """The three chart panes and the figures, for the slider's k and the players."""
        k, n = self.stand_at.value, self.rules_now.players
        best = best_response(k, n)[0]
        self.totals.show(v.totals_chart(k, best, n))
        self.figures.value = v.figures_html(k, best, n)
        self.points.show(v.points_chart(k, n))
        self.by_k.show(v.by_k_charts(k, n))


def app(seed: int | None = None) -> widgets.Widget:
    """The L'Hypogéon dashboard as one widget."""
    return HypogeonDashboard(seed).view
