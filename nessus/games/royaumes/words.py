"""Les Royaumes in words (strings only: no widgets, no charts): results and where they stand,
the seats' names, what a roll did, the round's summary, the status line and the hint (the exact
odds of the round from where it stands, every seat's expected net), as pure functions of the
round, the fine and the seats. `you` is your player seat from 0, or None when you hold the bank."""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction

from nessus.games.royaumes.odds import (
    Result,
    fines_expected,
    fines_per_round,
    kingdom_of,
    p_bank_pays_all,
    p_bank_wins_all,
    p_kingdom,
    p_player_beats,
    p_player_wins_duel,
    player_ev,
    player_ev_given,
    rank_of,
    result_of,
)
from nessus.games.royaumes.state import State, expected_nets
from nessus.numbers import exact_str, number_html

PLAYER, BANK = "player", "bank"
"""The seats you may hold in a game against the machine (and `State.to_roll` for the bank's roll)."""


def result_text(r: Result) -> str:
    """ "4-2"."""
    return f"{r[0]}-{r[1]}"


def stakes_html(v: Fraction) -> str:
    """An amount in stakes, signed."""
    return ("+" if v > 0 else "") + number_html(v, "value")


def place_text(r: Result) -> str:
    """Where a result stands: "Teur, rank 2 of 7"."""
    return f"{kingdom_of(r)}, rank {rank_of(r) + 1} of 7"


def mine_style(mine: bool, border: str = "1px solid #ddd") -> str:
    """A seat's row style: yours is tinted."""
    return ("background:#fff4e5;" if mine else "") + f"border-top:{border}"


def seat_words(seat: int | None, you: int | None) -> str:
    """ "You", "Player n" or, for the bank (seat None), "The bank" ("You (the bank)" if you hold it)."""
    if seat is None:
        return "You (the bank)" if you is None else "The bank"
    return "You" if seat == you else f"Player {seat + 1}"


def next_up(rnd: State, you: int | None) -> str:
    """Who rolls next, in words ("the bank rolls", "you roll for the bank", "you roll", "Player 2 rolls")."""
    if rnd.to_roll == BANK:
        return "you roll for the bank" if you is None else "the bank rolls"
    return "you roll" if rnd.settled == you else f"Player {rnd.settled + 1} rolls"


# -- the round ---------------------------------------------------------------------------------------
def roll_text(rnd: State, seat: int | None, dice: tuple[int, int], fine: Fraction) -> str:
    """What a roll did (`rnd`: the round after it; `seat` None: the bank's roll), for the log."""
    r = result_of(dice)
    if seat is None:
        if rnd.outcome == "bank wins all":
            return "the bank takes every stake."
        if rnd.outcome == "bank pays all":
            return "the bank pays every player a stake."
        return f"({place_text(r)}): each player must beat it in {kingdom_of(r)}."
    bank = rnd.bank_result
    assert bank is not None, "a player rolls once the bank has"
    if kingdom_of(r) != kingdom_of(bank):
        return f"({kingdom_of(r)}): not in {kingdom_of(bank)}, a fine of {exact_str(fine)}."
    if rank_of(r) > rank_of(bank):
        return f"(rank {rank_of(r) + 1}): beats {result_text(bank)}, wins a stake."
    return f"(rank {rank_of(r) + 1}): does not beat {result_text(bank)}, loses the stake."


def round_summary(rnd: State, fine: Fraction) -> str:
    """What the round did, in a sentence."""
    bank = rnd.bank_result
    assert bank is not None, "a round is over once the bank has rolled"
    if rnd.outcome == "bank wins all":
        return f"the bank rolled {result_text(bank)} and took every stake."
    if rnd.outcome == "bank pays all":
        return f"the bank rolled {result_text(bank)} and paid every player."
    players = len(rnd.nets)
    return (
        f"against the bank's {result_text(bank)}, {rnd.duels_won()} of {players} player{'s' if players > 1 else ''} "
        f"won; the bank's net {stakes_html(rnd.bank_net)}."
    )


def status_html(rnd: State, fine: Fraction, played: int, game: bool, mine: bool, up: str) -> str:
    """The status line: the round's summary once it is over, else what to press (`game`: against the
    machine; `mine`: the next roll is yours; `up`: who rolls next, `next_up`)."""
    if rnd.round_over:
        todo = f"<b>Round {played} over</b>: {round_summary(rnd, fine)} Press <b>New round</b>."
    elif not game:
        todo = (
            f"Next: {up}. You roll for the bank and for yourself: <b>Roll</b> once, or <b>Play on</b> "
            "to the end of the round."
        )
    elif mine:
        todo = "<b>Your roll</b>: " + ("roll for the bank." if rnd.to_roll == BANK else "beat the bank's result.")
    else:
        todo = f"Next: {up}: press <b>Play on</b> (the machines roll until it is your turn)."
    return f"<div class='royaumes-status' style='font-size:15px;margin-top:4px'>{todo}</div>"


# -- the hint ----------------------------------------------------------------------------------------
def fines_html(fines: Fraction, fine: Fraction) -> str:
    """Expected fines as rolls and as stakes."""
    return f"{number_html(fines, 'value')} rolls = {number_html(fine * fines, 'value')} stakes"


def odds_lines(rnd: State, fine: Fraction) -> tuple[str, list[tuple[str, str]]]:
    """The hint's sentence and figures: before the bank rolls, per round; given a duel, for it."""
    bank = rnd.bank_result
    if bank is None:
        return (
            f"Before the bank rolls, each player expects {stakes_html(player_ev(fine))} stakes this round.",
            [
                ("P(the bank takes every stake)", number_html(p_bank_wins_all())),
                ("P(the bank pays every player)", number_html(p_bank_pays_all())),
                ("P(a player wins a duel), per round", number_html(p_player_wins_duel())),
                ("expected fines per player per round", fines_html(fines_per_round(), fine)),
            ],
        )
    if rnd.outcome != "duel":
        return f"The bank rolled {result_text(bank)}: {rnd.outcome}; nothing is left to chance this round.", []
    kingdom, ev = kingdom_of(bank), stakes_html(player_ev_given(bank, fine))
    return (
        f"The bank rolled {result_text(bank)} ({place_text(bank)}). A duel's expected value for a player: {ev} stakes.",
        [
            (f"P(a roll lands in {kingdom})", number_html(p_kingdom(kingdom))),
            (f"P(the player beats {result_text(bank)})", number_html(p_player_beats(bank))),
            ("expected fines still to pay (the rolls outside the kingdom)", fines_html(fines_expected(bank), fine)),
            ("a player's expected gain from this duel", ev),
        ],
    )


def hint_html(rnd: State, fine: Fraction, names: Sequence[str], bank_name: str, you: int | None) -> str:
    """Given the bank's result: P(you win the duel), the fines to expect, the round's expected
    value; and every seat's expected net for the round from here (`you` None: you hold the bank)."""
    nets = expected_nets(rnd)
    head, lines = odds_lines(rnd, fine)
    figures = "".join(f"<tr><td>{a}</td><td style='white-space:nowrap'>{b}</td></tr>" for a, b in lines)
    rows = [
        f"<tr class='hint-row' data-seat='{seat + 1}' style='{mine_style(seat == you, '1px solid #eee')}'>"
        f"<td>{html.escape(name)}</td><td>{rnd.seat_status(seat)}</td><td>{stakes_html(rnd.nets[seat])}</td>"
        f"<td>{stakes_html(nets[seat])}</td></tr>"
        for seat, name in enumerate(names)
    ]
    bank_ev = -sum(nets, Fraction(0))
    rows.append(
        f"<tr class='hint-row' data-seat='bank' style='{mine_style(you is None, '1px solid #ccc')}'>"
        f"<td>{html.escape(bank_name)}</td><td></td><td>{stakes_html(rnd.bank_net)}</td><td>{stakes_html(bank_ev)}</td>"
        "</tr>"
    )
    return (
        f"<div class='hint-best' style='margin:2px 0'>Your expected net this round, from here: "
        f"<b>{stakes_html(bank_ev if you is None else nets[you])}</b> stakes</div>"
        f"<div style='color:#444;font-size:13px'>{head}</div>"
        f"<table class='figures-hint' cellpadding='2' style='font-size:13px'>{figures}</table>"
        "<table class='hint-table' cellpadding='3' style='border-collapse:collapse;width:100%;font-size:13px;"
        "margin-top:4px'><tr style='background:#f4f4f4'><th align='left'>seat</th><th align='left'>duel</th>"
        f"<th align='left'>net so far</th><th align='left'>expected net this round</th></tr>{''.join(rows)}</table>"
        "<small style='color:#555'>Exact. The fines already paid are gone; the rolls to come do not depend on them."
        "</small>"
    )
