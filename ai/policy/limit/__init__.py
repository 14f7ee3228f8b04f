"""Fixed-Limit poker for the blueprint: the betting tree of a `LimitGame`, card abstractions
that map each deal to one bucket per player and round, and external sampling MCCFR.

The kernel only sees the betting tree and, per sampled deal, the buckets and the showdown
winner: Leduc hold'em and heads-up Limit Texas Hold'em run the same code, so the exact
Leduc exploitability (`ai.policy.cfr`) tests the kernel the hold'em blueprint uses.
"""
