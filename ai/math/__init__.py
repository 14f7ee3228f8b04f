"""Poker math: hand evaluation, strength and potential, preflop classes and Income Rate,
opponent weight tables and statistics, ranges and equity (DOMAIN.md §2-3).

The one poker-math layer of ai/: the bots, the models and the search build on it.
Modules: `evaluator` (single hands via pkrbot, batched via numba tables; the simulator's
showdown ranks), `tables`, `combos` (1326 holdings, 169 classes), `potential` (HS, PPot,
NPot by exact enumeration), `range_strength` (the same against the bots' range tables:
cached board values, Monte Carlo potential), `rollout_strength` (strengths and equity
over dealt rollouts), `odds`, `preflop_rank` (equity against random hands per class,
Income Rate percentiles; `preflop_table` rebuilds its data), `income_rate`,
`random_equity`, `fastrng`, `ranges`, `equity`, `bench`. Opponent statistics and weight
tables are the opponent model's (`ai.models.stats`, `ai.models.ranges`).
"""
