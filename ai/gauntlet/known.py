"""The players whose Fixed-Limit policy is known exactly, as `ai.arena.exact` takes them.

Against such an opponent, and beside such a compared bot, the gauntlet measures the first
bot's difference exactly per decision (`ai.arena.exact`) as well as by the chips. Each
policy here is the probability of what the player's own code answers:

- `rlcard-random`: rlcard's RandomAgent, uniform over rlcard's Limit actions as our
  adapter offers them (`ai.gauntlet.rlcard_agents.limit_state`), mapped by
  `ai.gauntlet.answer`: facing a bet fold / call / raise a third each (fold / call a half
  at the cap); with nothing to call bet a third, check two thirds (its fold is a check);
- `random`: uniform over our legal kinds (`RandomBot`): facing a bet as above, with
  nothing to call check / bet a half;
- `always-raise`, `calling-station`: deterministic;
- `blueprint`: the heads-up Limit blueprint's probabilities (`BlueprintBot` samples them).
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.arena.exact import Policy
from ai.game.observation import ActionRecord
from ai.game.observe import observe
from ai.sim.rules import CALL, CHECK, FOLD, SimLegal
from ai.sim.state import SimState


def _legal(state: SimState) -> SimLegal:
    legal = state.legal_actions()
    assert legal is not None, "nobody is to act"
    return legal


def _passive(legal: SimLegal) -> int:
    return CHECK if legal.can_check else CALL


def always_raise(state: SimState, history: Sequence[ActionRecord]) -> dict[int, float]:
    legal = _legal(state)
    return {legal.raise_kind if legal.raise_kind is not None else _passive(legal): 1.0}


def calling_station(state: SimState, history: Sequence[ActionRecord]) -> dict[int, float]:
    return {_passive(_legal(state)): 1.0}


def uniform_kinds(state: SimState, history: Sequence[ActionRecord]) -> dict[int, float]:
    kinds = _legal(state).kinds
    return {k: 1.0 / len(kinds) for k in kinds}


def rlcard_random(state: SimState, history: Sequence[ActionRecord]) -> dict[int, float]:
    legal = _legal(state)
    raise_kind = legal.raise_kind
    if legal.can_check:  # rlcard offers raise, fold and check; its fold is our check
        if raise_kind is None:
            return {CHECK: 1.0}
        return {CHECK: 2 / 3, raise_kind: 1 / 3}
    if raise_kind is None:
        return {FOLD: 0.5, CALL: 0.5}
    return {FOLD: 1 / 3, CALL: 1 / 3, raise_kind: 1 / 3}


def blueprint(state: SimState, history: Sequence[ActionRecord]) -> dict[int, float]:
    from ai.policy.blueprint import default_blueprint

    return dict(default_blueprint().action_probabilities(observe(state, history)))


KNOWN: dict[str, Policy] = {
    "rlcard-random": rlcard_random,
    "random": uniform_kinds,
    "always-raise": always_raise,
    "calling-station": calling_station,
    "blueprint": blueprint,
}


def known_policy(name: str, seats: int) -> Policy | None:
    """The player's exact Limit policy, if it is known (the blueprint's only heads-up)."""
    if name == "blueprint" and seats != 2:
        return None
    return KNOWN.get(name)
