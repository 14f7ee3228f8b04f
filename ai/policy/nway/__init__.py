"""Blueprints beyond heads-up Limit: No-Limit heads-up and multiway Limit (docs/blueprint.md).

An n-player betting tree built by driving the rules core (`tree`), an n-player card
abstraction (`cards`), external-sampling MCCFR for n players (`mccfr`, `solver`),
pseudo-harmonic action translation (`translate`), the artefact and its lookup
(`artefact`), and `lookup.blueprint_for(observation)` choosing the right artefact.
"""
