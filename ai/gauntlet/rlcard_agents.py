"""Adapters to the agents rlcard 1.2 ships for Texas Hold'em.

- `limit-holdem-rule-v1` (`rlcard.models.limitholdem_rule_models.LimitholdemRuleAgentV1`):
  hand rules by rank and suit (raise pairs, AK-AT, suited aces, two Broadway cards;
  afterwards raise when the hand connects, else call or fold). Limit only.
- `RandomAgent` (`rlcard.agents.RandomAgent`): a uniform choice among the legal
  actions of rlcard's game: Limit call/raise/fold/check, No-Limit fold,
  check-or-call, raise half the pot, raise the pot, all-in.

The agent sees the state rlcard's own environment would give its seat, made by
that environment's `_extract_state` from the raw dict rlcard's game builds
(`Player.get_state` plus the game's extras): its own hand, the board, the chips
each player has put in, its legal actions and the public action record. Nothing
else of the Observation reaches it (in particular not `obs.sim`, which holds the
other players' cards).

rlcard's seats are our indices (0 = first left of the button). What our rules do
with its answers is in `ai.gauntlet.answer`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ai.game.observation import Observation
from ai.gauntlet.answer import ExternalAgent, Intent
from ai.gauntlet.cards import rlcard_text
from ai.gauntlet.randomness import OwnRandom
from ai.sim.rules import BET, CALL, CHECK, FOLD

# rlcard's Limit action names and what they mean to us.
_LIMIT_INTENTS = {
    "fold": Intent.FOLD,
    "check": Intent.CHECK,
    "call": Intent.CALL,
    "raise": Intent.RAISE,
}
_KIND_NAMES = {FOLD: "fold", CHECK: "check", CALL: "call", BET: "raise"}
MAX_RAISE_NUM = 4  # rlcard's Limit observation has room for 0..4 raises a street


@cache
def _env(game: str, players: int) -> Any:
    """rlcard's environment for `players` seats: only its `_extract_state` (the agents'
    observation format) is used, its own game never runs."""
    import rlcard

    return rlcard.make(game, config={"game_num_players": players, "seed": 0})


def _action_record(obs: Observation) -> list[tuple[int, str]]:
    """The public actions so far as rlcard's environment records them: (player, action)."""
    if obs.limit:
        return [(a.player, _KIND_NAMES[min(a.kind, BET)]) for a in obs.history]
    from rlcard.games.nolimitholdem.round import Action

    names = {FOLD: Action.FOLD, CHECK: Action.CHECK_CALL, CALL: Action.CHECK_CALL}
    # rlcard's record names only its own sizes: any bet or raise of ours is written as
    # RAISE_POT (no shipped agent reads the record).
    return [(a.player, names.get(a.kind, Action.RAISE_POT)) for a in obs.history]


def limit_state(obs: Observation) -> dict[str, Any]:
    """The raw Limit state of rlcard's game for the deciding seat, then the environment's
    extracted state (what an rlcard agent's `step`/`eval_step` takes)."""
    legal = obs.legal
    actions = ["call", "raise", "fold", "check"]  # rlcard's order
    if legal.raise_kind is None:
        actions.remove("raise")
    if not legal.can_check:
        actions.remove("check")
    else:
        actions.remove("call")
    raises = [0, 0, 0, 0]
    for a in obs.history:
        if a.kind >= BET:
            raises[a.street] = min(raises[a.street] + 1, MAX_RAISE_NUM)
    raw = {
        "hand": [rlcard_text(c) for c in obs.hole],
        "public_cards": [rlcard_text(c) for c in obs.board],
        "all_chips": [obs.invested(i) for i in range(obs.n)],
        "my_chips": obs.invested(obs.index),
        "legal_actions": actions,
        "raise_nums": raises,
    }
    env = _env("limit-holdem", obs.n)
    env.action_recorder = _action_record(obs)
    state: dict[str, Any] = env._extract_state(raw)
    return state


def nolimit_state(obs: Observation) -> dict[str, Any]:
    """The No-Limit counterpart: rlcard's `get_nolimit_legal_actions` on our numbers
    (its sizes are half the pot and the pot, added to the seat's bet this street)."""
    from rlcard.games.nolimitholdem.game import Stage
    from rlcard.games.nolimitholdem.round import Action

    me = obs.index
    pot = obs.pot
    behind = obs.stacks[me]
    top = max(obs.bets)
    actions = list(Action)
    if obs.legal.raise_kind is None or (top > obs.bets[me] and top - obs.bets[me] >= behind):
        for a in (Action.RAISE_HALF_POT, Action.RAISE_POT, Action.ALL_IN):
            actions.remove(a)
    else:
        if pot > behind:
            actions.remove(Action.RAISE_POT)
        if pot // 2 > behind or pot // 2 + obs.bets[me] <= top:
            actions.remove(Action.RAISE_HALF_POT)
    raw = {
        "hand": [rlcard_text(c) for c in obs.hole],
        "public_cards": [rlcard_text(c) for c in obs.board],
        "all_chips": [obs.invested(i) for i in range(obs.n)],
        "my_chips": obs.invested(me),
        "legal_actions": actions,
        "stakes": list(obs.stacks),
        "current_player": me,
        "pot": pot,
        "stage": Stage(obs.street),
    }
    env = _env("no-limit-holdem", obs.n)
    env.action_recorder = _action_record(obs)
    state: dict[str, Any] = env._extract_state(raw)
    return state


def rlcard_state(obs: Observation) -> dict[str, Any]:
    return limit_state(obs) if obs.limit else nolimit_state(obs)


def nolimit_intent(obs: Observation, action: Any) -> tuple[Intent, int]:
    """An rlcard No-Limit Action as our intent; raises as street totals."""
    from rlcard.games.nolimitholdem.round import Action

    me = obs.index
    if action == Action.FOLD:
        return Intent.FOLD, 0
    if action == Action.CHECK_CALL:
        return (Intent.CHECK if obs.legal.can_check else Intent.CALL), 0
    if action == Action.RAISE_HALF_POT:
        return Intent.RAISE, obs.bets[me] + obs.pot // 2
    if action == Action.RAISE_POT:
        return Intent.RAISE, obs.bets[me] + obs.pot
    if action == Action.ALL_IN:
        return Intent.RAISE, obs.bets[me] + obs.stacks[me]
    raise ValueError(f"not an rlcard No-Limit action: {action!r}")


class RlcardLimitRuleAgent(ExternalAgent):
    """rlcard's `limit-holdem-rule-v1`: it answers an action name from the raw state."""

    style = "rlcard-limit-rule"
    package = "rlcard"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        from rlcard.models.limitholdem_rule_models import LimitholdemRuleAgentV1

        self.agent = LimitholdemRuleAgentV1()
        self.last_state: dict[str, Any] | None = None  # what it was shown last (tests)

    def ask(self, obs: Observation) -> tuple[Intent, int]:
        if not obs.limit:
            raise ValueError("rlcard's limit-holdem-rule-v1 plays Limit only")
        state = limit_state(obs)
        self.last_state = state
        action = self.agent.eval_step(state)[0]
        return _LIMIT_INTENTS[action], 0


class RlcardRandomAgent(ExternalAgent):
    """rlcard's `RandomAgent`: it answers an action id of the environment's list."""

    style = "rlcard-random"
    package = "rlcard"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        from rlcard.agents import RandomAgent

        self.random = OwnRandom(seed)
        self.agent = RandomAgent(num_actions=5)  # the larger of Limit's 4 and No-Limit's 5
        self.last_state: dict[str, Any] | None = None

    def ask(self, obs: Observation) -> tuple[Intent, int]:
        state = rlcard_state(obs)
        self.last_state = state
        with self.random.active():
            action_id = int(self.agent.step(state))
        if obs.limit:
            return _LIMIT_INTENTS[_env("limit-holdem", obs.n).actions[action_id]], 0
        from rlcard.games.nolimitholdem.round import Action

        return nolimit_intent(obs, Action(action_id))
