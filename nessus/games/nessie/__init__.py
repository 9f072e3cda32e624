"""Nessie: reveal cards onto a row and stop before the boat sinks (RULES.md part 2). Each turn a
player reveals cards one by one, then stops and takes a run ending at the last one; six points
of treasure in the row, or three of one letter with the player's own, sink the row. Whoever
holds all six letters A-F ends the game; the most treasure wins.

`nessus report nessie` gives, for a fresh deck, an empty row and no cards in front of the
player who never stops: `p_sink_by_reveal_<k>` (sunk by the k-th reveal) for k = 1..12 and
`expected_reveals_until_sink` (the reveal that sinks counts).

`--set state=FILE.json` describes any state instead and gives `p_sink_next` and
`p_sink_within_<k>`. The file (every key optional; cards are "1", "2", "3" or "A".."F", and a
treasure card may be written as the number 1, 2 or 3):

    {"row": ["2", "A", "3"],                        # the face-up row, first revealed first
     "own": {"letters": ["A", "B"], "treasures": [3, 1]},  # the player's cards
     "others": [{"letters": ["C"], "treasures": [2]}],     # everyone else's cards
     "discards_seen": ["D", "1"]}                   # discards the player remembers

The unseen pool is the whole deck minus all of those; the next cards are drawn from it
without replacement (a reshuffle of unremembered discards is part of the pool already).
A state that cannot happen is a ValueError saying why: more cards of a kind than the deck
holds, a row that has already sunk, letters a player could not have kept, more players than
`players`. In Python the same description is a dict, no file needed (`situation`, `report` and
`simulate` take it as `state=`):

>>> from nessus.games import nessie
>>> nessie.p_sink_next(nessie.situation(state={"row": ["2", "3"]}))  # any of the 34 unseen treasures sinks
Fraction(17, 41)

Whole games are played through the game protocol (`State`, `initial_state`, the policies):
the draw pile is counted, not ordered, and each reveal draws a card from it with exact weights.

>>> state = nessie.initial_state().apply(nessie.REVEAL).apply("3").apply(nessie.Stop(1))
>>> state.scores(), state.current_player()
([3, 0, 0], 1)

The parts: `cards` (the deck, the row and what sinks it, a hand and what a take keeps),
`rules` (the parameters and the state file), `odds` (exact bust odds, what a stop is worth,
`report`), `state` (whole games as the protocol), `policies` (the rules of play as policies),
`turn` (one turn solved exactly, layer by layer), `optimal` (the exact single-turn optimal rule,
`tables`), `fast` (many games at once in numpy, tournaments, `simulate`), `page` and `views`
(the dashboard).
"""

from nessus.game import Game
from nessus.games.nessie import policies
from nessus.games.nessie.cards import CHAIN, LETTERS, Card, Hand, Situation, make_deck
from nessus.games.nessie.fast import reveal_kernel, simulate, tournament
from nessus.games.nessie.odds import (
    LETTER_VALUE,
    REVEALS,
    Choice,
    best_take,
    choice,
    expected_reveals_until_sink,
    p_sink_next,
    p_sink_within,
    report,
    take_value,
)
from nessus.games.nessie.optimal import OptimalChoice, optimal_choice, tables, take_distribution
from nessus.games.nessie.policies import Lookahead, Rule, StopAt, StopWhenRisky, lookahead, stop_at, stop_when_risky
from nessus.games.nessie.rules import NAME, Rules, situation, situation_from_dict
from nessus.games.nessie.state import (
    CARD_KINDS,
    COMPLETE_BONUS,
    MAX_TURNS,
    REVEAL,
    Event,
    Held,
    State,
    Stop,
    initial_state,
)

__all__ = [
    "CARD_KINDS",
    "CHAIN",
    "COMPLETE_BONUS",
    "GAME",
    "LETTERS",
    "LETTER_VALUE",
    "MAX_TURNS",
    "NAME",
    "REVEAL",
    "REVEALS",
    "Card",
    "Choice",
    "Event",
    "Hand",
    "Held",
    "Lookahead",
    "OptimalChoice",
    "Rule",
    "Rules",
    "Situation",
    "State",
    "Stop",
    "StopAt",
    "StopWhenRisky",
    "best_take",
    "choice",
    "expected_reveals_until_sink",
    "initial_state",
    "lookahead",
    "make_deck",
    "optimal_choice",
    "p_sink_next",
    "p_sink_within",
    "report",
    "reveal_kernel",
    "simulate",
    "situation",
    "situation_from_dict",
    "stop_at",
    "stop_when_risky",
    "tables",
    "take_distribution",
    "take_value",
    "tournament",
]

GAME = Game(
    name=NAME,
    title="Nessie",
    summary="Reveal cards and stop before you sink: exact bust odds in any state.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies.policies,
    lesson="03-nessie-bust-odds",
    dashboard="nessie.ipynb",
    pitch="Push your luck card by card against automatic opponents, with your exact odds of sinking beside you.",
    tables=tables,
)
"""This game, as the registry, the command line and the gallery see it."""
