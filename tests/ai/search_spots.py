"""Hand-made spots for the bot and search tests: seats 1..n, the button on the last seat
(seat 1 is the small blind; heads-up the button is)."""

from __future__ import annotations

from dataclasses import replace

from ai.bots.mcts import MctsBot
from ai.game.observation import ActionRecord, Decision, Observation
from ai.game.observe import apply, observe
from ai.models.model import ModelSet
from ai.search.profiles import DEFAULT, MctsConfig
from ai.sim.state import SimState
from holdem.cards import parse_cards
from holdem.config import TableConfig, Variant

LIMIT2 = TableConfig(variant=Variant.LIMIT, seats=2, small_blind=1, big_blind=2)
NL2 = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
LIMIT6 = TableConfig(variant=Variant.LIMIT, seats=6, small_blind=1, big_blind=2)
NL6 = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2)


def spot(
    config: TableConfig,
    holes: dict[int, str],
    actions: list[tuple[int, int]],
    board: str = "",
    stacks: int = 400,
) -> Observation:
    """`actions` (kind, to) are applied in turn order before the observed decision.

    Cards not given are dealt at random into the simulator; the search must re-deal them.
    """
    seats = {seat: stacks for seat in range(1, config.seats + 1)}
    cards = {seat: parse_cards(text) for seat, text in holes.items()}
    state = SimState.new_hand(config, seats, config.seats, cards, parse_cards(board), seed=3)
    history: list[ActionRecord] = []
    for kind, to in actions:
        apply(state, Decision(kind, to), history, observe(state, history))
    return observe(state, history, hand_key="spot")


def bot(
    iterations: int = 300, seed: int = 1, search_preflop: bool = True, config: MctsConfig = DEFAULT
) -> MctsBot:
    """An mcts bot on the frequency tables (the tests do not depend on a trained network)."""
    settings = replace(config, search_preflop=search_preflop)
    return MctsBot(seed, settings, iterations=iterations, models=ModelSet.frequency_only())
