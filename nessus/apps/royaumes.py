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
"""

from __future__ import annotations

import html
from fractions import Fraction

import altair as alt
import ipywidgets as widgets
import polars as pl

from nessus.apps.common import TableHTML, dice_html
from nessus.apps.dicegame import HELD, OPTIMAL, TableDashboard, mini_dice
from nessus.dist import exact_str
from nessus.games import royaumes
from nessus.games.royaumes import Result, Round
from nessus.numbers import number_html

ON_CLICK, AT_ONCE = "when you press Play on", "at once"
MACHINES = (ON_CLICK, AT_ONCE)
PLAYER, BANK = "player", "bank"
KINGDOM_COLOURS = {"Gahanam": "#9d755d", "Teur": "#54a24b", "Elysium": "#4c78a8"}
FINE_STEPS = 20
MAX_LOG = 300
SHOWN = {  # figure: (its name on the page, a probability or not)
    "p_bank_wins_all": ("P(the bank rolls 2-2, 5-3 or 6-6 and takes every stake)", "probability"),
    "p_bank_pays_all": ("P(the bank rolls 1-1, 3-2 or 6-3 and pays every player)", "probability"),
    "p_player_wins_duel": ("P(the bank rolls a duel result and the player beats it)", "probability"),
    "expected_fine_count": ("rolls outside the kingdom per player per round", "value"),
    "expected_fines": ("fines paid per player per round, in stakes", "value"),
    "player_ev": ("a player's expected net gain per round, in stakes", "value"),
    "bank_edge": ("the bank's expected gain per player per round, in stakes", "value"),
    "fair_fine": ("the fine that would make the game fair, in stakes", "value"),
}


# -- words and numbers -------------------------------------------------------------------------
def result_text(r: Result) -> str:
    """"4-2"."""
    return f"{r[0]}-{r[1]}"


def stakes_html(v: Fraction) -> str:
    """An amount in stakes, signed."""
    return ("+" if v > 0 else "") + number_html(v, "value")


def place_text(r: Result) -> str:
    """Where a result stands: "Teur, rank 2 of 7"."""
    return f"{royaumes.kingdom_of(r)}, rank {royaumes.rank_of(r) + 1} of 7"


def kingdoms_html(bank: Result | None, last: Result | None) -> str:
    """The 21 results in their kingdoms, lowest to highest: the bank's result ringed, the results
    that beat it in green, the last player roll ringed in orange, the special results marked."""
    rows = []
    kingdom = royaumes.kingdom_of(bank) if bank and royaumes.bank_outcome(bank) == "duel" else None
    for name, results in royaumes.KINGDOMS.items():
        cells = []
        for r in results:
            style = "border:2px solid transparent;border-radius:6px;padding:1px 2px;text-align:center"
            classes = ["royaumes-cell"]
            if kingdom == name and royaumes.rank_of(r) > royaumes.rank_of(bank):
                style += ";background:#dff0d8"
                classes.append("beats")
            if r == bank:
                style += ";border-color:#222;background:#eee"
                classes.append("bank")
            if r == last:
                style += f";border-color:{HELD}"
                classes.append("last")
            mark = ("<span title='the bank wins every stake' style='color:#b00020'>✖</span>" if r in royaumes.BANK_WINS_ALL
                    else "<span title='the bank pays every player' style='color:#2e7d32'>✚</span>" if r in royaumes.BANK_PAYS_ALL
                    else "&nbsp;")
            cells.append(f"<td class='{' '.join(classes)}' data-result='{result_text(r)}' style='{style}'>"
                         f"{mini_dice(r, size=18)}<div style='font-size:11px;line-height:13px'>{result_text(r)} {mark}</div></td>")
        weight = "bold" if name == kingdom else "normal"
        rows.append(f"<tr><td style='font-weight:{weight};color:{KINGDOM_COLOURS[name]};padding-right:6px'>{name}"
                    f"<div style='font-size:10px;color:#777'>{exact_str(royaumes.p_kingdom(name))} a roll</div></td>{''.join(cells)}</tr>")
    return ("<table class='royaumes-kingdoms' style='border-collapse:separate;border-spacing:2px;font-size:12px'>"
            f"{''.join(rows)}</table><small style='color:#555'>Each kingdom lowest to highest. "
            "<span style='color:#b00020'>✖</span> the bank wins every stake, "
            "<span style='color:#2e7d32'>✚</span> the bank pays every player.</small>")


# -- charts ----------------------------------------------------------------------------------------
def ev_frame(fine: Fraction) -> pl.DataFrame:
    """A player's EV and the bank's edge per round at fines 0, 1/20, ..., 1 and at `fine`."""
    fines = sorted({Fraction(k, FINE_STEPS) for k in range(FINE_STEPS + 1)} | {fine})
    rows: dict[str, list] = {"fine": [], "who": [], "stakes": [], "exact": [], "current": []}
    for f in fines:
        ev = royaumes.player_ev(f)
        for who, v in (("player's expected value", ev), ("bank's edge", -ev)):
            rows["fine"].append(float(f))
            rows["who"].append(who)
            rows["stakes"].append(float(v))
            rows["exact"].append(exact_str(v))
            rows["current"].append(f == fine)
    return pl.DataFrame(rows)


def ev_chart(frame: pl.DataFrame, title: alt.Title) -> alt.LayerChart:
    """Two lines against the fine, the current fine marked by a rule and labelled points."""
    colours = alt.Scale(domain=["player's expected value", "bank's edge"], range=[OPTIMAL, HELD])
    base = alt.Chart(frame).encode(
        x=alt.X("fine:Q", title="fine per roll outside the bank's kingdom (stakes)", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("stakes:Q", title="stakes per player per round"),
        color=alt.Color("who:N", scale=colours, title=None, legend=alt.Legend(orient="top")),
        tooltip=["who", alt.Tooltip("fine:Q", format=".3f"), alt.Tooltip("stakes:Q", format=".6f"), "exact"],
    )
    lines = base.mark_line()
    now = frame.filter(pl.col("current"))
    rule = alt.Chart(now.head(1)).mark_rule(strokeDash=[4, 3], color="#555").encode(x="fine:Q")
    points = base.transform_filter(alt.datum.current).mark_point(filled=True, size=70)
    labels = base.transform_filter(alt.datum.current).mark_text(dx=8, align="left", fontSize=11).encode(text="exact:N")
    zero = alt.Chart(pl.DataFrame({"y": [0.0]})).mark_rule(color="#999").encode(y="y:Q")
    return alt.layer(zero, lines, rule, points, labels, title=title).properties(width=470, height=190)


def duel_frame(fine: Fraction, bank: Result | None) -> pl.DataFrame:
    """`royaumes.duel_table` at this fine, with the bank's current result flagged."""
    table = royaumes.duel_table(royaumes.Rules(fine=fine))
    now = result_text(bank) if bank else ""
    return table.with_columns((pl.col("result") == now).alias("now"))


def duel_chart(frame: pl.DataFrame, title: alt.Title, highlight: bool) -> alt.LayerChart:
    """P(a player wins) for each result the bank can roll, coloured by kingdom; the bank's result
    of this round stands out."""
    order = frame["result"].to_list()
    kingdoms = list(royaumes.KINGDOMS)
    base = alt.Chart(frame).encode(x=alt.X("result:N", sort=order, title="the bank's result (each kingdom lowest to highest)",
                                           axis=alt.Axis(labelAngle=-45)))
    opacity = alt.condition(alt.datum.now, alt.value(1.0), alt.value(0.35)) if highlight else alt.value(0.9)
    bars = base.mark_bar(stroke="#222").encode(
        y=alt.Y("p_player_wins:Q", title="P(a player wins)", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("kingdom:N", sort=kingdoms, scale=alt.Scale(domain=kingdoms, range=list(KINGDOM_COLOURS.values())),
                        legend=alt.Legend(orient="top", title=None)),
        opacity=opacity,
        strokeWidth=alt.condition(alt.datum.now, alt.value(2), alt.value(0)),
        tooltip=[alt.Tooltip("result:N", title="bank rolls"), "kingdom", "outcome",
                 alt.Tooltip("p_bank_rolls_exact:N", title="P(bank rolls it)"),
                 alt.Tooltip("p_player_wins_exact:N", title="P(player wins)"),
                 alt.Tooltip("expected_fines_exact:N", title="expected fines (rolls)"),
                 alt.Tooltip("player_ev_exact:N", title="player's EV (stakes)")],
    )
    text = base.mark_text(dy=-6, fontSize=9, color="#333").encode(y="p_player_wins:Q", text="p_player_wins_exact:N")
    return alt.layer(bars, text, title=title).properties(width=470, height=190)


class RoyaumesDashboard(TableDashboard):
    """The widgets of the Les Royaumes page and the rounds they play."""

    notebook, title = "les-royaumes.ipynb", "Les Royaumes"
    sentence = ("The 21 results of two dice fall in three kingdoms. The bank rolls: on 2-2, 5-3 or 6-6 it takes every"
                " stake, on 1-1, 3-2 or 6-3 it pays every player; otherwise each player rolls until a result lands in"
                " the bank's kingdom, paying a fine for each roll outside it, and wins a stake by ranking strictly "
                "above the bank. Beside (below on a phone): a player's expected value per round as the fine varies, "
                "and the chance of winning against each result the bank can roll. Money in stakes, every figure "
                "exact.")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "royaumes", royaumes.PLAYERS, MACHINES,
                         "your exact chance of winning the duel, the fines to expect and every seat's expected gain this round")
        self.seats.machine.description = "they roll"
        self.role = widgets.ToggleButtons(options=[("a player's seat", PLAYER), ("the bank", BANK)], value=PLAYER,
                                          style={"button_width": "120px"})
        self.role.add_class("royaumes-role")
        role = widgets.HBox([widgets.HTML("you hold", layout=widgets.Layout(width="65px")), self.role])
        self.seats.box.children = (*self.seats.box.children, role)
        self.fine = self.param_field(royaumes.FINE, width="170px")
        self.fine.widget.add_class("royaumes-fine")

        self.kingdoms = widgets.HTML()
        self.dice = widgets.HTML()
        self.roll_button = widgets.Button(description="Roll", button_style="primary", icon="refresh",
                                          layout=widgets.Layout(width="170px"))
        self.roll_button.add_class("roll-button")
        self.play_button = widgets.Button(description="Play on", button_style="success", icon="forward",
                                          layout=widgets.Layout(width="205px"))
        self.play_button.add_class("play-button")
        self.new_button = widgets.Button(description="New round", layout=widgets.Layout(width="110px"))
        self.new_button.add_class("new-button")
        self.reset_button = widgets.Button(description="New game", tooltip="bankrolls back to 0", layout=widgets.Layout(width="100px"))
        self.reset_button.add_class("reset-button")
        self.actions = [self.roll_button, self.play_button, self.new_button, self.reset_button]
        self.hint.toggle.tooltip = "show the exact odds of the round from here"
        self.sheet = TableHTML(name="les-royaumes-bankrolls")
        self.log = widgets.HTML()
        self.ev_pane = self.chart_pane("270px", "ev-by-fine")
        self.figures = TableHTML(name="les-royaumes-figures")
        self.duel_pane = self.chart_pane("290px", "duel")

        self.role.observe(self.rules_guard(lambda _: self.new_role()), names="value")
        self.fine.widget.observe(self.rules_guard(lambda _: self.new_fine()), names="value")
        for button, handler in zip(self.actions, (self.roll, self.play_on, self.next_round, self.restart)):
            button.on_click(self.guard(lambda _, handler=handler: handler()))

        self.page([
            self.seats.mode, self.seats.box, self.fine.widget, self.messages.widget, self.kingdoms, self.dice,
            widgets.HBox([self.roll_button, self.play_button, self.new_button, self.reset_button]),
            self.status, self.hint.toggle, self.hint.widget, self.sheet, self.log,
        ], [self.ev_pane.widget, self.figures, self.duel_pane.widget], left_width="620px")
        self.new_mode()

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> royaumes.Rules:
        """The rules in the controls (alone: you are the only player), or a ValueError naming the bad one."""
        players = self.seats.players.value() if self.seats.game else 1
        return royaumes.Rules(fine=self.fine.value(), players=players)

    @property
    def banker(self) -> bool:
        """You hold the bank (in a game against the machine)."""
        return self.seats.game and self.role.value == BANK

    @property
    def you(self) -> int | None:
        """Your player seat from 0 (None when you hold the bank)."""
        return None if self.banker else (self.seats.you if self.seats.game else 0)

    @property
    def at_once(self) -> bool:
        return self.seats.game and self.seats.machine.value == AT_ONCE

    def yours(self) -> bool:
        """The next roll is yours to make (alone, every roll is)."""
        to_roll = self.round.to_roll
        if to_roll is None:
            return False
        if not self.seats.game:
            return True
        return to_roll == BANK if self.banker else to_roll == f"player {self.you + 1}"

    def name(self, seat: int | None) -> str:
        """"You", "Player n" or "The bank" (seat None)."""
        if seat is None:
            return "You (the bank)" if self.banker else "The bank"
        return "You" if seat == self.you else f"Player {seat + 1}"

    def next_up(self) -> str:
        """Who rolls next, in words ("the bank rolls", "you roll", "Player 2 rolls")."""
        to_roll = self.round.to_roll
        if to_roll == BANK:
            return "you roll for the bank" if self.banker else "the bank rolls"
        seat = self.round.settled
        return "you roll" if seat == self.you else f"Player {seat + 1} rolls"

    def new_mode(self) -> None:
        """Alone: you against the bank; in a game: players, seat or bank, how the machines roll."""
        self.seats.new_players()

    def new_role(self) -> None:
        self.seats.seat.layout.display = "none" if self.role.value == BANK else None
        self.restart()

    def new_fine(self) -> None:
        """A new fine: new charts and figures, and a new game at that fine."""
        self.restart()

    # -- the game ---------------------------------------------------------------------------------
    def restart(self) -> None:
        """A new game: bankrolls back to 0, the first round."""
        self.rules_now = self.rules()
        self.messages.clear()
        n = self.rules_now.players
        self.totals = [Fraction(0)] * n
        self.rounds_played = 0
        self.lines: list[str] = []
        self.draw_ev()
        self.new_round()

    def new_round(self) -> None:
        self.round = Round.start(self.rules_now)
        self.last_roll: tuple[int | None, tuple[int, int]] | None = None
        if self.at_once:
            self.machines_roll()
        self.draw_duel()
        self.draw_round()

    def next_round(self) -> None:
        """The New round button: the next round once this one is over."""
        if not self.round.over:
            raise ValueError("this round is not over yet: roll on (or press Play on)")
        self.new_round()

    def one_roll(self) -> None:
        """The next roll of the round (the bank's, or the current player's): the log and, at the
        end of the round, the bankrolls."""
        before = self.round
        seat = None if before.to_roll == BANK else before.settled
        dice = tuple(int(x) for x in self.rng.integers(1, 7, size=2))
        self.round = before.roll(dice=dice)
        self.last_roll = (seat, dice)
        r = royaumes.result_of(dice)
        who = self.name(seat)
        roll = f"{html.escape(who)} roll{'' if who.startswith('You') else 's'} {mini_dice(dice, 16)} <b>{result_text(r)}</b>"
        if seat is None:
            outcome = self.round.outcome
            if outcome == "bank wins all":
                what = "the bank takes every stake."
            elif outcome == "bank pays all":
                what = "the bank pays every player a stake."
            else:
                what = f"({place_text(r)}): each player must beat it in {royaumes.kingdom_of(r)}."
        else:
            bank = self.round.bank_result
            if royaumes.kingdom_of(r) != royaumes.kingdom_of(bank):
                what = f"({royaumes.kingdom_of(r)}): not in {royaumes.kingdom_of(bank)}, a fine of {exact_str(self.rules_now.fine)}."
            elif royaumes.rank_of(r) > royaumes.rank_of(bank):
                what = f"(rank {royaumes.rank_of(r) + 1}): beats {result_text(bank)}, wins a stake."
            else:
                what = f"(rank {royaumes.rank_of(r) + 1}): does not beat {result_text(bank)}, loses the stake."
        self.lines.append(f"<b>Round {self.rounds_played + 1}.</b> {roll} {what}")
        if self.round.over:
            self.totals = [t + v for t, v in zip(self.totals, self.round.nets)]
            self.rounds_played += 1

    def machines_roll(self) -> None:
        """The machines roll until the next roll is yours or the round is over."""
        while not self.round.over and not self.yours():
            self.one_roll()

    def roll(self) -> None:
        """Roll: your roll (alone, whichever roll comes next)."""
        if self.round.over:
            raise ValueError("the round is over: press New round")
        if not self.yours():
            raise ValueError(f"it is not your roll ({self.round.to_roll} rolls next): press Play on")
        was_bank = self.round.to_roll == BANK
        self.one_roll()
        if self.at_once:
            self.machines_roll()
        self.messages.clear()
        if was_bank:
            self.draw_duel()
        self.draw_round()  # last: its log line tells the page is up to date

    def play_on(self) -> None:
        """Play on: alone, roll to the end of the round; in a game, the machines roll until it is your roll."""
        if self.round.over:
            raise ValueError("the round is over: press New round")
        was_bank = self.round.to_roll == BANK
        if self.seats.game:
            if self.yours():
                raise ValueError("it is your roll: press Roll")
            self.machines_roll()
        else:
            while not self.round.over:
                self.one_roll()
        self.messages.clear()
        if was_bank:
            self.draw_duel()
        self.draw_round()  # last: its log line tells the page is up to date

    # -- drawing ---------------------------------------------------------------------------------
    def draw_round(self) -> None:
        rnd = self.round
        last = royaumes.result_of(self.last_roll[1]) if self.last_roll and self.last_roll[0] is not None else None
        self.kingdoms.value = kingdoms_html(rnd.bank_result, last)
        self.draw_dice()
        mine = self.yours()
        self.roll_button.disabled = rnd.over or not mine
        self.play_button.disabled = rnd.over or (self.seats.game and mine)
        self.new_button.disabled = not rnd.over
        to_roll = rnd.to_roll
        if rnd.over:
            self.roll_button.description = "Roll"
            todo = f"<b>Round {self.rounds_played} over</b>: {self.round_summary()} Press <b>New round</b>."
        else:
            who = self.next_up()
            self.roll_button.description = "Roll for the bank" if to_roll == BANK and mine else "Roll your dice" if mine else "Roll"
            if not self.seats.game:
                self.play_button.description = "Play on: end of round"
                todo = (f"Next: {who}. You roll for the bank and for yourself: <b>Roll</b> once, or <b>Play on</b> "
                        "to the end of the round.")
            elif mine:
                self.play_button.description = "Play on"
                todo = "<b>Your roll</b>: " + ("roll for the bank." if to_roll == BANK else "beat the bank's result.")
            else:
                self.play_button.description = "Play on"
                todo = f"Next: {who}: press <b>Play on</b> (the machines roll until it is your turn)."
        self.status.value = f"<div class='royaumes-status' style='font-size:15px;margin-top:4px'>{todo}</div>"
        self.hint.show(self.hint_html)
        self.draw_sheet()
        lines = "".join(f"<div>{line}</div>" for line in reversed(self.lines[-MAX_LOG:]))
        self.log.value = (f"<div class='royaumes-log' data-rolls='{len(self.lines)}' style='font-size:13px;line-height:1.7;max-height:170px;"
                          f"overflow-y:auto;border-top:1px solid #ddd;margin-top:6px'>{lines}</div>")  # last: the page is then up to date

    def round_summary(self) -> str:
        """What the round did, in a sentence."""
        rnd = self.round
        if rnd.outcome == "bank wins all":
            return f"the bank rolled {result_text(rnd.bank_result)} and took every stake."
        if rnd.outcome == "bank pays all":
            return f"the bank rolled {result_text(rnd.bank_result)} and paid every player."
        won = sum(1 for net, f in zip(rnd.nets, rnd.fines) if net + f * self.rules_now.fine > 0)
        return (f"against the bank's {result_text(rnd.bank_result)}, {won} of {len(rnd.nets)} player{'s' if len(rnd.nets) > 1 else ''} "
                f"won; the bank's net {stakes_html(rnd.bank_net)}.")

    def draw_dice(self) -> None:
        """The bank's dice and the last player roll, big."""
        rnd = self.round
        bank = (dice_html(rnd.bank)
                + f"<div style='font-size:12px'><b>{result_text(rnd.bank_result)}</b> · {place_text(rnd.bank_result)}</div>"
                if rnd.bank else dice_html((), empty="not rolled yet"))
        player = ""
        if self.last_roll and self.last_roll[0] is not None:
            seat, dice = self.last_roll
            r = royaumes.result_of(dice)
            player = (f"<div class='royaumes-player-dice' style='margin-left:24px'><div style='font-size:12px;color:#555'>"
                      f"{html.escape(self.name(seat))}: last roll</div>{dice_html(dice)}"
                      f"<div style='font-size:12px'><b>{result_text(r)}</b> · {place_text(r)}</div></div>")
        self.dice.value = (f"<div style='display:flex;align-items:flex-end;margin:6px 0'><div class='royaumes-bank-dice'>"
                           f"<div style='font-size:12px;color:#555'>{html.escape(self.name(None))}</div>{bank}</div>{player}</div>")

    def hint_html(self) -> str:
        """Given the bank's result: P(you win the duel), the fines to expect, the round's expected
        value; and every seat's expected net for the round from here."""
        rnd, fine = self.round, self.rules_now.fine
        nets = royaumes.expected_nets(rnd)
        bank = rnd.bank_result
        lines = []
        if bank is None:
            head = f"Before the bank rolls, each player expects {stakes_html(royaumes.player_ev(fine))} stakes this round."
            lines = [("P(the bank takes every stake)", number_html(royaumes.p_bank_wins_all())),
                     ("P(the bank pays every player)", number_html(royaumes.p_bank_pays_all())),
                     ("P(a player wins a duel), per round", number_html(royaumes.p_player_wins_duel())),
                     ("expected fines per player per round",
                      f"{number_html(royaumes.fines_per_round(), 'value')} rolls = "
                      f"{number_html(fine * royaumes.fines_per_round(), 'value')} stakes")]
        elif rnd.outcome != "duel":
            head = f"The bank rolled {result_text(bank)}: {rnd.outcome}; nothing is left to chance this round."
        else:
            kingdom = royaumes.kingdom_of(bank)
            q = royaumes.p_kingdom(kingdom)
            fines = royaumes.fines_expected(bank)
            head = (f"The bank rolled {result_text(bank)} ({place_text(bank)}). A duel's expected value for a player: "
                    f"{stakes_html(royaumes.player_ev_given(bank, fine))} stakes.")
            lines = [(f"P(a roll lands in {kingdom})", number_html(q)),
                     (f"P(the player beats {result_text(bank)})", number_html(royaumes.p_player_beats(bank))),
                     ("expected fines still to pay (the rolls outside the kingdom)",
                      f"{number_html(fines, 'value')} rolls = {number_html(fine * fines, 'value')} stakes"),
                     ("a player's expected gain from this duel", stakes_html(royaumes.player_ev_given(bank, fine)))]
        figures = "".join(f"<tr><td>{a}</td><td style='white-space:nowrap'>{b}</td></tr>" for a, b in lines)
        rows = []
        for seat in range(self.rules_now.players):
            state = ("to roll" if bank is None else "settled" if rnd.outcome != "duel" or seat < rnd.settled
                     else "rolling" if seat == rnd.settled else "waiting")
            style = "background:#fff4e5;" if seat == self.you else ""
            rows.append(f"<tr class='hint-row' data-seat='{seat + 1}' style='{style}border-top:1px solid #eee'>"
                        f"<td>{html.escape(self.name(seat))}</td>"
                        f"<td>{state}</td><td>{stakes_html(rnd.nets[seat])}</td><td>{stakes_html(nets[seat])}</td></tr>")
        bank_style = "background:#fff4e5;" if self.banker else ""
        rows.append(f"<tr class='hint-row' data-seat='bank' style='{bank_style}border-top:1px solid #ccc'>"
                    f"<td>{html.escape(self.name(None))}</td>"
                    f"<td></td><td>{stakes_html(rnd.bank_net)}</td><td>{stakes_html(-sum(nets, Fraction(0)))}</td></tr>")
        you = -sum(nets, Fraction(0)) if self.banker else nets[self.you]
        return (f"<div class='hint-best' style='margin:2px 0'>Your expected net this round, from here: "
                f"<b>{stakes_html(you)}</b> stakes</div>"
                f"<div style='color:#444;font-size:13px'>{head}</div>"
                f"<table class='figures-hint' cellpadding='2' style='font-size:13px'>{figures}</table>"
                "<table class='hint-table' cellpadding='3' style='border-collapse:collapse;width:100%;font-size:13px;margin-top:4px'>"
                "<tr style='background:#f4f4f4'><th align='left'>seat</th><th align='left'>duel</th><th align='left'>net so far</th>"
                f"<th align='left'>expected net this round</th></tr>{''.join(rows)}</table>"
                "<small style='color:#555'>Exact. The fines already paid are gone; the rolls to come do not depend on them.</small>")

    def draw_sheet(self) -> None:
        """This round and the running bankrolls of every seat."""
        rnd = self.round
        rows = []
        for seat in range(self.rules_now.players):
            rolls = " ".join(mini_dice(d, 14) for d in rnd.rolls[seat]) or "<span style='color:#999'>–</span>"
            style = ("background:#fff4e5;" if seat == self.you else "") + "border-top:1px solid #ddd"
            rows.append(f"<tr class='royaumes-player' style='{style}'><td>{html.escape(self.name(seat))}</td><td>{rolls}</td>"
                        f"<td align='center'>{rnd.fines[seat]}</td><td>{stakes_html(rnd.nets[seat])}</td>"
                        f"<td><b>{stakes_html(self.totals[seat])}</b></td></tr>")
        bank_total = -sum(self.totals, Fraction(0))
        style = ("background:#fff4e5;" if self.banker else "") + "border-top:2px solid #bbb"
        rows.append(f"<tr class='royaumes-player bank' style='{style}'><td>{html.escape(self.name(None))}</td>"
                    f"<td>{mini_dice(rnd.bank, 14) if rnd.bank else ''}</td><td></td><td>{stakes_html(rnd.bank_net)}</td>"
                    f"<td><b>{stakes_html(bank_total)}</b></td></tr>")
        expected = -royaumes.player_ev(self.rules_now.fine) * self.rules_now.players * self.rounds_played
        self.sheet.value = (
            f"<h4 style='margin:8px 0 2px'>Score sheet: {self.rounds_played} round{'s' if self.rounds_played != 1 else ''} played</h4>"
            "<table class='royaumes-sheet' cellpadding='3' style='border-collapse:collapse;width:100%;font-size:13px'>"
            "<tr><th align='left'>seat</th><th align='left'>rolls this round</th><th>fines</th><th align='left'>this round</th>"
            f"<th align='left'>bankroll</th></tr>{''.join(rows)}</table>"
            f"<div class='royaumes-result' style='font-size:13px;margin-top:2px'>The bank's expected net after {self.rounds_played} "
            f"round{'s' if self.rounds_played != 1 else ''}: {stakes_html(expected)} stakes; it has {stakes_html(bank_total)}.</div>"
        )

    def draw_ev(self) -> None:
        """A player's EV and the bank's edge against the fine, and the round's exact figures."""
        fine = self.rules_now.fine
        ev = royaumes.player_ev(fine)
        title = alt.Title("A player's expected value per round, by fine (exact)",
                          subtitle=f"EV = {exact_str(royaumes.player_ev(Fraction(0)))} − fine × "
                                   f"{exact_str(royaumes.fines_per_round())}; "
                                   f"at fine {exact_str(fine)}: {exact_str(ev)} ≈ {float(ev):.4f}")
        self.ev_pane.show(ev_chart(ev_frame(fine), title))
        figures = royaumes.report(self.rules_now).figures
        body = "".join(f"<tr><td>{html.escape(label)}</td><td style='white-space:nowrap'>{number_html(figures[k].exact, kind)}</td>"
                       "</tr>" for k, (label, kind) in SHOWN.items())
        self.figures.value = (f"<table class='figures' cellpadding='2' style='font-size:13px'>{body}</table>"
                              "<small style='color:#555'>Exact, per player per round. The fair fine is negative: even without "
                              "fines the bank has the edge.</small>")

    def draw_duel(self) -> None:
        """P(a player wins) by the bank's result, this round's result standing out."""
        bank = self.round.bank_result
        now = f"this round: the bank rolled {result_text(bank)}" if bank else "this round: the bank has not rolled yet"
        title = alt.Title("P(a player wins) for each result of the bank (exact)",
                          subtitle=f"✖ results: 0 (the bank takes all), ✚ results: 1 (it pays all); {now}")
        self.duel_pane.show(duel_chart(duel_frame(self.rules_now.fine, bank), title, bank is not None))


def app(seed: int | None = None) -> widgets.Widget:
    """The Les Royaumes dashboard as one widget."""
    return RoyaumesDashboard(seed).view
