"""Advice and "Let AI decide" agree on the same spot (#33): sent through the worker's
decider as the server sends them, the two paths give the same action, in at least 19 of
20 repeats of the spot, or the advice names the other answer as a close call."""

from __future__ import annotations

from collections import Counter

import pytest
from test_worker_decider import query_for, seated_table

from ai.worker import Decider
from holdem.actions import Action, ActionKind
from holdem.config import Variant
from holdem.table import Table
from protocol.messages import DecisionAnswer, DecisionDecline, QueryPurpose

# Long enough that the advisor's iteration budget, not the clock, ends every search here:
# the same spot and seed then give the same search.
UNHURRIED = 30.0


def flop_table(variant: Variant = Variant.NO_LIMIT) -> Table:
    """Heads-up: the button raised (to 3 bb in No-Limit, the fixed 2 bb in Limit), the big
    blind called; the flop is dealt."""
    table = seated_table(variant, 2, seed=7)
    table.start_hand()
    hand = table.hand
    assert hand is not None and hand.actor is not None
    raise_to = 4 if variant == Variant.LIMIT else 6
    table.act(hand.actor, Action(kind=ActionKind.RAISE, amount=raise_to))
    assert hand.actor is not None
    table.act(hand.actor, Action(kind=ActionKind.CALL))
    assert hand.actor is not None and len(hand.board) == 3
    return table


def answered(answer: DecisionAnswer | DecisionDecline) -> DecisionAnswer:
    assert isinstance(answer, DecisionAnswer)
    return answer


@pytest.mark.parametrize("variant", [Variant.NO_LIMIT, Variant.LIMIT])
def test_advice_then_let_ai_decide_agree_in_20_repeats_or_name_a_close_call(
    variant: Variant,
) -> None:
    table = flop_table(variant)
    answers: list[tuple[ActionKind, int | None]] = []
    closes: list[tuple[ActionKind, int | None] | None] = []
    for repeat in range(20):
        # Each repeat at its own table id: its own advisor and seed, as another worker
        # lane or a restarted worker would be.
        decider = Decider(advice_seconds=UNHURRIED)
        advice_query = query_for(table, None, QueryPurpose.ADVICE, 2 * repeat)
        advice_query = advice_query.model_copy(update={"table_id": f"agree-{repeat}"})
        decide_query = advice_query.model_copy(
            update={"request_id": f"d{repeat}", "purpose": QueryPurpose.AI_DECIDE}
        )
        advised = answered(decider.answer(advice_query, UNHURRIED))
        decided = answered(decider.answer(decide_query, UNHURRIED))
        assert decided.request_id == f"d{repeat}"
        assert (decided.action, decided.amount) == (advised.action, advised.amount)
        assert advised.advice is not None and decided.advice == advised.advice
        answers.append((advised.action, advised.amount))
        runner = advised.advice.close_call
        closes.append(None if runner is None else (runner.action, runner.amount))
    (majority, count), *_ = Counter(answers).most_common()
    if count < 19:
        # Every other answer is a close call between it and the majority's, both ways.
        for answer, close in zip(answers, closes, strict=True):
            if answer != majority:
                assert close == majority, (answer, close, Counter(answers))


def test_the_same_spot_searched_afresh_gets_the_same_advice() -> None:
    """Without the kept answer: two deciders (two worker processes) search the spot with
    the same seed and iteration budget, so every value matches."""
    table = flop_table()
    first, second = (
        answered(Decider(advice_seconds=UNHURRIED).answer(query_for(table, None, purpose, 0), 30))
        for purpose in (QueryPurpose.ADVICE, QueryPurpose.AI_DECIDE)
    )
    assert first.advice is not None and second.advice is not None
    assert (first.action, first.amount) == (second.action, second.amount)
    assert first.advice.values == second.advice.values
    assert "Stopped at" not in first.advice.reason


def test_let_ai_decide_applies_the_advised_action_even_when_the_advice_was_hurried() -> None:
    """A busy machine cut the advice's search short; "Let AI decide" on the same spot then
    plays what the advice showed, not a longer search's answer. A new spot is searched."""
    table = flop_table()
    decider = Decider(advice_seconds=0.002)
    advised = answered(decider.answer(query_for(table, None, QueryPurpose.ADVICE, 0), 30))
    decider.advice_seconds = UNHURRIED
    query = query_for(table, None, QueryPurpose.AI_DECIDE, 1)
    decided = answered(decider.answer(query.model_copy(update={"want_advice": False}), 30))
    assert (decided.action, decided.amount) == (advised.action, advised.amount)
    assert decided.advice is None  # not asked for
    assert table.hand is not None and table.hand.actor is not None
    table.act(table.hand.actor, Action(kind=decided.action, amount=decided.amount))
    if table.hand is not None and not table.hand.is_over and table.hand.actor is not None:
        later = answered(decider.answer(query_for(table, None, QueryPurpose.ADVICE, 2), 30))
        assert later.advice is not None and "Stopped at" not in later.advice.reason
