"""The worker's tournament decisions: push/fold by the equilibrium, valued in prize equity.

Real tables (holdem.Table) deal each hand class to the player deciding; the worker's
Decider answers the query with `DecisionQuery.tournament` set, as a tournament table
asks it. Heads-up with the whole prize to the winner, prize equity is linear in chips,
so the advisor must play the chip equilibrium (and the published chart).
"""

from __future__ import annotations

import time

import pytest

from ai.tournament.hands import HOLDING_CLASS, HOLDINGS, N_CLASSES, label
from ai.tournament.published import published_call, published_push
from ai.tournament.pushfold import chip_chart
from ai.worker import Decider
from holdem.actions import Action, ActionKind
from holdem.cards import FULL_DECK, ScriptedDeck
from holdem.config import TableConfig, Variant
from holdem.table import Table
from holdem.views import observe
from protocol.messages import (
    DecisionAnswer,
    DecisionQuery,
    QueryPurpose,
    TournamentSituation,
)

BIG = 100
WINNER_TAKES_ALL = TournamentSituation(prizes=[100.0], players_left=2)


def holding(k: int) -> tuple[str, str]:
    a, b = HOLDINGS[list(HOLDING_CLASS).index(k)]
    return FULL_DECK[int(a)], FULL_DECK[int(b)]


def deal(stacks: dict[int, int], hero: int, cards: tuple[str, str]) -> Table:
    """A heads-up No-Limit table (blinds 50/100) with `cards` dealt to seat `hero`."""
    config = TableConfig(
        variant=Variant.NO_LIMIT, seats=2, small_blind=BIG // 2, big_blind=BIG, min_buy_in=BIG,
        max_buy_in=100 * BIG,
    )  # fmt: skip
    table = Table("t-icm", config, seed=7)
    for seat, stack in sorted(stacks.items()):
        table.sit(seat, f"p{seat}", f"P{seat}", stack)
    villain = 3 - hero
    other = [c for c in FULL_DECK if c not in cards][:2]
    # Heads-up the big blind (the non-button seat) is dealt first; the button is seat 2
    # on this seed's first hand (checked below).
    first, second = (cards, other) if hero == 1 else (other, cards)
    table.start_hand(ScriptedDeck([first[0], second[0], first[1], second[1]]))
    hand = table.hand
    assert hand is not None and hand.hole_cards[hero] == cards, (hand, villain)
    return table


def ask(
    decider: Decider,
    table: Table,
    situation: TournamentSituation,
    advice: bool = False,
    style: str = "rational",
) -> DecisionAnswer:
    hand = table.hand
    assert hand is not None and hand.actor is not None
    view = observe(table, hand.actor)
    assert view.legal_actions is not None
    query = DecisionQuery(
        request_id=f"q{table.hand_no}",
        purpose=QueryPurpose.ADVICE if advice else QueryPurpose.BOT,
        table_id=table.table_id,
        hand_no=table.hand_no,
        seat=hand.actor,
        style=None if advice else style,
        view=view,
        legal=view.legal_actions,
        deadline=time.time() * 1000 + 5000,
        timeout_ms=5000,
        want_advice=advice,
        tournament=situation,
    )
    answer = decider.answer(query, budget=1.0)
    assert isinstance(answer, DecisionAnswer)
    return answer


def push_decisions(decider: Decider, stack_bb: float) -> list[bool]:
    out = []
    for k in range(N_CLASSES):
        table = deal({1: int(stack_bb * BIG), 2: int(stack_bb * BIG)}, 2, holding(k))
        assert table.hand is not None and table.hand.actor == 2  # the button (SB) acts first
        answer = ask(decider, table, WINNER_TAKES_ALL)
        assert answer.action in (ActionKind.RAISE, ActionKind.FOLD), (label(k), answer)
        if answer.action is ActionKind.RAISE:
            assert answer.amount == int(stack_bb * BIG)  # all in
        out.append(answer.action is ActionKind.RAISE)
    return out


def call_decisions(decider: Decider, stack_bb: float) -> list[bool]:
    out = []
    for k in range(N_CLASSES):
        table = deal({1: int(stack_bb * BIG), 2: int(stack_bb * BIG)}, 1, holding(k))
        table.act(2, Action(kind=ActionKind.RAISE, amount=int(stack_bb * BIG)))
        answer = ask(decider, table, WINNER_TAKES_ALL)
        assert answer.action in (ActionKind.CALL, ActionKind.FOLD), (label(k), answer)
        out.append(answer.action is ActionKind.CALL)
    return out


def agreement(ours: list[bool], theirs: list[bool]) -> float:
    return sum(a == b for a, b in zip(ours, theirs, strict=True)) / len(ours)


@pytest.mark.parametrize(
    "stack_bb",
    [pytest.param(5, marks=pytest.mark.slow), 10, pytest.param(15, marks=pytest.mark.slow)],
)
def test_advisor_plays_the_push_fold_equilibrium(stack_bb: int) -> None:
    decider = Decider()
    chart = chip_chart(float(stack_bb))
    pushes = push_decisions(decider, stack_bb)
    calls = call_decisions(decider, stack_bb)
    push_eq = agreement(pushes, [bool(p > 0.5) for p in chart.push])
    call_eq = agreement(calls, [bool(c > 0.5) for c in chart.call])
    push_pub = agreement(pushes, [bool(x) for x in published_push(stack_bb)])
    call_pub = agreement(calls, [bool(x) for x in published_call(stack_bb)])
    print(
        f"{stack_bb} bb: advisor vs equilibrium push {push_eq:.3f} call {call_eq:.3f};"
        f" vs published chart push {push_pub:.3f} call {call_pub:.3f}"
    )
    assert push_eq >= 0.95 and call_eq >= 0.95
    assert push_pub >= 0.95 and call_pub >= 0.95


def test_icm_turns_a_chip_call_into_a_fold_on_the_bubble() -> None:
    """Four left, three paid: our 10 bb against the chip leader's push, a 3 bb stack at
    the other table. A9o calls in chips (the chart: to 17.1 bb) but the call risks
    busting before the short stack; in prize equity it is a fold."""
    decider = Decider()
    hand = ("Ac", "9d")
    stacks = {2: 5000, 1: 1000}  # seat 2 the button (SB) pushes; we are the big blind
    bubble = TournamentSituation(
        prizes=[50.0, 30.0, 20.0], other_stacks=[300, 5000], players_left=4
    )
    chips_only = TournamentSituation(prizes=[100.0], other_stacks=[300, 5000], players_left=4)
    answers = {}
    for name, situation in (("bubble", bubble), ("chips", chips_only)):
        table = deal(stacks, 1, hand)
        table.act(2, Action(kind=ActionKind.RAISE, amount=5000))
        answers[name] = ask(decider, table, situation, advice=True)
    assert answers["chips"].action is ActionKind.CALL
    assert answers["bubble"].action is ActionKind.FOLD
    advice = answers["bubble"].advice
    assert advice is not None and advice.prize_equity is not None
    values = {v.action: v for v in advice.values}
    fold, call = values[ActionKind.FOLD], values[ActionKind.CALL]
    assert call.value_bb > fold.value_bb  # chips say call ...
    assert fold.prize_equity is not None and call.prize_equity is not None
    assert fold.prize_equity > call.prize_equity  # ... the money says fold
    assert "prize equity" in advice.reason


def test_cash_tables_and_deep_stacks_are_unchanged() -> None:
    decider = Decider()
    table = deal({1: 4000, 2: 4000}, 2, ("7c", "2d"))  # 40 bb: no push/fold spot
    answer = ask(decider, table, WINNER_TAKES_ALL, advice=True)
    assert answer.advice is not None and answer.advice.prize_equity == pytest.approx(50.0)
    assert "equilibrium" not in answer.advice.reason


def test_an_all_in_call_beyond_push_fold_is_valued_in_prize_equity() -> None:
    """30 bb deep, facing a shove: the bot's equity (55%) makes the call +EV in chips;
    on the bubble (a 3 bb stack elsewhere, 3 paid of 4) ICM folds; winner-takes-all calls."""
    from ai.bots.from_view import observation_from_view
    from ai.game.observation import Decision
    from ai.sim.rules import CALL, FOLD
    from ai.tournament.advisor import icm_call

    table = deal({1: 3000, 2: 8000}, 1, ("Ac", "Qd"))
    table.act(2, Action(kind=ActionKind.RAISE, amount=8000))
    view = observe(table, 1)
    obs = observation_from_view(view)
    assert view.legal_actions is not None
    bot_says = Decision(CALL, equity=0.55)
    for prizes, expected in (([50.0, 30.0, 20.0], FOLD), ([100.0], CALL)):
        situation = TournamentSituation(prizes=prizes, other_stacks=[300, 8000], players_left=4)
        query = DecisionQuery(
            request_id="r", purpose=QueryPurpose.ADVICE, table_id=table.table_id,
            hand_no=table.hand_no, seat=1, style=None, view=view, legal=view.legal_actions,
            deadline=0, timeout_ms=1, want_advice=True, tournament=situation,
        )  # fmt: skip
        tour = icm_call(obs, query, bot_says)
        assert tour is not None and tour.decision.kind == expected, (prizes, tour)
        assert tour.values["call"][0] > 0  # +EV in chips either way
    # Not an all-in spot: nothing to change.
    table = deal({1: 3000, 2: 8000}, 1, ("Ac", "Qd"))
    table.act(2, Action(kind=ActionKind.RAISE, amount=300))
    view = observe(table, 1)
    assert view.legal_actions is not None
    query = query.model_copy(update={"view": view, "legal": view.legal_actions})
    assert icm_call(observation_from_view(view), query, bot_says) is None


def test_a_big_field_is_advised_in_prize_equity_from_the_sampled_icm() -> None:
    """28 players left, 15 paid: near the money, beyond exact ICM (sampled); the advice is a
    push/fold answer in prize equity (its speed: `python -m ai.tournament.bench`)."""
    decider = Decider()
    others = [1000 + (37 * i) % 4000 for i in range(26)]
    situation = TournamentSituation(
        prizes=[float(p) for p in range(15, 0, -1)], other_stacks=others, players_left=28
    )
    table = deal({1: 800, 2: 800}, 2, ("Ks", "Th"))
    ask(decider, table, situation, advice=True)  # compiles and caches what it can
    table = deal({1: 800, 2: 800}, 2, ("Qs", "9h"))
    answer = ask(decider, table, situation, advice=True)
    assert answer.advice is not None and answer.advice.prize_equity is not None
    assert "prize equity" in answer.advice.reason
    assert answer.action in (ActionKind.RAISE, ActionKind.FOLD)


def test_one_rule_bots_keep_their_character() -> None:
    """A calling station calls the all-in with 72o, as at a cash table; rational folds."""
    decider = Decider()
    answers = {}
    for style in ("calling-station", "rational"):
        table = deal({1: 1000, 2: 1000}, 1, ("7c", "2d"))
        table.act(2, Action(kind=ActionKind.RAISE, amount=1000))
        answers[style] = ask(decider, table, WINNER_TAKES_ALL, style=style).action
    assert answers == {"calling-station": ActionKind.CALL, "rational": ActionKind.FOLD}


@pytest.mark.parametrize(
    "bad",
    [
        {"prizes": [], "players_left": 2},
        {"prizes": [-5.0], "players_left": 2},
        {"prizes": [10.0], "other_stacks": [0], "players_left": 2},
        {"prizes": [10.0], "players_left": 0},
    ],
)
def test_a_malformed_situation_is_refused(bad: dict[str, object]) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        TournamentSituation.model_validate(bad)


def test_far_from_the_money_a_big_field_plays_push_fold_in_chips() -> None:
    """300 left, 30 paid: no ICM for the bots (it would cost every decision); the
    advice still shows our prize equity now."""
    decider = Decider()
    others = [1000 + (37 * i) % 4000 for i in range(298)]
    far = TournamentSituation(
        prizes=[float(p) for p in range(30, 0, -1)], other_stacks=others, players_left=300
    )
    table = deal({1: 1000, 2: 1000}, 2, ("Ks", "Th"))
    answer = ask(decider, table, far, advice=True)
    assert answer.action is ActionKind.RAISE  # KTo pushes 10 bb in chips
    assert answer.advice is not None and "chips (far from the money)" in answer.advice.reason
    assert answer.advice.prize_equity is not None
    assert all(v.prize_equity is None for v in answer.advice.values)


def test_situation_from_the_directors_stacks() -> None:
    stacks = {"a": 1000, "b": 5000, "c": 300, "d": 5000}
    situation = TournamentSituation.of(stacks, [50, 30, 20], at_table={"a", "b"})
    assert situation.prizes == [50.0, 30.0, 20.0]
    assert sorted(situation.other_stacks) == [300, 5000] and situation.players_left == 4
