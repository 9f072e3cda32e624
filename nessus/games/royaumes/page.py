"""Les Royaumes dashboard: rounds of 2d6 against a bank, alone (you roll for the bank too) or at a
table of machine players who roll when you press Play on (or at once), from a player's seat or
the bank's, with every exact figure of the duel beside you. The game is a kit `Match`."""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as widgets

from nessus.game import State as AnyState
from nessus.games import royaumes
from nessus.games.royaumes import views as v
from nessus.games.royaumes import words as w
from nessus.kit.common import TableHTML
from nessus.kit.match import Match
from nessus.kit.tablegame import ChanceTable, log_box


class RoyaumesDashboard(ChanceTable):
    """The widgets of the Les Royaumes page and the rounds they play."""

    game, unit = royaumes.GAME, "round"
    sentence = (
        "The 21 results of two dice fall in three kingdoms. The bank rolls: on 2-2, 5-3 or 6-6 it takes every"
        " stake, on 1-1, 3-2 or 6-3 it pays every player; otherwise each player rolls until a result lands in"
        " the bank's kingdom, paying a fine for each roll outside it, and wins a stake by ranking strictly "
        "above the bank. Beside (below on a phone): a player's expected value per round as the fine varies, "
        "and the chance of winning against each result the bank can roll. Money in stakes, every figure "
        "exact."
    )

    def __init__(self, seed: int | None = None) -> None:
        offer = "your exact chance of winning the duel, the fines to expect and every seat's expected gain this round"
        super().__init__(seed, "royaumes", royaumes.PLAYERS, offer, ("Roll", "Play on", "New round", "they roll"))
        self.role = widgets.ToggleButtons(
            options=[("a player's seat", w.PLAYER), ("the bank", w.BANK)],
            value=w.PLAYER,
            style={"button_width": "120px"},
        )
        self.role.add_class("royaumes-role")
        role = widgets.HBox([widgets.HTML("you hold", layout=widgets.Layout(width="65px")), self.role])
        self.seats.box.children = (*self.seats.box.children, role)
        self.fine = self.param_field(royaumes.FINE, width="170px")
        self.fine.widget.add_class("royaumes-fine")

        self.kingdoms = widgets.HTML()
        self.dice = widgets.HTML()
        self.reset_button = widgets.Button(description="New game", tooltip="bankrolls back to 0")
        self.reset_button.add_class("reset-button")
        self.reset_button.on_click(self.guard(lambda _: self.restart()))
        self.actions.append(self.reset_button)
        for b, width in zip(self.actions, ("170px", "205px", "110px", "100px")):
            b.layout.width = width
        self.hint.toggle.tooltip = "show the exact odds of the round from here"
        self.sheet = TableHTML(name="les-royaumes-bankrolls")
        self.ev_pane = self.chart_pane("270px", "ev-by-fine")
        self.figures = TableHTML(name="les-royaumes-figures")
        self.duel_pane = self.chart_pane("290px", "duel")
        self.charted: tuple[Fraction, royaumes.Result | None] | None = None  # the duel chart's fine and bank result

        self.role.observe(self.rules_guard(lambda _: self.new_role()), names="value")
        self.fine.widget.observe(self.rules_guard(lambda _: self.restart()), names="value")  # a new game at that fine

        right = [self.ev_pane.widget, self.figures, self.duel_pane.widget]
        self.lay_out([self.fine.widget], [self.kingdoms, self.dice], right, hint=[self.sheet])
        self.seats.new_players()  # the seats to choose from, and the first game

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> royaumes.Rules:
        """The rules in the controls (alone: you are the only player), or a ValueError naming the bad one.
        A game at the page lasts until New game: as many rounds as the rules allow."""
        players = self.seats.players.value() if self.seats.game else 1
        return royaumes.Rules(fine=self.fine.value(), players=players, rounds=int(royaumes.ROUNDS.hi))

    @property
    def you(self) -> int | None:
        """Your player seat from 0 (None when you hold the bank, in a game against the machine)."""
        if not self.seats.game:
            return 0
        return None if self.role.value == w.BANK else self.seats.you

    @property
    def over(self) -> bool:
        """Whether the round is over."""
        return self.round.round_over

    def mine(self, state: royaumes.State | None = None) -> bool:
        """The next roll (in `state`, default the round shown) is yours to make (alone, every roll is)."""
        rnd = state or self.round
        return rnd.to_roll is not None and (not self.seats.game or rnd.rolls_next(self.you))

    def new_role(self) -> None:
        """A player's seat or the bank: the seat to choose only for a player, and a new game."""
        self.seats.seat.layout.display = "none" if self.role.value == w.BANK else None
        self.restart()

    # -- the game ---------------------------------------------------------------------------------
    @property
    def round(self) -> royaumes.State:
        """The round in play, or the finished one until New round (the match's state)."""
        assert isinstance(self.match.state, royaumes.State)
        return self.match.state

    def restart(self) -> None:
        """A new game: bankrolls back to 0, the first round."""
        rules = self.rules()
        self.messages.clear()
        over = "<b>Game over</b>: every round is played."
        self.match = Match(
            royaumes.initial_state(rules),
            {},
            self.rng,
            describe=lambda before, dice: v.roll_line(before, dice, self.you),
            result=lambda _: over,
            you=None,
        )
        self.ev_pane.show(v.ev_chart(rules.fine))
        self.figures.value = v.figures_html(rules)
        self.go_on()

    def new(self) -> None:
        """The New round button: the next round once this one is over (the machines at once if so set)."""
        if not self.round.round_over:
            raise ValueError("this round is not over yet: roll on (or press Play on)")
        self.match.state = self.round.cleared()
        self.go_on()

    def play(self) -> None:
        """The machines roll (the match, through the one play loop) until the round is over or, in a
        game against the machine, the next roll is yours (alone, every roll is yours to leave to them)."""

        def stop(state: AnyState) -> bool:
            assert isinstance(state, royaumes.State)
            return state.round_over or (self.seats.game and self.mine(state))

        self.match.until = stop
        self.match.advance()

    def step(self) -> None:
        """Your roll (alone, whichever roll comes next), told in the log."""
        if not self.mine():
            raise ValueError(f"it is not your roll ({self.round.to_roll} rolls next): press Play on")
        low, high = sorted(int(x) for x in self.rng.integers(1, 7, size=2))
        self.match.tell(self.round, (low, high))
        self.match.state = self.round.roll(dice=(low, high))

    # -- drawing ---------------------------------------------------------------------------------
    def draw_table(self) -> str:
        """The duel chart (when the fine or the bank's result is new), the kingdoms, the dice, the
        status, the buttons' words, the hint and the sheet; the log's HTML."""
        rnd, you = self.round, self.you
        status = w.prompt(rnd, you, self.seats.game, self.mine())
        self.status.value, self.roll_button.description, self.play_button.description = status
        if self.charted != (rnd.rules.fine, rnd.bank_result):
            self.charted = (rnd.rules.fine, rnd.bank_result)
            self.duel_pane.show(v.duel_chart(*self.charted))
        self.kingdoms.value = v.kingdoms_html(rnd)
        self.dice.value = v.dice_panel(rnd, you)
        self.new_button.disabled = not rnd.round_over
        self.hint.show(lambda: v.hint_html(self.round, self.you))
        self.sheet.value = v.sheet_html(rnd, you)
        return log_box(self.match.lines, "royaumes", v.MAX_LOG, "170px", "1.7")


def app(seed: int | None = None) -> widgets.Widget:
    """The Les Royaumes dashboard as one widget."""
    return RoyaumesDashboard(seed).view
