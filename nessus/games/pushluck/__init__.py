"""The push-your-luck dice games: Le Sept fatal (`sept`: two dice, a 7 wipes the turn, three
rounds, the higher total wins) and Pig (`pig`: one die, a 1 wipes the turn, first to 100).

In both, a turn is a run of rolls, each adding its points to the turn total, until the player
*holds* (banking the turn total) or rolls the *bust* (losing it); the first roll of a turn is
compulsory. `core` holds what the two games share: one turn alone (hold at N, exactly), the
two-player game as turn-start contexts solved by value iteration, whole turns drawn from their
exact law for fast simulation, and the protocol state (`core.TurnState`) that each game's
`State` is: whole games, both players, every round, the dice as chance with exact weights and
every roll kept in the history, the bust included.

>>> from nessus.games.pushluck import pig
>>> state = pig.initial_state(pig.Rules(goal=10))
>>> state.legal_actions()
['roll']
>>> state = state.apply("roll")
>>> state.chance_outcomes()[0]
((1,), Fraction(1, 6))
>>> state = state.apply((6,))
>>> state.turn_total, state.legal_actions()
(6, ['roll', 'hold'])
>>> hint = state.hint()
>>> hint.best, hint.method
('roll', 'value-iteration')
>>> state.apply("hold").scores
(6, 0)
"""
