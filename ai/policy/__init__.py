"""The self-play baseline ("blueprint"): counterfactual regret minimisation, trained offline.

- `ai.policy.games`: small games behind one interface (Kuhn, Leduc), for the solvers' tests.
- `ai.policy.tree` / `ai.policy.cfr`: a game flattened into arrays, CFR+ and the exact
  best response / exploitability over it.
- `ai.policy.limit`: Fixed-Limit poker as a betting tree plus card buckets, and external
  sampling MCCFR over it (the heads-up Limit Hold'em blueprint; Leduc uses the same kernel).
- `ai.policy.blueprint`: the shipped artefact and `Blueprint.action_probabilities`.

See docs/blueprint.md.
"""
