"""The tournament director: sit-and-go and multi-table tournaments.

A component of its own: it keeps the tournament's state (levels, clock, stacks, seats,
places) and tells tables what to do through the host's table commands (seat a player,
remove one, change the stakes, pause, resume). Each module has one job: structures,
clock, prizes, places, balancing, director; `simulate` runs one on in-memory tables.
"""
