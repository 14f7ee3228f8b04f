"""The bots and "Let AI decide" at tables with each home-game rule (#34): a straddle
under the gun or on the button, bomb pots, the big-blind ante, and all of them with
run it twice.

Each decision's view is rebuilt by the simulator under the hand's own rules (it must
agree with the table exactly: no check/fold fallback), the AI's pot and amount to call
are the rules core's, the bots answer, the table accepts every answer, and the chips
at the table never change in total. Each finished hand replays for the bots' learning.
"""

from __future__ import annotations

import math
import random
import time

import pytest

from ai.bots.base import Bot
from ai.bots.from_view import observation_from_view
from ai.bots.mcts import MctsBot
from ai.models.public import from_record_doc
from ai.models.replay import summary_of
from ai.sim.rules import Rules
from ai.worker import Decider
from backend.home_rules import bot_refusal
from holdem.actions import Action, EventKind
from holdem.config import AnteMode, Straddle, TableConfig, Variant
from holdem.table import Table
from holdem.views import observe
from protocol.messages import DecisionAnswer, DecisionQuery, QueryPurpose

# Searches stop at this many iterations, never at a clock: the same hands on any machine.
ITERATIONS = 64
STYLES = ("rational", "loki", "aggressive", "calling", "mcts", "cautious")
OPTIONS: dict[str, dict[str, object]] = {
    "utg-straddle": {"straddle": Straddle.UTG},
    "button-straddle": {"straddle": Straddle.BUTTON},
    "bomb-pot": {"bomb_pot_ante": 6, "bomb_pot_every": 2},
    "big-blind-ante": {"ante": 2, "ante_mode": AnteMode.BIG_BLIND},
    "all-with-runs": {
        "straddle": Straddle.UTG,
        "bomb_pot_ante": 4,
        "bomb_pot_every": 3,
        "ante": 2,
        "ante_mode": AnteMode.BIG_BLIND,
        "run_it_max": 2,
    },
}


class IterationBudget(Decider):
    """The worker's decider with no time budget: its search bots (and "Let AI decide")
    run ITERATIONS iterations, the sampling bots all their rollouts, however loaded the
    machine (a 30 ms budget played other hands on a busy one)."""

    def __init__(self) -> None:
        super().__init__(advice_seconds=math.inf)

    def bot_for(self, table_id: str, seat: int, style: str) -> Bot:
        bot = super().bot_for(table_id, seat, style)
        if isinstance(bot, MctsBot):
            bot.iterations = ITERATIONS
        return bot


def _config(option: str) -> TableConfig:
    return TableConfig.model_validate(
        {
            "variant": Variant.NO_LIMIT,
            "seats": 6,
            "small_blind": 1,
            "big_blind": 2,
            "min_buy_in": 20,
            "max_buy_in": 400,
            **OPTIONS[option],
        }
    )


def _happened(option: str, kinds: set[EventKind], bomb_pots: int) -> bool:
    straddled, antes = EventKind.STRADDLE in kinds, EventKind.ANTE in kinds
    return {
        "utg-straddle": straddled,
        "button-straddle": straddled,
        "bomb-pot": bomb_pots > 0,
        "big-blind-ante": antes,
        # (Whether an all-in reaches a run-it-twice vote depends on the bots' choices;
        # the votes themselves are the table's, tested in tests/holdem.)
        "all-with-runs": straddled and bomb_pots > 0,
    }[option]


@pytest.mark.parametrize("option", list(OPTIONS))
def test_bots_play_every_home_game_rule(option: str) -> None:
    config = _config(option)
    assert bot_refusal(config) is None  # the table takes bots
    rng = random.Random(34)
    decider = IterationBudget()
    table = Table(f"t-{option}", config, seed=34)
    for seat in range(1, 7):
        table.sit(seat, f"p{seat}", f"P{seat}", rng.randint(30, 400), is_bot=seat != 1)
        if config.straddle is not Straddle.OFF:
            table.set_straddle(f"p{seat}", True)
    total = table.chips_in_play()
    kinds: set[EventKind] = set()
    bomb_pots = asked = 0
    for number in range(10):
        for seat in table.seats.values():  # the busted buy in again
            if seat.stack < config.big_blind:
                table.rebuy(seat.player_id, config.min_buy_in)
                total += config.min_buy_in
                table.sit_back(seat.player_id)
        hand = table.start_hand()
        bomb_pots += hand.bomb_pot
        while not hand.is_over:
            if hand.runout_voters:  # the bots agree to the most runs, as at a live table
                table.vote_runouts(table.seats[hand.runout_voters[0]].player_id, 2)
                continue
            actor = hand.actor
            assert actor is not None
            view = observe(table, actor)
            assert view.legal_actions is not None
            obs = observation_from_view(view)  # the hand rebuilt under its own rules
            assert obs.legal.to_legal_actions() == view.legal_actions
            assert (obs.pot, obs.to_call) == (hand.total_pot, view.legal_actions.call_amount)
            assert obs.sim is not None and obs.sim.rules == Rules.of(
                config, straddle=hand.straddle, bomb_pot=hand.bomb_pot
            )
            # Seat 1 is a person pressing "Let AI decide"; the others are bots.
            purpose = QueryPurpose.AI_DECIDE if actor == 1 else QueryPurpose.BOT
            query = DecisionQuery(
                request_id=f"r{asked}", purpose=purpose, table_id=table.table_id,
                hand_no=table.hand_no, seat=actor, style=STYLES[(actor + number) % len(STYLES)],
                view=view, legal=view.legal_actions, deadline=time.time() * 1000 + 2000,
                timeout_ms=2000, want_advice=False,
            )  # fmt: skip
            answer = decider.answer(query, budget=math.inf)
            assert isinstance(answer, DecisionAnswer)
            table.act(actor, Action(kind=answer.action, amount=answer.amount))
            asked += 1
            assert table.chips_in_play() == total  # no chip made or lost
        record = table.last_record
        assert record is not None
        kinds |= {e.kind for e in record.events}
        # The bots learn from the finished hand: its public actions replay under its rules.
        public = from_record_doc(record.model_dump(mode="json"))
        summary = summary_of(public, (table.table_id, table.hand_no), [0] * len(public.seats))
        assert len(summary.history) == len(public.actions)
        assert table.chips_in_play() == total
    assert _happened(option, kinds, bomb_pots)
    assert asked >= 20
