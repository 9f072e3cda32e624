"""Les Royaumes' page in words (strings only): the seats, the status line and the hint, from the
round and `you` (your player seat from 0, or None when you hold the bank)."""

from __future__ import annotations

from fractions import Fraction

from nessus.games import royaumes
from nessus.games.royaumes import State, kingdom_of, place_text, result_text
from nessus.numbers import number_html

PLAYER, BANK = "player", "bank"
"""The seats you may hold in a game against the machine (and `State.to_roll` for the bank's roll)."""


def seat_name(seat: int | None, you: int | None) -> str:
    """ "You", "Player n" or, for the bank (seat None), "The bank" ("You (the bank)" if you hold it)."""
    if seat is None:
        return "You (the bank)" if you is None else "The bank"
    return "You" if seat == you else f"Player {seat + 1}"


def stakes_html(v: Fraction) -> str:
    """An amount in stakes, signed."""
    return ("+" if v > 0 else "") + number_html(v, "value")


def mine_style(mine: bool, border: str = "1px solid #ddd") -> str:
    """A seat's row style: yours is tinted."""
    return ("background:#fff4e5;" if mine else "") + f"border-top:{border}"


def prompt(rnd: State, you: int | None, game: bool, mine: bool) -> tuple[str, str, str]:
    """The status line (the round's summary once it is over, else what to press) and the words of
    the Roll and Play on buttons (`game`: against the machine; `mine`: the next roll is yours)."""
    if rnd.round_over:
        todo = f"<b>Round {rnd.rounds_finished} over</b>: {summary(rnd)} Press <b>New round</b>."
    elif not game:
        todo = (
            f"Next: {rnd.next_up(you)}. You roll for the bank and for yourself: <b>Roll</b> once, or "
            "<b>Play on</b> to the end of the round."
        )
    elif mine:
        todo = "<b>Your roll</b>: " + ("roll for the bank." if rnd.to_roll == BANK else "beat the bank's result.")
    else:
        todo = f"Next: {rnd.next_up(you)}: press <b>Play on</b> (the machines roll until it is your turn)."
    roll = ("Roll for the bank" if rnd.to_roll == BANK else "Roll your dice") if mine else "Roll"
    status = f"<div class='royaumes-status' style='font-size:15px;margin-top:4px'>{todo}</div>"
    return status, roll, "Play on" if game else "Play on: end of round"


def summary(rnd: State) -> str:
    """What the round did, in a sentence."""
    assert rnd.bank_result is not None, "a round is over once the bank has rolled"
    bank, players = result_text(rnd.bank_result), len(rnd.nets)
    if rnd.outcome == "bank wins all":
        return f"the bank rolled {bank} and took every stake."
    if rnd.outcome == "bank pays all":
        return f"the bank rolled {bank} and paid every player."
    return (
        f"against the bank's {bank}, {rnd.duels_won()} of {players} player{'s' if players > 1 else ''} "
        f"won; the bank's net {stakes_html(rnd.bank_net)}."
    )


def odds_lines(rnd: State) -> tuple[str, list[tuple[str, str]]]:
    """The hint's sentence and figures: before the bank rolls, per round; given a duel, for it."""
    bank, fine = rnd.bank_result, rnd.rules.fine

    def fines(count: Fraction) -> str:
        return f"{number_html(count, 'value')} rolls = {number_html(fine * count, 'value')} stakes"

    if bank is None:
        return (
            f"Before the bank rolls, each player expects {stakes_html(royaumes.player_ev(fine))} stakes this round.",
            [
                ("P(the bank takes every stake)", number_html(royaumes.p_bank_wins_all())),
                ("P(the bank pays every player)", number_html(royaumes.p_bank_pays_all())),
                ("P(a player wins a duel), per round", number_html(royaumes.p_player_wins_duel())),
                ("expected fines per player per round", fines(royaumes.fines_per_round())),
            ],
        )
    if rnd.outcome != "duel":
        return f"The bank rolled {result_text(bank)}: {rnd.outcome}; nothing is left to chance this round.", []
    ev, kingdom = stakes_html(royaumes.player_ev_given(bank, fine)), kingdom_of(bank)
    return (
        f"The bank rolled {result_text(bank)} ({place_text(bank)}). A duel's expected value for a player: {ev} stakes.",
        [
            (f"P(a roll lands in {kingdom})", number_html(royaumes.p_kingdom(kingdom))),
            (f"P(the player beats {result_text(bank)})", number_html(royaumes.p_player_beats(bank))),
            ("expected fines still to pay (the rolls outside the kingdom)", fines(royaumes.fines_expected(bank))),
            ("a player's expected gain from this duel", ev),
        ],
    )


def hint_html(rnd: State, you: int | None) -> str:
    """The odds of the round from here (`odds_lines`) and every seat's expected net for it
    (`royaumes.expected_nets`)."""
    nets = royaumes.expected_nets(rnd)
    bank_ev = -sum(nets, Fraction(0))
    head, lines = odds_lines(rnd)
    figures = "".join(f"<tr><td>{a}</td><td style='white-space:nowrap'>{b}</td></tr>" for a, b in lines)
    rows = [
        f"<tr class='hint-row' data-seat='{seat + 1}' style='{mine_style(seat == you, '1px solid #eee')}'>"
        f"<td>{seat_name(seat, you)}</td><td>{rnd.seat_status(seat)}</td><td>{stakes_html(rnd.nets[seat])}</td>"
        f"<td>{stakes_html(net)}</td></tr>"
        for seat, net in enumerate(nets)
    ]
    rows.append(
        f"<tr class='hint-row' data-seat='bank' style='{mine_style(you is None, '1px solid #ccc')}'>"
        f"<td>{seat_name(None, you)}</td><td></td><td>{stakes_html(rnd.bank_net)}</td><td>{stakes_html(bank_ev)}</td>"
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
