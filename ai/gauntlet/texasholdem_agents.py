"""Adapters to the agents texasholdem 0.11 ships (`texasholdem.agents`).

- `random_agent(game)`: a uniform choice among the available action types (fold
  included even when checking is free), a raise to a uniform total in
  [minimum raise, all-in].
- `call_agent(game)`: calls a bet, checks otherwise.

Both take the package's whole `TexasHoldEm` game object. The adapter builds one
for the deciding seat from its own view only: the table with the hand's starting
stacks and blinds, its own hole cards, the board dealt so far, and the public
actions replayed through texasholdem's own rules. The other players get no cards
at all (their entries are removed from `game.hands` and the hand history), and the
deck holds nothing but the visible board, so no hidden card is in the object the
agent receives. texasholdem is a No-Limit engine: the adapters play No-Limit.

texasholdem's player ids are our indices (0 = first left of the button, the
button last; heads-up the button posts the small blind, as ours does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ai.game.observation import Observation
from ai.gauntlet.answer import ExternalAgent, Intent
from ai.gauntlet.cards import card_text
from ai.gauntlet.randomness import OwnRandom
from ai.sim.rules import BET, CALL, CHECK, FOLD

AgentFunction = Callable[[Any], tuple[Any, int | None]]


class ReplayMismatch(RuntimeError):
    """texasholdem's rules refused an action ours allowed: the replay cannot go on."""


def texasholdem_game(obs: Observation) -> Any:
    """texasholdem's game at this decision, seen from `obs.index`'s seat."""
    from texasholdem.card.card import Card
    from texasholdem.game.action_type import ActionType
    from texasholdem.game.game import TexasHoldEm

    n = obs.n
    starts = [obs.stacks[i] + obs.invested(i) for i in range(n)]
    game = TexasHoldEm(
        buyin=max(starts), big_blind=obs.big_blind, small_blind=obs.big_blind // 2, max_players=n
    )
    for i, chips in enumerate(starts):
        game.players[i].chips = chips
    # The hand's first button is the first player in the pot from btn_loc + 1.
    game.btn_loc = n - 2
    game.start_hand()
    mine = [Card(card_text(c)) for c in obs.hole]
    game.hands = {obs.index: mine}
    game.hand_history.prehand.player_cards = game.hands
    # Each street draws its cards from the front of the deck: only the visible board.
    game._deck.cards = [Card(card_text(c)) for c in obs.board]
    kinds = {FOLD: ActionType.FOLD, CHECK: ActionType.CHECK, CALL: ActionType.CALL}
    for action in obs.history:
        if game.current_player != action.player:
            raise ReplayMismatch(f"texasholdem has {game.current_player} to act, ours {action}")
        kind = kinds.get(action.kind, ActionType.RAISE)
        total = action.to if action.kind >= BET else None
        try:
            game.take_action(kind, total=total)
        except ValueError as error:
            raise ReplayMismatch(f"texasholdem refused {action}: {error}") from error
    if game.current_player != obs.index:
        raise ReplayMismatch(f"texasholdem has {game.current_player} to act, ours {obs.index}")
    return game


class TexasholdemAgent(ExternalAgent):
    """One of texasholdem's agent functions behind our Bot interface."""

    package = "texasholdem"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.random = OwnRandom(seed)  # the package draws its deck and choices from `random`
        self.last_game: Any = None  # what it was shown last (tests)

    def agent(self) -> AgentFunction:
        raise NotImplementedError

    def ask(self, obs: Observation) -> tuple[Intent, int]:
        from texasholdem.game.action_type import ActionType

        if obs.limit:
            raise ValueError(f"texasholdem's agents play No-Limit only, not {self.style}")
        with self.random.active():
            game = texasholdem_game(obs)
            self.last_game = game
            action, total = self.agent()(game)
        if action == ActionType.ALL_IN:
            return Intent.RAISE, obs.bets[obs.index] + obs.stacks[obs.index]
        intents = {
            ActionType.FOLD: Intent.FOLD,
            ActionType.CHECK: Intent.CHECK,
            ActionType.CALL: Intent.CALL,
            ActionType.RAISE: Intent.RAISE,
        }
        return intents[action], total or 0


class TexasholdemRandomAgent(TexasholdemAgent):
    style = "texasholdem-random"

    def agent(self) -> AgentFunction:
        from texasholdem.agents import random_agent

        agent: AgentFunction = random_agent
        return agent


class TexasholdemCallAgent(TexasholdemAgent):
    style = "texasholdem-call"

    def agent(self) -> AgentFunction:
        from texasholdem.agents import call_agent

        agent: AgentFunction = call_agent
        return agent
