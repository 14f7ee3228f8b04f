"""The tree is kept between our decisions in a hand while the line holds."""

from __future__ import annotations

from search_spots import LIMIT2, NL2, bot, spot

from ai.bots.observation import ActionRecord, Decision
from ai.bots.observe import apply, observe
from ai.search.reuse import follow
from ai.sim.rules import CALL, CHECK, FOLD


def test_the_next_decision_starts_from_the_kept_subtree() -> None:
    # (A middling No-Limit hand: a strong one might move all in and end the hand.)
    for config, hole in ((LIMIT2, "AhKd"), (NL2, "9h8h")):
        obs = spot(config, {1: hole}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
        searcher = bot(iterations=800, seed=2)
        state = obs.sim
        assert state is not None
        history: list[ActionRecord] = list(obs.history)
        apply(state, searcher.decide(obs), history, obs)
        while state.street == 1 and not state.over:  # the opponent calls or checks
            seen = observe(state, history, hand_key="spot")
            apply(state, Decision(CALL if seen.legal.can_call else CHECK), history, seen)
        while not state.over and state.actor != 1:
            seen = observe(state, history, hand_key="spot")
            apply(state, Decision(CALL if seen.legal.can_call else CHECK), history, seen)
        assert not state.over
        turn = observe(state, history, hand_key="spot")
        kept = searcher._kept
        assert kept is not None
        root = follow(kept, turn)
        assert root is not None and root.total > 0, config.variant
        before = root.total
        searcher.decide(turn)
        assert searcher.last is not None
        assert searcher.last.root.total == before + searcher.iterations


def test_another_hand_or_another_line_starts_afresh() -> None:
    obs = spot(LIMIT2, {1: "AhKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
    searcher = bot(iterations=200)
    searcher.decide(obs)
    kept = searcher._kept
    assert kept is not None
    other = spot(LIMIT2, {1: "AhKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
    other.hand_key = "another hand"
    assert follow(kept, other) is None
    assert follow(kept, obs) is None  # nothing happened since: not the kept line
    folded = spot(LIMIT2, {1: "AhKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
    assert folded.legal.can_check and FOLD not in folded.legal.kinds
