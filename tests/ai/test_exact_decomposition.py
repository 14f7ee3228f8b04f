"""The exact per-decision decomposition (`ai.arena.exact`): its expectation is A - B exactly.

On one deal (both holdings and the runout fixed), V_A and V_B are enumerated over every
policy's probabilities, and so is the expectation of the sum of A's advantages over the
trajectories A plays: the identity says they agree to rounding. Then the known policies
against the bots they describe, and the gauntlet's output end to end on a few hands.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from ai.arena.exact import ExactProbe, HandProbe, Policy, step
from ai.arena.match import Match, MatchConfig
from ai.arena.play import play_match
from ai.bots import make_bot
from ai.game.observation import ActionRecord
from ai.game.observe import observe
from ai.gauntlet import GauntletConfig, play_gauntlet
from ai.gauntlet.known import (
    always_raise,
    calling_station,
    known_policy,
    rlcard_random,
    uniform_kinds,
)
from ai.gauntlet.opponents import make_player
from ai.sim.rules import CALL, CHECK, RAISE, Rules
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant
from showdown.cli import main

RULES = Rules.of(TableConfig(variant=Variant.LIMIT, seats=2, small_blind=1, big_blind=2))


def caller_or_raiser(state: SimState, history: Sequence[ActionRecord]) -> dict[int, float]:
    """A stochastic A: calls (checks) two times in three, else raises when it may."""
    legal = state.legal_actions()
    assert legal is not None
    passive = CHECK if legal.can_check else CALL
    if legal.raise_kind is None:
        return {passive: 1.0}
    return {passive: 2 / 3, legal.raise_kind: 1 / 3}


def a_deal(seed: int) -> SimState:
    cards = random.Random(seed).sample(range(52), 9)
    return SimState(RULES, (1, 2), (400, 400), [(cards[0], cards[1]), (cards[2], cards[3])],
                    cards[4:])  # fmt: skip


def expected_advantage(
    probe: HandProbe, a: Policy, state: SimState, history: list[ActionRecord]
) -> float:
    """E over A's and the opponent's probabilities of the sum of A's advantages from here."""
    if state.over:
        return 0.0
    mine = state.actor_index == probe.me
    total = 0.0
    for kind, p in (a if mine else probe.opponent)(state, history).items():
        child, after = state.clone(), list(history)
        step(child, kind, after)
        gain = 0.0
        if mine:
            before = probe.advantage[0]
            probe.decision(state, history, kind)
            gain = probe.advantage[0] - before
        total += p * (gain + expected_advantage(probe, a, child, after))
    return total


def advance(state: SimState, kinds: Sequence[int]) -> list[ActionRecord]:
    history: list[ActionRecord] = []
    for kind in kinds:
        step(state, kind, history)
    return history


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("me", [0, 1])
@pytest.mark.parametrize(
    ("a", "b", "opponent", "prefix"),
    [
        # Deterministic A, from the hand's start.
        (calling_station, always_raise, rlcard_random, ()),
        # A stochastic A and B, from the turn (preflop raised and called, flop checked).
        (caller_or_raiser, uniform_kinds, rlcard_random, (RAISE, CALL, CHECK, CHECK)),
        (uniform_kinds, calling_station, uniform_kinds, (CALL, CHECK, CHECK, CHECK)),
    ],
)
def test_the_advantages_add_up_to_the_value_difference_exactly(
    seed: int, me: int, a: Policy, b: Policy, opponent: Policy, prefix: tuple[int, ...]
) -> None:
    state = a_deal(seed)
    history = advance(state, prefix)
    value_a = ExactProbe((a,), opponent).hand(state, me, history).root[0]
    probe = ExactProbe((b,), opponent).hand(state, me, history)
    value_b = probe.root[0]
    assert expected_advantage(probe, a, state, history) == pytest.approx(
        value_a - value_b, abs=1e-9
    )


def test_a_bot_measured_against_its_own_policy_gains_nothing_and_its_value_is_exact() -> None:
    config = MatchConfig(
        Variant.LIMIT, ("always-raise", "random"), hands=40, seed=7, duplicate=True
    )
    result = Match(config, make_player, ExactProbe((always_raise,), uniform_kinds)).play()
    assert result.exact is not None
    assert result.exact.shape == (40, 2)
    assert (result.exact[:, 0] == 0).all()  # every decision was the baseline's own
    # A hand's exact value is the expectation of its chips: always-raise wins the same
    # amount with either seat's cards in no deal, and the values are not the chips.
    assert (result.exact[:, 1] != result.net_bb[:, 0]).any()


@pytest.mark.parametrize("style", ["always-raise", "calling-station", "random"])
def test_known_policies_are_what_the_bots_play(style: str) -> None:
    policy = known_policy(style, 2)
    assert policy is not None
    bot = make_bot(style, 3)
    rng = random.Random(5)
    for seed in range(30):
        state = a_deal(seed)
        history: list[ActionRecord] = []
        while not state.over:
            probs = policy(state, history)
            assert sum(probs.values()) == pytest.approx(1.0)
            assert bot.decide(observe(state, history)).kind in probs
            kinds = sorted(probs)
            step(state, rng.choices(kinds, [probs[k] for k in kinds])[0], history)


def test_rlcard_random_answers_only_what_its_policy_gives_weight() -> None:
    policy = known_policy("rlcard-random", 2)
    assert policy is not None
    agent = make_player("rlcard-random", 9)
    for seed in range(20):
        state = a_deal(seed)
        history = advance(state, (CALL,))  # the big blind's option: free, may raise
        probs = policy(state, history)
        seen = {agent.decide(observe(state, history)).kind for _ in range(30)}
        assert seen == {k for k, p in probs.items() if p > 0}


def test_the_gauntlet_reports_the_exact_difference_beside_the_chips() -> None:
    config = GauntletConfig(
        Variant.LIMIT, ("calling-station", "always-raise", "rlcard-limit-rule"),
        ("rlcard-random",), hands=20, seed=4, exact=True,
    )  # fmt: skip
    result = play_gauntlet(config)
    # Only the compared bot whose policy is known is a baseline.
    assert [(e.bot, e.other) for e in result.exact] == [("calling-station", "always-raise")]
    e = result.exact[0]
    assert e.ci95[0] < e.bb_per_100 < e.ci95[1]
    assert sum(r.bb_per_100 for r in e.rows) == pytest.approx(e.bb_per_100)
    # Against an opponent whose policy is not known there is nothing exact to report.
    unknown = GauntletConfig(
        Variant.LIMIT, ("calling-station", "always-raise"), ("rlcard-limit-rule",),
        hands=4, seed=4, exact=True,
    )  # fmt: skip
    assert play_gauntlet(unknown).exact == []


def test_the_command_prints_the_exact_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["gauntlet", "--bot", "calling-station", "--compare", "always-raise", "--game", "limit",
         "--opponents", "random", "--hands", "8", "--seed", "2", "--exact", "--json"]
    )  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    (exact,) = out["exact"]
    assert (exact["opponent"], exact["bot"], exact["other"]) == (
        "random", "calling-station", "always-raise"
    )  # fmt: skip
    assert exact["rows"]


def test_a_match_split_over_processes_keeps_every_hands_figures() -> None:
    config = MatchConfig(
        Variant.LIMIT, ("calling-station", "random"), hands=16, seed=3, duplicate=True
    )
    probe = ExactProbe((calling_station, always_raise), uniform_kinds)
    result = play_match(config, jobs=2, make=make_player, probe=probe)
    assert result.exact is not None
    assert result.exact.shape == (16, 4)
    assert len(result.exact_rows) == 16
    assert (result.exact[:, 0] == 0).all()  # calling-station against its own policy
