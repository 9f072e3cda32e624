"""Nessie dashboard, the advice box: the look-ahead player's line and the optimal player's (its
move and exact values in treasure this turn, "thinking…" while a worker thread solves the turn,
or the failure), as HTML. Each optimal line carries the ticket of the request it answers."""

from __future__ import annotations

import html

from nessus.games.nessie.odds import LETTER_VALUE, Choice
from nessus.games.nessie.optimal import optimal_choice
from nessus.games.nessie.state import State
from nessus.numbers import number_html

BOX = "max-width:520px"
THINKING = (
    "<i>thinking…</i> <small style='color:#555'>(it solves your whole turn exactly: a game's first turn is read from "
    "stored values, a later one takes about a second at most)</small>"
)


def advice_html(c: Choice | None, revealed: int, optimal: str) -> str:
    """The advice box on your turn ("" else): the look-ahead player's move, then the `optimal` player's line."""
    if c is None:
        return ""
    who = f"<b>Look-ahead player</b> <small>(one card ahead, letters worth {LETTER_VALUE})</small>: "
    move = "<b>reveal</b> one more card." if c.reveal else f"<b>stop and take {c.stop_take}</b>."
    move = "<b>reveal</b> (compulsory)." if revealed == 0 else move
    style = f"{BOX};margin:6px 0;padding:4px 8px;background:#e6f4f1;border-radius:4px;line-height:1.5"
    return f"<div class='nessie-advice' style='{style}'><div class='lookahead-advice'>{who}{move}</div>{optimal}</div>"


def optimal_html(ticket: int, state: str, body: str, move: str = "") -> str:
    """The optimal player's line in the advice box; `data-ticket` says which request it answers."""
    who = "<b>Optimal player</b> <small>(most treasure this turn, exact)</small>: "
    color = ";color:#b00020" if state == "error" else ""
    return (
        f"<div class='optimal-advice' data-ticket='{ticket}' data-state='{state}' data-move='{move}' "
        f"style='margin-top:2px{color}'>{who}{body}</div>"
    )


def optimal_line(ticket: int, g: State) -> str:
    """The optimal player's move on your turn and its exact values in treasure (solved in a worker
    thread: about a second at most), or its failure."""
    try:
        c = optimal_choice(g.situation(), g.hand())
        took = "nothing" if c.take == 0 else f"{c.take} card{'s' if c.take > 1 else ''}"
        stop = f"if it stops now, taking {took}: {number_html(c.stop_value, 'value')} treasure"
        value = "" if c.reveal_value is None else number_html(c.reveal_value, "value")
        reveal = f"if it reveals, then plays on optimally: {value} treasure on average"
        if c.reveal_value is None:
            move, why = f"stop and take {c.take}", f"no unseen card is left to reveal; {stop}."
        elif g.revealed == 0:
            move, why = "reveal (compulsory)", f"your whole turn, played optimally: {value} treasure on average."
        elif c.reveal:
            move, why = "reveal", f"{reveal}; {stop}."
        else:
            move, why = f"stop and take {c.take}", f"{stop}; {reveal}."
        return optimal_html(ticket, "ready", f"<b>{move}</b> — {why}", move.split()[0])
    except Exception as e:  # shown in the page: a failure in the thread must not pass unseen
        failure = f"⚠ could not finish: {html.escape(type(e).__name__)}: {html.escape(str(e))}"
        return optimal_html(ticket, "error", failure)
