"""Poker math: hand evaluation, strength and potential, preflop classes and Income Rate,
opponent weight tables and statistics, ranges and equity (DOMAIN.md §2-3).

Modules: `evaluator` (single hands via pkrbot, batched via numba tables), `tables`,
`combos` (1326 holdings, 169 classes), `potential` (HS, PPot, NPot), `odds`,
`multiway`, `postflop_rank`, `income_rate`, `weights`, `opponent_stats`, `ranges`,
`equity`, `bench`.
"""
