"""Nessie dashboard, the advice box: the look-ahead player's line and the optimal player's (its
move and exact values in treasure this turn, "thinking…" while a worker thread solves the turn,
or the failure), as HTML. Each optimal line carries the ticket of the request it answers."""

from __future__ import annotations

import html
from fractions import Fraction

from nessus.games.nessie.cards import Hand, Situation
from nessus.games.nessie.odds import LETTER_VALUE, Choice, best_take
from nessus.games.nessie.optimal import OptimalChoice, optimal_choice
from nessus.numbers import number_html

BOX = "max-width:520px"


def lookahead_html(c: Choice, revealed: int) -> str:
    """The look-ahead player's line in the advice box."""
    who = f"<b>Look-ahead player</b> <small>(one card ahead, letters worth {LETTER_VALUE})</small>: "
    move = (
        "<b>reveal</b> (compulsory)."
        if revealed == 0
        else "<b>reveal</b> one more card."
        if c.reveal
        else f"<b>stop and take {c.stop_take}</b>."
    )
    return f"<div class='lookahead-advice'>{who}{move}</div>"


def advice_html(lines: str) -> str:
    """The advice box around its lines ("" when there are none)."""
    return (
        f"<div class='nessie-advice' style='{BOX};margin:6px 0;padding:4px 8px;background:#e6f4f1;"
        f"border-radius:4px;line-height:1.5'>{lines}</div>"
        if lines
        else ""
    )


def optimal_div(ticket: int, state: str, body: str, move: str = "") -> str:
    """The optimal player's line in the advice box; `data-ticket` says which request it answers."""
    who = "<b>Optimal player</b> <small>(most treasure this turn, exact)</small>: "
    color = ";color:#b00020" if state == "error" else ""
    return (
        f"<div class='optimal-advice' data-ticket='{ticket}' data-state='{state}' data-move='{move}' "
        f"style='margin-top:2px{color}'>{who}{body}</div>"
    )


def thinking_html(ticket: int) -> str:
    """The optimal player's line while the worker thread solves the turn."""
    return optimal_div(
        ticket,
        "thinking",
        "<i>thinking…</i> <small style='color:#555'>(it solves your whole turn: "
        "a game's first turn is read from stored values in under a second, "
        "a later one can take a few seconds)</small>",
    )


def optimal_html(ticket: int, c: OptimalChoice, n: int, compulsory: bool) -> str:
    """The optimal player's move (taking the last `n` cards if it stops) and its exact values, in treasure this turn."""
    took = "nothing" if n == 0 else f"{n} card{'s' if n > 1 else ''}"
    stop = f"if it stops now, taking {took}: {number_html(c.stop_value, 'value')} treasure"
    if c.reveal_value is None:
        move, why = f"stop and take {n}", f"no unseen card is left to reveal; {stop}."
    else:
        reveal = f"if it reveals, then plays on optimally: {number_html(c.reveal_value, 'value')} treasure on average"
        if compulsory:
            move = "reveal (compulsory)"
            why = f"your whole turn, played optimally: {number_html(c.reveal_value, 'value')} treasure on average."
        elif c.reveal:
            move, why = "reveal", f"{reveal}; {stop}."
        else:
            move, why = f"stop and take {n}", f"{stop}; {reveal}."
    return optimal_div(ticket, "ready", f"<b>{move}</b> — {why}", "reveal" if move.startswith("reveal") else "stop")


def solve_optimal(
    ticket: int, s: Situation, hand: Hand, adjacency: tuple[tuple[str, str], ...], compulsory: bool
) -> str:
    """The optimal player's line for a turn, solved (seconds, in a worker thread), or its failure."""
    try:
        n = best_take(hand, s.row, adjacency, letter_value=Fraction(0))[0]
        return optimal_html(ticket, optimal_choice(s, hand, adjacency), n, compulsory)
    except Exception as e:  # shown in the page: a failure in the thread must not pass unseen
        return optimal_div(
            ticket, "error", f"⚠ could not finish: {html.escape(type(e).__name__)}: {html.escape(str(e))}"
        )
