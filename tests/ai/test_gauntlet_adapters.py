"""The adapters to other packages' agents: only legal actions, only the agent's own view.

Each test walks seeded random hands of our simulator (2-6 seats, uneven stacks,
so short all-ins and capped streets come up), asks the adapter at every decision
and checks what it answered and what it passed the external agent.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from ai.game.observation import ActionRecord, Decision, Observation
from ai.game.observe import apply, observe
from ai.gauntlet.answer import ExternalAgent, Intent, legal_decision
from ai.gauntlet.cards import card_text, rlcard_text
from ai.gauntlet.rlcard_agents import RlcardLimitRuleAgent, RlcardRandomAgent
from ai.gauntlet.texasholdem_agents import (
    TexasholdemAgent,
    TexasholdemCallAgent,
    TexasholdemRandomAgent,
)
from ai.sim.rules import CALL, CHECK, FOLD
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant

DECISIONS = 300  # per adapter and game


def spots(game: Variant, seed: int) -> Iterator[tuple[Observation, SimState]]:
    """Decisions of random hands: each observation with its hand's full state (whose
    other hole cards and runout the adapter must not pass on). The hands go on with
    mostly passive random actions so that they reach every street."""
    rng = random.Random(seed)
    while True:
        players = rng.randint(2, 6)
        config = TableConfig(variant=game, seats=players, small_blind=1, big_blind=2)
        stacks = {
            s: rng.randint(1, 16) if rng.random() < 0.25 else rng.randint(40, 400)
            for s in range(1, players + 1)
        }
        state = SimState.new_hand(config, stacks, rng.randint(1, players), seed=rng.getrandbits(32))
        history: list[ActionRecord] = []
        while not state.over:
            obs = observe(state, history)
            # No simulator state: an adapter that reached for it (it holds every hole
            # card) would fail here.
            yield replace(obs, sim=None), state
            legal = obs.legal
            roll = rng.random()
            if legal.raise_kind is not None and roll < 0.25:
                decision = Decision(legal.raise_kind, rng.randint(legal.min_to, legal.max_to))
            elif legal.can_fold and roll > 0.92:
                decision = Decision(FOLD)
            else:
                decision = Decision(CHECK if legal.can_check else CALL)
            apply(state, decision, history, obs)


def hidden_cards(obs: Observation, state: SimState) -> set[str]:
    """Every card the deciding seat cannot see: the others' hole cards, the runout to come."""
    hidden = {c for i, hole in enumerate(state.holes) if i != obs.index for c in hole}
    hidden |= set(state.runout[len(obs.board) :])
    return {card_text(c) for c in hidden}


def seen_cards(obs: Observation) -> set[str]:
    return {card_text(c) for c in (*obs.hole, *obs.board)}


def play_spots(
    agent: ExternalAgent, game: Variant, seed: int, check: Callable[[Observation, SimState], None]
) -> None:
    for count, (obs, state) in enumerate(spots(game, seed)):
        if count == DECISIONS:
            break
        decision = agent.decide(obs)
        assert decision.is_legal(obs.legal), (decision, obs.legal)
        check(obs, state)
    assert agent.decisions == DECISIONS


# rlcard: the state dict its agents take ------------------------------------------------

RLCARD_CARDS = {rlcard_text(c): card_text(c) for c in range(52)}


def rlcard_cards(value: Any) -> set[str]:
    """Every card in an rlcard state: card strings anywhere, and the one-hot card part of
    its observation vector (rlcard's card2index order: suit-major S, H, D, C; A..K)."""
    found: set[str] = set()
    if isinstance(value, str) and value in RLCARD_CARDS:
        found.add(RLCARD_CARDS[value])
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= rlcard_cards(item) if key != "obs" else _vector_cards(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= rlcard_cards(item)
    return found


def _vector_cards(vector: np.ndarray) -> set[str]:
    suits, ranks = "SHDC", "A23456789TJQK"
    return {RLCARD_CARDS[suits[i // 13] + ranks[i % 13]] for i in np.flatnonzero(vector[:52])}


class Spy:
    """Wraps an agent's method: records the argument it is given, then answers as it would."""

    def __init__(self, method: Callable[[Any], Any]) -> None:
        self.method = method
        self.given: list[Any] = []

    def __call__(self, arg: Any) -> Any:
        self.given.append(arg)
        return self.method(arg)


def rlcard_check(spy: Spy) -> Callable[[Observation, SimState], None]:
    def check(obs: Observation, state: SimState) -> None:
        cards = rlcard_cards(spy.given[-1])
        assert cards == seen_cards(obs)  # its own hole cards and the board, nothing else
        assert not cards & hidden_cards(obs, state)

    return check


def test_rlcard_limit_rule_agent_plays_legal_actions_from_its_own_view() -> None:
    agent = RlcardLimitRuleAgent(seed=1)
    spy = Spy(agent.agent.eval_step)
    agent.agent.eval_step = spy
    play_spots(agent, Variant.LIMIT, 11, rlcard_check(spy))
    assert len(spy.given) == DECISIONS
    # Its folds when checking is free are checks here (our rules have no such fold).
    assert agent.corrections > 0


@pytest.mark.parametrize("game", [Variant.LIMIT, Variant.NO_LIMIT])
def test_rlcard_random_agent_plays_legal_actions_from_its_own_view(game: Variant) -> None:
    agent = RlcardRandomAgent(seed=2)
    spy = Spy(agent.agent.step)
    agent.agent.step = spy
    play_spots(agent, game, 12, rlcard_check(spy))
    # Somewhere it was offered rlcard's whole menu: Limit fold, call or check, raise;
    # No-Limit fold, check-call, half pot, pot, all-in.
    offered = {len(state["legal_actions"]) for state in spy.given}
    assert max(offered) == {Variant.LIMIT: 3, Variant.NO_LIMIT: 5}[game]


# texasholdem: the game object its agents take -------------------------------------------


def texasholdem_cards(game: Any) -> set[str]:
    """Every card in a texasholdem game: hands, deck, board and the hand history's."""
    cards = [c for hand in game.hands.values() for c in hand]
    cards += [*game._deck.cards, *game.board]
    cards += [c for hand in game.hand_history.prehand.player_cards.values() for c in hand]
    return {str(c) for c in cards}


@pytest.mark.parametrize("make", [TexasholdemRandomAgent, TexasholdemCallAgent])
def test_texasholdem_agents_play_legal_actions_from_their_own_view(
    make: Callable[[int], TexasholdemAgent],
) -> None:
    agent = make(3)
    spy = Spy(agent.agent())
    agent.agent = lambda: spy  # type: ignore[method-assign]

    def check(obs: Observation, state: SimState) -> None:
        game = spy.given[-1]
        cards = texasholdem_cards(game)
        assert cards == seen_cards(obs)
        assert not cards & hidden_cards(obs, state)
        assert set(game.hands) == {obs.index}  # the others hold no cards at all
        # The replay reached our spot: the same seat to act, the same chips to call (its
        # figure is not capped at the stack: a call for less is all-in).
        assert game.current_player == obs.index
        call = min(game.chips_to_call(obs.index), game.players[obs.index].chips)
        assert call == obs.legal.call_amount

    play_spots(agent, Variant.NO_LIMIT, 13, check)


# what our rules make of an answer ---------------------------------------------------------


def first_spot(game: Variant, seed: int, wanted: Callable[[Observation], bool]) -> Observation:
    return next(obs for obs, _ in spots(game, seed) if wanted(obs))


def test_a_fold_when_checking_is_free_is_a_check_and_counted() -> None:
    obs = first_spot(Variant.LIMIT, 4, lambda o: o.legal.can_check)
    assert legal_decision(obs, Intent.FOLD) == (Decision(CHECK), True)
    facing = first_spot(Variant.LIMIT, 4, lambda o: not o.legal.can_check)
    assert legal_decision(facing, Intent.FOLD) == (Decision(FOLD), False)
    assert legal_decision(facing, Intent.CHECK) == (Decision(CALL), True)


def test_a_raise_where_none_is_allowed_is_the_passive_action() -> None:
    capped = first_spot(Variant.LIMIT, 5, lambda o: o.legal.raise_kind is None)
    decision, changed = legal_decision(capped, Intent.RAISE, 10_000)
    assert changed and decision.kind == (CHECK if capped.legal.can_check else CALL)


def test_no_limit_sizes_are_clamped_to_our_raise_limits() -> None:
    obs = first_spot(Variant.NO_LIMIT, 6, lambda o: o.legal.raise_kind is not None)
    legal = obs.legal
    low, changed_low = legal_decision(obs, Intent.RAISE, legal.min_to - 1)
    high, changed_high = legal_decision(obs, Intent.RAISE, legal.max_to + 1)
    inside, changed_inside = legal_decision(obs, Intent.RAISE, legal.min_to)
    assert (low.to, high.to, inside.to) == (legal.min_to, legal.max_to, legal.min_to)
    assert changed_low and changed_high and not changed_inside


def test_a_seeded_random_agent_repeats_itself_and_leaves_the_global_generators_alone() -> None:
    def answers(seed: int) -> list[tuple[int, int]]:
        agent = RlcardRandomAgent(seed)
        out: list[tuple[int, int]] = []
        for count, (obs, _) in enumerate(spots(Variant.NO_LIMIT, 7)):
            if count == 60:
                return out
            d = agent.decide(obs)
            out.append((d.kind, d.to))
        return out

    np.random.seed(99)
    random.seed(99)
    before = (np.random.random(), random.random())
    np.random.seed(99)
    random.seed(99)
    first = answers(1)
    assert (np.random.random(), random.random()) == before
    assert answers(1) == first
    assert answers(2) != first
