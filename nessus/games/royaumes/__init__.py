"""Les Royaumes: the bank rolls 2d6; on its best result of a kingdom (2-2, 5-3, 6-6) it wins
every stake, on the lowest (1-1, 3-2, 6-3) it pays every player one stake; otherwise each
player rolls until a result falls in the bank's kingdom, paying a fine for each roll outside
it, and wins a stake if that result ranks strictly above the bank's, else loses one
(RULES.md section 7).

Money is counted in stakes; the fine is a fraction of the stake (parameter `fine`, default
1/10) and is paid to the bank, so the bank's gain is the players' loss. A player's number of
fines in a duel is geometric: P(k fines) = (1 - q)^k q with q = P(a roll lands in the bank's
kingdom), so every figure is an exact fraction and the expected value per round is an exact
affine function of the fine: `ev_at_zero_fine - fine * fines_per_round`.

Whole games are played through the game protocol (`State`, `initial_state`): every move is a
roll, chance with exact weights, and the returns are the players' net stakes.

>>> from fractions import Fraction
>>> state = initial_state(Rules(players=1, rounds=1)).roll(dice=(6, 6))  # the bank wins all
>>> state.is_terminal(), state.returns(), player_ev(Fraction(1, 10))
(True, [Fraction(-1, 1)], Fraction(-3097, 11880))
"""

from nessus.game import Game
from nessus.games.royaumes.fast import game_kernel, play_rounds, round_kernel, simulate
from nessus.games.royaumes.odds import (
    BANK_PAYS_ALL,
    BANK_WINS_ALL,
    KINGDOMS,
    Result,
    all_results,
    bank_ev,
    bank_outcome,
    duel_table,
    ev_by_fine,
    fair_fine,
    fines_expected,
    fines_per_round,
    kingdom_of,
    p_bank_pays_all,
    p_bank_wins_all,
    p_kingdom,
    p_player_beats,
    p_player_wins_duel,
    p_result,
    place_text,
    player_ev,
    player_ev_given,
    rank_of,
    report,
    result_of,
    result_text,
)
from nessus.games.royaumes.rules import FINE, NAME, PLAYERS, ROUNDS, Rules
from nessus.games.royaumes.state import MAX_DUEL_ROLLS, State, expected_nets, initial_state, policies

__all__ = [
    "BANK_PAYS_ALL",
    "BANK_WINS_ALL",
    "FINE",
    "GAME",
    "KINGDOMS",
    "MAX_DUEL_ROLLS",
    "NAME",
    "PLAYERS",
    "ROUNDS",
    "Result",
    "Rules",
    "State",
    "all_results",
    "bank_ev",
    "bank_outcome",
    "duel_table",
    "ev_by_fine",
    "expected_nets",
    "fair_fine",
    "fines_expected",
    "fines_per_round",
    "game_kernel",
    "initial_state",
    "kingdom_of",
    "p_bank_pays_all",
    "p_bank_wins_all",
    "p_kingdom",
    "p_player_beats",
    "p_player_wins_duel",
    "p_result",
    "place_text",
    "play_rounds",
    "player_ev",
    "player_ev_given",
    "policies",
    "rank_of",
    "report",
    "result_of",
    "result_text",
    "round_kernel",
    "simulate",
]

GAME = Game(
    name=NAME,
    title="Les Royaumes",
    summary="2d6 against a bank: beat its result within the same kingdom; off-kingdom rolls cost a fine.",
    Rules=Rules,
    report=report,
    simulate=simulate,
    initial_state=initial_state,
    policies=policies,
    lesson="09-les-royaumes",
    dashboard="les-royaumes.ipynb",
    pitch=(
        "Duel the bank's 2d6 within its kingdom: exact odds, fines and expected value for any fine, with "
        "running bankrolls."
    ),
)
"""This game, as the registry, the command line and the gallery see it."""
