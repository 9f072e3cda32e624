"""Les Royaumes' page in words (strings only): amounts, the status line and the hint's odds, from the
round and `you` (your player seat from 0, or None when you hold the bank)."""

from __future__ import annotations

from fractions import Fraction

from nessus.games import royaumes
from nessus.games.royaumes import State, place_text, result_text
from nessus.games.royaumes.odds import duel_figures
from nessus.numbers import number_html

PLAYER, BANK = "player", "bank"
"""The seats you may hold in a game against the machine (and `State.to_roll` for the bank's roll)."""


def stakes_html(v: Fraction) -> str:
    """An amount in stakes, signed."""
    return ("+" if v > 0 else "") + number_html(v, "value")


def prompt(rnd: State, you: int | None, game: bool, mine: bool) -> tuple[str, str, str]:
    """The status line (the round's summary once it is over, else what to press) and the words of
    the Roll and Play on buttons (`game`: against the machine; `mine`: the next roll is yours)."""
    if rnd.round_over:
        todo = f"<b>Round {rnd.rounds_finished} over</b>: {rnd.summary(stakes_html)} Press <b>New round</b>."
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


def odds_lines(rnd: State) -> tuple[str, list[tuple[str, str]]]:
    """The hint's sentence and figures (`royaumes.duel_figures`): per round before the bank rolls,
    else for the duel."""
    bank, fine = rnd.bank_result, rnd.rules.fine
    if bank is None:
        head = f"Before the bank rolls, each player expects {stakes_html(royaumes.player_ev(fine))} stakes this round."
    elif rnd.outcome != "duel":
        head = f"The bank rolled {result_text(bank)}: {rnd.outcome}; nothing is left to chance this round."
    else:
        ev = stakes_html(royaumes.player_ev_given(bank, fine))
        head = f"The bank rolled {result_text(bank)} ({place_text(bank)}). A duel's expected value for a player: "
        head += f"{ev} stakes."
    fmt = {
        "probability": number_html,
        "rolls": lambda n: f"{number_html(n, 'value')} rolls = {number_html(fine * n, 'value')} stakes",
        "stakes": stakes_html,
    }
    return head, [(name, fmt[unit](v)) for name, v, unit in duel_figures(bank, fine)]
