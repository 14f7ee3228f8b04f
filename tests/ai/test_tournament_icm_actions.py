"""Near the money every decision is valued in prize equity, not only push/fold.

Real tables (holdem.Table) and the worker's Decider with the advisor's iteration budget
(the time budget set far above it, so the same spot is searched the same way on a busy
machine). The spot: heads-up at a table of a 4-left, 3-paid sit-and-go, 25 bb deep
(beyond push/fold), 99 in the big blind facing the chip leader's raise to 3 bb.
"""

from __future__ import annotations

import time

import pytest
from test_tournament_advisor import deal

from ai.worker import Decider
from holdem.actions import Action, ActionKind
from holdem.table import Table
from holdem.views import observe
from protocol.messages import (
    Advice,
    DecisionAnswer,
    DecisionQuery,
    QueryPurpose,
    TournamentSituation,
)

BUBBLE = TournamentSituation(prizes=[50.0, 30.0, 20.0], other_stacks=[300, 5000], players_left=4)
# 300 left, 30 paid: far from the money.
FAR = TournamentSituation(
    prizes=[float(p) for p in range(30, 0, -1)],
    other_stacks=[1000 + (37 * i) % 4000 for i in range(298)],
    players_left=300,
)


def spot() -> Table:
    table = deal({1: 2500, 2: 5000}, 1, ("9c", "9h"))
    table.act(2, Action(kind=ActionKind.RAISE, amount=300))  # not all in: 2200 behind
    return table


def ask(decider: Decider, situation: TournamentSituation | None) -> DecisionAnswer:
    table = spot()
    hand = table.hand
    assert hand is not None and hand.actor == 1
    view = observe(table, 1)
    assert view.legal_actions is not None
    query = DecisionQuery(
        request_id="icm-actions", purpose=QueryPurpose.ADVICE, table_id=table.table_id,
        hand_no=table.hand_no, seat=1, style=None, view=view, legal=view.legal_actions,
        deadline=time.time() * 1000 + 60_000, timeout_ms=60_000, want_advice=True,
        tournament=situation,
    )  # fmt: skip
    answer = decider.answer(query, budget=60.0)
    assert isinstance(answer, DecisionAnswer) and answer.advice is not None
    return answer


@pytest.fixture(scope="module")
def answers() -> dict[str, DecisionAnswer]:
    out = {}
    for name, situation in (("cash", None), ("bubble", BUBBLE), ("far", FAR)):
        # A decider each: nothing learnt from one query changes the next.
        out[name] = ask(Decider(advice_seconds=60.0), situation)
    return out


def chip_best(advice: Advice) -> tuple[ActionKind, int | None]:
    best = max(advice.values, key=lambda v: v.value_bb)
    return best.action, best.amount


def test_on_the_bubble_the_raise_best_in_chips_gives_way_to_a_smaller_risk(
    answers: dict[str, DecisionAnswer],
) -> None:
    """The search's best action in chips is a bigger raise than the one its prize equity
    ranks first (a bigger pot risks more of a stack that is worth more than its chips), and
    the bot plays the prize equity's choice. The all-in, near the top in chips, is worth
    less than folding in prize equity."""
    cash, bubble = answers["cash"], answers["bubble"]
    assert cash.action is ActionKind.RAISE  # in chips: re-raise
    advice = bubble.advice
    assert advice is not None
    chips = chip_best(advice)
    assert chips[0] is ActionKind.RAISE
    prize = {(v.action, v.amount): v.prize_equity for v in advice.values}
    best = max(prize, key=lambda k: prize[k] or 0.0)
    assert best != chips and (prize[chips] or 0.0) < (prize[best] or 0.0)
    assert best[0] in (ActionKind.CALL, ActionKind.RAISE)
    assert best[1] is None or chips[1] is None or best[1] < chips[1]  # the smaller risk
    all_in = max(
        (v for v in advice.values if v.action is ActionKind.RAISE), key=lambda v: v.amount or 0
    )
    assert all_in.value_bb > 0.0 and (all_in.prize_equity or 0.0) < (
        prize[(ActionKind.FOLD, None)] or 0.0
    )
    assert (bubble.action, bubble.amount) == best
    assert (advice.action, advice.amount) == best  # the advice says what the bot does
    print(advice.reason)
    assert "prize equity" in advice.reason and "approximation" in advice.reason
    assert f"{prize[best]:.2f}" in advice.reason  # explained with the numbers it used


def test_every_action_of_the_advice_near_the_money_has_prize_equity(
    answers: dict[str, DecisionAnswer],
) -> None:
    advice = answers["bubble"].advice
    assert advice is not None and advice.prize_equity is not None
    assert len(advice.values) >= 3  # fold, call and raise sizes
    assert all(v.prize_equity is not None for v in advice.values), advice.values
    assert advice.close_call is None or advice.close_call.prize_equity is not None
    fold = next(v for v in advice.values if v.action is ActionKind.FOLD)
    # Folding is exact: our 2400 left against 5300, a 300 stack and a 5000 elsewhere.
    assert fold.prize_equity is not None and 20.0 < fold.prize_equity < 30.0


def test_far_from_the_money_the_decision_is_the_cash_tables(
    answers: dict[str, DecisionAnswer],
) -> None:
    cash, far, bubble = answers["cash"], answers["far"], answers["bubble"]
    assert (far.action, far.amount) == (cash.action, cash.amount)
    assert far.advice is not None and cash.advice is not None
    assert [(v.action, v.amount, v.value_bb) for v in far.advice.values] == [
        (v.action, v.amount, v.value_bb) for v in cash.advice.values
    ]
    assert all(v.prize_equity is None for v in far.advice.values)
    assert far.advice.prize_equity is not None  # our stack's, as before
    # ... while near the money the same spot is played for the money: its choice is the
    # prize equity's, not the chips' best.
    assert bubble.advice is not None
    assert all(v.prize_equity is not None for v in bubble.advice.values)
    prize = {(v.action, v.amount): v.prize_equity or 0.0 for v in bubble.advice.values}
    assert (bubble.action, bubble.amount) == max(prize, key=lambda k: prize[k])
    assert (bubble.action, bubble.amount) != chip_best(bubble.advice)


@pytest.mark.parametrize("folds", [0.0, 0.4])
def test_the_outcomes_average_to_the_searchs_chip_value(folds: float) -> None:
    """The chips and the prize equity shown come from the same numbers: each action's
    outcomes (all fold with the search's share; win; lose) average to its chip value."""
    from ai.bots.from_view import observation_from_view
    from ai.tournament.actions import outcomes, parse

    obs = observation_from_view(observe(spot(), 1))
    for label, value_bb in (("call", 4.99), ("raise 900", 5.39), ("raise 2500", -4.3)):
        parsed = parse(label, obs)
        assert parsed is not None
        o = outcomes(obs, *parsed, value_bb, folds)
        assert o.p_steal == folds and 0.0 <= o.p_win <= 1.0
        shown = o.p_win * o.win - (1 - o.p_win) * o.lose
        mean = o.p_steal * o.steal + (1 - o.p_steal) * shown
        assert mean == pytest.approx(value_bb * obs.big_blind), label
        assert o.lose <= obs.stacks[obs.index]  # never more than we have
