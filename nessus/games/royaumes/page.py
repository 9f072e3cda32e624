"""Les Royaumes dashboard: rounds of 2d6 against a bank, alone or at a table of machine
players, with every exact figure of the duel beside you.

Left: the three kingdoms (the bank's result and what beats it lit up), the dice, Roll / Play
on / New round, the hint panel (given the bank's result: P(you win the duel), the fines to
expect, the round's expected value for every seat) and the score sheet with running
bankrolls. Right: a player's expected value per round (and the bank's edge) as a function of
the fine, and P(a player wins) for each result the bank can roll.

There is no decision in Les Royaumes: alone, you roll for the bank and for yourself; against
the machine, you hold a player's seat or the bank and the machines roll the rest when you
press Play on (or at once).

The game is a kit `Match` (the machines' rolls through `nessus.play.play`, the log in its
lines); the words, the status and the hint are pure functions in `words`, the pictures and the
charts in `views`, the odds in `odds`.
"""

from __future__ import annotations

import ipywidgets as widgets

from nessus.game import Action
from nessus.game import State as AnyState
from nessus.games import royaumes
from nessus.games.royaumes import views as v
from nessus.games.royaumes import words as w
from nessus.kit.common import TableHTML
from nessus.kit.dicegame import TableDashboard
from nessus.kit.match import Match


def button(description: str, css: str, width: str, **kwargs) -> widgets.Button:
    """A button of this width with this CSS class."""
    b = widgets.Button(description=description, layout=widgets.Layout(width=width), **kwargs)
    b.add_class(css)
    return b


class RoyaumesDashboard(TableDashboard):
    """The widgets of the Les Royaumes page and the rounds they play."""

    game = royaumes.GAME
    sentence = (
        "The 21 results of two dice fall in three kingdoms. The bank rolls: on 2-2, 5-3 or 6-6 it takes every"
        " stake, on 1-1, 3-2 or 6-3 it pays every player; otherwise each player rolls until a result lands in"
        " the bank's kingdom, paying a fine for each roll outside it, and wins a stake by ranking strictly "
        "above the bank. Beside (below on a phone): a player's expected value per round as the fine varies, "
        "and the chance of winning against each result the bank can roll. Money in stakes, every figure "
        "exact."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(
            seed,
            "royaumes",
            royaumes.PLAYERS,
            v.MACHINES,
            "your exact chance of winning the duel, the fines to expect and every seat's expected gain this round",
        )
        self.seats.machine.description = "they roll"
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
        self.roll_button = button("Roll", "roll-button", "170px", button_style="primary", icon="refresh")
        self.play_button = button("Play on", "play-button", "205px", button_style="success", icon="forward")
        self.new_button = button("New round", "new-button", "110px")
        self.reset_button = button("New game", "reset-button", "100px", tooltip="bankrolls back to 0")
        self.actions = [self.roll_button, self.play_button, self.new_button, self.reset_button]
        self.hint.toggle.tooltip = "show the exact odds of the round from here"
        self.sheet = TableHTML(name="les-royaumes-bankrolls")
        self.log = widgets.HTML()
        self.ev_pane = self.chart_pane("270px", "ev-by-fine")
        self.figures = TableHTML(name="les-royaumes-figures")
        self.duel_pane = self.chart_pane("290px", "duel")

        self.role.observe(self.rules_guard(lambda _: self.new_role()), names="value")
        self.fine.widget.observe(self.rules_guard(lambda _: self.restart()), names="value")  # a new game at that fine
        for b, handler in zip(self.actions, (self.roll, self.play_on, self.next_round, self.restart)):
            b.on_click(self.guard(lambda _, handler=handler: handler()))

        self.page(
            [
                self.seats.mode,
                self.seats.box,
                self.fine.widget,
                self.messages.widget,
                self.kingdoms,
                self.dice,
                widgets.HBox(self.actions),
                self.status,
                self.hint.toggle,
                self.hint.widget,
                self.sheet,
                self.log,
            ],
            [self.ev_pane.widget, self.figures, self.duel_pane.widget],
            left_width="620px",
        )
        self.new_mode()

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> royaumes.Rules:
        """The rules in the controls (alone: you are the only player), or a ValueError naming the bad one.
        A game at the page lasts until New game: as many rounds as the rules allow."""
        players = self.seats.players.value() if self.seats.game else 1
        return royaumes.Rules(fine=self.fine.value(), players=players, rounds=int(royaumes.ROUNDS.hi))

    @property
    def banker(self) -> bool:
        """You hold the bank (in a game against the machine)."""
        return self.seats.game and self.role.value == w.BANK

    @property
    def you(self) -> int | None:
        """Your player seat from 0 (None when you hold the bank)."""
        return None if self.banker else (self.seats.you if self.seats.game else 0)

    @property
    def at_once(self) -> bool:
        """The machines roll at once (not when you press Play on)."""
        return self.seats.game and self.seats.machine.value == v.AT_ONCE

    def yours(self, state: royaumes.State | None = None) -> bool:
        """The next roll (in `state`, default the round shown) is yours to make (alone, every roll is)."""
        to_roll = (state or self.round).to_roll
        if to_roll is None:
            return False
        if not self.seats.game:
            return True
        you = self.you
        return to_roll == w.BANK if you is None else to_roll == f"player {you + 1}"

    def name(self, seat: int | None) -> str:
        """ "You", "Player n" or "The bank" (seat None)."""
        return w.seat_words(seat, self.you)

    def names(self) -> list[str]:
        """Every player seat's name."""
        return [self.name(seat) for seat in range(self.rules_now.players)]

    def new_mode(self) -> None:
        """Alone: you against the bank; in a game: players, seat or bank, how the machines roll."""
        self.seats.new_players()

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
        self.rules_now = self.rules()
        self.messages.clear()
        start = royaumes.initial_state(self.rules_now)
        self.match = Match(
            start,
            {},
            self.rng,
            describe=self.told,
            result=lambda _: "<b>Game over</b>: every round is played.",
            you=None,
        )
        self.ev_pane.show(v.ev_chart(v.ev_frame(self.rules_now.fine), v.ev_title(self.rules_now.fine)))
        self.figures.value = v.figures_html(self.rules_now)
        self.new_round()

    def new_round(self) -> None:
        """The next round: the machines roll at once if they do, then the page is drawn."""
        if self.round.round_over:
            self.match.state = self.round.cleared()
        self.last_roll: tuple[int | None, tuple[int, int]] | None = None
        if self.at_once:
            self.machines_roll()
        self.draw_duel()
        self.draw_round()

    def next_round(self) -> None:
        """The New round button: the next round once this one is over."""
        if not self.round.round_over:
            raise ValueError("this round is not over yet: roll on (or press Play on)")
        self.new_round()

    def one_roll(self) -> None:
        """Your roll (the bank's, or the current player's): drawn, told in the log."""
        first, second = (int(x) for x in self.rng.integers(1, 7, size=2))
        before = self.round
        self.match.tell(before, (first, second))
        self.match.state = before.roll(dice=(first, second))

    def told(self, before: AnyState, dice: Action) -> str:
        """A roll for the log (who rolled, the dice, what it did), kept as the last roll shown."""
        assert isinstance(before, royaumes.State) and isinstance(dice, tuple)
        pair = (int(dice[0]), int(dice[1]))
        seat = None if before.to_roll == w.BANK else before.settled
        self.last_roll = (seat, pair)
        return v.roll_line(before.roll(dice=pair), seat, pair, self.name(seat), self.rules_now.fine)

    def machines_roll(self, to_the_end: bool = False) -> None:
        """The machines roll (the match, through the one play loop) until the next roll is yours or
        the round is over (`to_the_end`: until the round is over)."""

        def stop(state: AnyState) -> bool:
            assert isinstance(state, royaumes.State)
            return state.round_over or (not to_the_end and self.yours(state))

        self.match.until = stop
        self.match.advance()

    def roll(self) -> None:
        """Roll: your roll (alone, whichever roll comes next)."""
        if self.round.round_over:
            raise ValueError("the round is over: press New round")
        if not self.yours():
            raise ValueError(f"it is not your roll ({self.round.to_roll} rolls next): press Play on")
        was_bank = self.round.to_roll == w.BANK
        self.one_roll()
        if self.at_once:
            self.machines_roll()
        self.after_rolls(was_bank)

    def play_on(self) -> None:
        """Play on: alone, roll to the end of the round; in a game, the machines roll until it is your roll."""
        if self.round.round_over:
            raise ValueError("the round is over: press New round")
        was_bank = self.round.to_roll == w.BANK
        if self.seats.game:
            if self.yours():
                raise ValueError("it is your roll: press Roll")
            self.machines_roll()
        else:
            self.machines_roll(to_the_end=True)
        self.after_rolls(was_bank)

    def after_rolls(self, was_bank: bool) -> None:
        """After rolls: the messages cleared, the duel chart redrawn if the bank rolled, the round drawn."""
        self.messages.clear()
        if was_bank:
            self.draw_duel()
        self.draw_round()  # last: its log line tells the page is up to date

    # -- drawing ---------------------------------------------------------------------------------
    def draw_round(self) -> None:
        """The kingdoms, the dice, the buttons, the status, the hint, the sheet and (last) the log."""
        rnd, fine = self.round, self.rules_now.fine
        seat, dice = self.last_roll if self.last_roll else (None, None)
        player_roll = (self.name(seat), dice) if seat is not None and dice is not None else None
        self.kingdoms.value = v.kingdoms_html(
            rnd.bank_result, royaumes.result_of(player_roll[1]) if player_roll else None
        )
        self.dice.value = v.dice_panel(rnd, self.name(None), player_roll)
        mine = self.yours()
        self.roll_button.disabled = rnd.round_over or not mine
        self.play_button.disabled = rnd.round_over or (self.seats.game and mine)
        self.new_button.disabled = not rnd.round_over
        self.status.value = w.status_html(
            rnd, fine, rnd.rounds_finished, self.seats.game, mine, w.next_up(rnd, self.you)
        )
        bank_roll = rnd.to_roll == w.BANK
        self.roll_button.description = (
            "Roll for the bank" if mine and bank_roll else "Roll your dice" if mine else "Roll"
        )
        if not rnd.round_over:
            self.play_button.description = "Play on" if self.seats.game else "Play on: end of round"
        self.hint.show(lambda: w.hint_html(self.round, self.rules_now.fine, self.names(), self.name(None), self.you))
        self.sheet.value = v.sheet_html(
            rnd, rnd.banked(), rnd.rounds_finished, fine, self.names(), self.name(None), self.you
        )
        self.log.value = v.log_html(self.match.lines)  # last: the page is then up to date

    def draw_duel(self) -> None:
        """P(a player wins) by the bank's result, this round's result standing out."""
        bank = self.round.bank_result
        self.duel_pane.show(v.duel_chart(v.duel_frame(self.rules_now.fine, bank), v.duel_title(bank), bank is not None))


def app(seed: int | None = None) -> widgets.Widget:
    """The Les Royaumes dashboard as one widget."""
    return RoyaumesDashboard(seed).view
