"""What a seat sees of a hand, below the bots, the opponent models and the search.

`observation` (Observation, ActionRecord, Decision: a seat's knowledge at its turn and
what it answers), `observe` (observations from the simulator's state) and `summary`
(HandSummary: a finished hand as the table saw it). ai.bots, ai.models and ai.search all
build on these and import nothing of each other through them.
"""
