"""L'Hypogéon dashboard: play turns of 21 with dice (2d6, then one die at a time) with the exact
value of rolling and of standing beside you, alone against opponents who stand at k, or a
whole game against machine players to the points target.

Left: the dice, the total on a gauge from 2 to 21, Roll / Stand, your decisions and what each
cost, the hint panel, and the round (alone) or the score sheet (a game) with your exact chance
of winning it. Right: the exact distribution of the final total under "stand at k" and under
the best reply to k, your expected points per round for every rule you could follow, P(bust) and
P(21) by k, and the best reply to every k with the symmetric equilibria.

The figures, words and charts are pure functions in `nessus.apps.hypogeon_views`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import ipywidgets as widgets

from nessus.apps import hypogeon_views as v
from nessus.games import hypogeon
from nessus.games.hypogeon import LIMIT, Rules, TurnRecord
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import TableDashboard, hint_table, mini_dice
from nessus.numbers import number_html
from nessus.play import play


class HypogeonDashboard(TableDashboard):
    """The widgets of the L'Hypogéon page and the turn (or game) they play."""

    notebook, title = "l-hypogeon.ipynb", "L'Hypogéon"
    state: hypogeon.State  # the game (alone: a new one each turn)
    turn: TurnRecord  # your turn in it (seat 1)
    sentence = (
        "Roll two dice, then add one die at a time as long as you dare; above 21 you are bust. Each round a "
        "sole 21 earns 2 points, otherwise the single best total 1 point (a tie for best: nobody); first to "
        "the target wins. Everyone plays at once: the others' dice are shown when your turn ends. Beside "
        "(below on a phone): exact odds of the rule “stand at k” and of the best reply to it."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "hypogeon", hypogeon.PLAYERS, v.MACHINES)
        self.stand_at = widgets.IntSlider(
            value=hypogeon.STAND_AT.default,
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
        self.target = self.param_field(hypogeon.TARGET, width="150px")
        self.target.widget.add_class("hypogeon-target")
        self.seats.box.children = (self.seats.machine, self.target.widget)

        self.dice = widgets.HTML()
        self.gauge = widgets.HTML()
        self.roll_button, self.stop_button, self.new_button = self.moves(
            ("Roll 2 dice", "Stand", "New turn"), (self.roll, self.stand, self.next)
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
        target = int(self.target.value() if self.seats.game else hypogeon.TARGET.default)
        stand_at = hypogeon.best_response(k, players)[0] if self.best_reply_machines else k
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
        self.state = hypogeon.initial_state(self.rules_now)
        self.new_turn()
        self.draw_charts()

    def new_turn(self) -> None:
        """Your next turn (alone: a round of a new game; in a game: its next round); the machines'
        turns are played when yours ends."""
        if not self.seats.game:
            self.state = hypogeon.initial_state(self.rules_now)
        self.turn = TurnRecord()
        self.decisions: list[str] = []
        self.cost: Fraction = Fraction(0)
        self.machines: list[TurnRecord] = []
        self.round_points: tuple[int | None, int] = (None, 0)
        self.round_text = ""
        self.round_start = tuple(self.scores)  # the odds below are all from this moment
        self.odds = v.win_odds(self.rules_pair()[0], self.round_start) if self.seats.game else None
        self.draw_turn()

    def next(self) -> None:
        """The New / Next button."""
        if self.seats.game and not self.result and self.turn.over:
            self.new_turn()
        elif self.seats.game:
            self.restart()
        else:
            self.new_turn()

    def rules_pair(self) -> tuple[Rules, Rules]:
        """The game's rules with seat 1 (you) standing at the best reply to the machines, and at
        the machines' rule (for the chance of winning from here)."""
        r = self.rules_now
        return r, Rules(stand_at=r.stand_at, players=r.players, target=r.target, seat1="same")

    # -- your moves -------------------------------------------------------------------------------
    def roll(self) -> None:
        """The first roll (two dice) or one more die."""
        t = self.turn
        if t.over:
            raise ValueError(f"your turn is over: press {self.new_button.description}")
        verdict = self.judge("roll") if t.rolls else ""
        self.state = self.state.roll(self.rng)
        self.turn = self.your_turn()
        where = f"at {t.total}, " if t.rolls else ""
        bust = f" <b style='color:{v.BUST_RED}'>bust</b>" if self.turn.bust else ""
        self.decisions.append(
            f"{where}roll {mini_dice(self.turn.rolls[-1], 18)} → <b>{self.turn.total}</b>{bust} {verdict}"
        )
        self.after_move()

    def stand(self) -> None:
        """Keep the total."""
        if self.turn.over:
            raise ValueError(f"your turn is over: press {self.new_button.description}")
        if not self.turn.rolls:
            raise ValueError("roll the two dice before you stand")
        verdict = self.judge("stand")
        self.state = self.state.stand()
        self.turn = self.your_turn()
        self.decisions.append(f"stand on <b>{self.turn.total}</b> {verdict}")
        self.after_move()

    def judge(self, action: str) -> str:
        """Weigh your decision against the optimal one: its cost is added to the turn's; the
        verdict for the log is returned."""
        cost = self.state.hint().cost(action)
        assert not isinstance(cost, float), "L'Hypogéon's hints are exact (expectimax)"
        self.cost += cost
        return v.verdict_html(cost)

    def your_turn(self) -> TurnRecord:
        """Your turn (seat 1) in the round in play."""
        turn = self.state.turn_of(0)
        assert turn is not None
        return turn

    def after_move(self) -> None:
        """After your move: the messages cleared, the round scored if your turn is over, the page drawn."""
        self.messages.clear()
        if self.turn.over:
            self.finish_round()
        self.draw_turn()

    def finish_round(self) -> None:
        """Your turn is over: the machines play theirs and the round is scored."""
        r = self.rules_now
        machine = hypogeon.standing_at(r.stand_at)
        state = play(self.state, dict.fromkeys(range(1, r.players), machine), self.rng)
        assert isinstance(state, hypogeon.State)
        self.state = state
        self.machines = list(state.turns[1:])
        finals = state.finals
        seat, points = self.round_points = v.round_result(finals)
        self.round_text = v.round_text(finals, seat, points, "" if seat is None else self.seats.name(seat))
        if self.seats.game:
            if seat is not None:
                self.scores[seat] += points
            shown = " · ".join(f"{'you' if i == 0 else f'P{i + 1}'} {v.total_text(f)}" for i, f in enumerate(finals))
            self.rounds.append(f"Round {len(self.rounds) + 1}: {shown} → {self.round_text}")
            if seat is not None and self.scores[seat] >= r.target:
                n = len(self.rounds)
                self.result = (
                    f"{self.seats.name(seat)} {'win' if seat == 0 else 'wins'} the game with {self.scores[seat]} "
                    f"points after {n} round{'s' if n > 1 else ''}."
                )
        else:
            optimal = hypogeon.optimal_points(r.stand_at, r.players)
            same = hypogeon.points(r.stand_at, r.stand_at, r.players)
            self.tally.append((points if seat == 0 else 0, optimal, same, self.cost))

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
        self.log.value = v.log_html(self.decisions, self.cost, t.over)
        self.draw_hint()
        self.draw_sheet()
        self.gauge.value = v.gauge_html(t, r.stand_at)  # last: the roll counter says the page is up to date

    def draw_hint(self) -> None:
        """The hint: the value of rolling and of standing, or of the round before the first roll."""
        t, r = self.turn, self.rules_now
        what = v.hint_intro(r, self.seats.game)
        if t.over:
            self.hint.show(None, "Your turn is over: no decision is left to weigh.")
        elif not t.rolls:
            state = self.state
            self.hint.show(
                lambda: (
                    what + f"The only move is to roll the two dice. Played optimally ({v.optimal_play(r)}), "
                    f"this round is worth {number_html(state.hint().value, 'value')} expected points to you."
                )
            )
        else:
            state = self.state
            self.hint.show(
                lambda: (
                    what
                    + hint_table(state.hint(), None, lambda a: v.action_label(t, a), unit="expected points")
                    + f"<div style='color:#555;font-size:12px;margin-top:3px'>The optimal play against them: "
                    f"{v.optimal_play(r)}.</div>"
                )
            )

    def draw_sheet(self) -> None:
        """The round (alone) or the score sheet (a game): every player's dice, total and points."""
        r, game, over = self.rules_now, self.seats.game, self.turn.over
        rows = []
        for seat in range(r.players):
            turn = self.turn if seat == 0 else self.machines[seat - 1] if over else None
            dice, final, won = v.player_cells(turn, seat, self.round_points)
            who = "You" if seat == 0 else f"Player {seat + 1} <small>(stands at {r.stand_at})</small>"
            score = v.score_pips(self.scores[seat], r.target) if game else ""
            rows.append(
                f"<tr class='hypogeon-player' style='{self.seats.row_style(seat)}'><td>{who}</td><td>{dice}</td>"
                f"<td align='center'>{final}</td><td align='center'>{won}</td>{score}</tr>"
            )
        title = (
            f"Score sheet: first to {r.target} point{'s' if r.target > 1 else ''}, round "
            f"{len(self.rounds) + (0 if over else 1)}"
            if game
            else "This round"
        )
        tail = self.odds_html() + v.rounds_html(self.rounds) if game else v.tally_html(self.tally)
        self.sheet.value = v.sheet_html(title, rows, game, self.round_text if over else "", self.result) + tail

    def odds_html(self) -> str:
        """In a game not yet won: your exact chance of winning it from this round's start."""
        if self.result or self.odds is None:
            return ""
        best_rules, same_rules = self.rules_pair()
        same = v.win_odds(same_rules, self.round_start)[0][0]
        return v.odds_html(
            self.round_start,
            hypogeon.seat_rules(best_rules)[0],
            self.odds[0][0],
            same_rules.stand_at,
            same,
            self.odds[1],
        )

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
