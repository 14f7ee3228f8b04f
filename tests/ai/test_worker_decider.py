"""The worker's decision side on real tables: views in, legal answers (and advice) out."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

import pytest

from ai.bots.from_view import ReplayError, observation_from_view
from ai.bots.mcts import NO_LIMIT_ITERATIONS, MctsBot
from ai.bots.registry import ADVISOR_STYLE
from ai.search.profiles import ADVISOR, DEFAULT
from ai.worker import Decider, ai_socket_url
from ai.worker.client import Backoff
from holdem.actions import Action, EventKind
from holdem.config import TableConfig, Variant
from holdem.table import Table
from holdem.views import observe, observe_record
from protocol.messages import DecisionQuery, HandEnded, QueryPurpose

ACTIONS = (EventKind.FOLD, EventKind.CHECK, EventKind.CALL, EventKind.BET, EventKind.RAISE)
STYLES = ["random", "rational", "loki", "always-raise", "aggressive", "poki", "calling"]


def seated_table(variant: Variant, players: int, seed: int) -> Table:
    rng = random.Random(seed)
    config = TableConfig(
        variant=variant, seats=players, small_blind=1, big_blind=2, ante=rng.choice([0, 1])
    )
    table = Table("t-test", config, seed=seed)
    for seat in range(1, players + 1):
        table.sit(seat, f"p{seat}", f"P{seat}", rng.randint(config.min_buy_in, config.max_buy_in))
    return table


def query_for(table: Table, style: str | None, purpose: QueryPurpose, n: int) -> DecisionQuery:
    hand = table.hand
    assert hand is not None and hand.actor is not None
    view = observe(table, hand.actor)
    assert view.legal_actions is not None
    return DecisionQuery(
        request_id=f"r{n}",
        purpose=purpose,
        table_id=table.table_id,
        hand_no=table.hand_no,
        seat=hand.actor,
        style=style,
        view=view,
        legal=view.legal_actions,
        deadline=time.time() * 1000 + 2000,
        timeout_ms=2000,
        want_advice=purpose is not QueryPurpose.BOT,
    )


@pytest.mark.parametrize("variant", [Variant.LIMIT, Variant.NO_LIMIT])
def test_views_replay_exactly_and_every_answer_is_accepted_by_the_table(variant: Variant) -> None:
    decider = Decider()
    asked = 0
    for players in (2, 4, 7):
        table = seated_table(variant, players, seed=players)
        styles = {seat: STYLES[(seat + players) % len(STYLES)] for seat in range(1, players + 1)}
        for _ in range(4):
            if not table.can_start_hand():
                break
            table.start_hand()
            while table.hand is not None and not table.hand.is_over:
                actor = table.hand.actor
                assert actor is not None
                view = observe(table, actor)
                obs = observation_from_view(view)
                assert obs.legal.to_legal_actions() == view.legal_actions
                query = query_for(table, styles[actor], QueryPurpose.BOT, asked)
                answer = decider.answer(query, budget=0.3)
                asked += 1
                assert answer.request_id == query.request_id and answer.advice is None
                table.act(actor, Action(kind=answer.action, amount=answer.amount))
            for seat in list(table.seats.values()):
                if seat.stack == 0:
                    table.rebuy(seat.player_id, table.config.min_buy_in)
    assert asked > 40


def test_advice_has_values_equity_reads_and_a_reason() -> None:
    decider = Decider()
    table = seated_table(Variant.NO_LIMIT, 4, seed=11)
    table.start_hand()
    advised = 0
    while table.hand is not None and not table.hand.is_over and advised < 6:
        query = query_for(table, None, QueryPurpose.ADVICE, advised)
        answer = decider.answer(query, budget=0.5)
        advice = answer.advice
        assert advice is not None
        assert advice.action == answer.action and advice.amount == answer.amount
        assert advice.reason and advice.reason[0].isupper()
        assert advice.values and advice.action in {v.action for v in advice.values}
        assert advice.equity is not None and 0 <= advice.equity <= 1
        assert {o.seat for o in advice.opponents} <= set(table.seats) - {query.seat}
        table.act(query.seat, Action(kind=answer.action, amount=answer.amount))
        advised += 1
    assert advised >= 2


def test_a_view_without_the_turn_is_not_replayed() -> None:
    table = seated_table(Variant.LIMIT, 3, seed=1)
    table.start_hand()
    assert table.hand is not None and table.hand.actor is not None
    other = next(s for s in table.seats if s != table.hand.actor)
    with pytest.raises(ReplayError):
        observation_from_view(observe(table, other))


def test_unknown_style_plays_rational_and_a_tight_deadline_still_answers() -> None:
    decider = Decider()
    table = seated_table(Variant.LIMIT, 3, seed=2)
    table.start_hand()
    query = query_for(table, "no-such-style", QueryPurpose.BOT, 0)
    assert decider.answer(query, budget=0.001).action in {k for k in query.legal.kinds}


def test_urls_and_backoff() -> None:
    assert ai_socket_url("127.0.0.1:8000") == "ws://127.0.0.1:8000/ws/ai"
    assert ai_socket_url("https://x.example") == "wss://x.example/ws/ai"
    backoff = Backoff(initial=0.5, maximum=4.0)
    rng = random.Random(1)
    delays = [backoff.next_delay(rng) for _ in range(6)]
    assert delays[0] < 0.7 and all(d <= 5.0 for d in delays) and delays[-1] >= 3.0
    backoff.reset()
    assert backoff.next_delay(rng) < 0.7


async def test_an_answer_that_would_miss_its_deadline_becomes_a_decline() -> None:
    """The client never lets the server wait for the deadline: it declines in time."""
    import asyncio
    import json
    from collections.abc import Callable
    from typing import Any

    from ai.worker import WorkerClient

    table = seated_table(Variant.LIMIT, 3, seed=4)
    table.start_hand()
    query = query_for(table, "rational", QueryPurpose.BOT, 0).model_copy(update={"timeout_ms": 200})
    client = WorkerClient("ws://127.0.0.1:9/ws/ai", "s", concurrency=1, threads=True)

    # The answer cannot come before the decline: the work waits until the test releases it.
    release = threading.Event()

    def slow(table_id: str, query_json: str, budget: float) -> Callable[[], str]:
        def run() -> str:
            release.wait(timeout=30)
            return "{}"

        return run

    client.lanes.call = slow  # type: ignore[method-assign]
    sent: list[str] = []

    class Socket:
        async def send(self, text: str) -> None:
            sent.append(text)

    socket: Any = Socket()
    await client._answer(socket, query, query.model_dump_json())
    assert not release.is_set()  # declined while the search still ran, not after it
    assert json.loads(sent[0]) == {"type": "decline", "request_id": "r0", "reason": "timeout"}
    assert client.declined == 1
    release.set()
    client.lanes.shutdown()
    await asyncio.sleep(0)


def test_the_worker_builds_the_advisor_from_its_profile() -> None:
    advisor = Decider().bot_for("t1", 1, ADVISOR_STYLE)
    assert isinstance(advisor, MctsBot) and advisor.config == ADVISOR
    assert advisor.budget(limit=True) == ADVISOR.limit_iterations > DEFAULT.limit_iterations
    assert advisor.budget(limit=False) == NO_LIMIT_ITERATIONS
    assert ADVISOR.search_preflop and not ADVISOR.keep_tree
    bot = Decider().bot_for("t1", 2, "mcts")
    assert isinstance(bot, MctsBot) and bot.config == DEFAULT


def test_a_finished_hand_teaches_the_table_s_bots_from_its_shown_cards_only() -> None:
    """The worker's twin of the arena's `hand_over`: after `hand_ended` the statistics hold
    every action of the hand (the last one comes after the last query) and the search bot
    has read the shown holdings; a mucked one is never read, though the record handed over
    here (unlike the server's) still carries it."""
    decider = Decider()
    table = seated_table(Variant.LIMIT, 3, seed=5)
    styles = {1: "mcts", 2: "always-raise", 3: "always-raise"}
    players = {seat: s.player_id for seat, s in table.seats.items()}
    asked = 0
    for _ in range(60):
        counted = sum(decider.book.get(p).counts.sum() for p in players.values())
        table.start_hand()
        while table.hand is not None and not table.hand.is_over:
            actor = table.hand.actor
            assert actor is not None
            answer = decider.answer(query_for(table, styles[actor], QueryPurpose.BOT, asked), 0.3)
            asked += 1
            table.act(actor, Action(kind=answer.action, amount=answer.amount))
        record = table.last_record
        assert record is not None
        ends = {e.seat: e.kind for e in record.events if e.kind in (EventKind.SHOW, EventKind.MUCK)}
        if {EventKind.SHOW, EventKind.MUCK} <= set(ends.values()):
            break
        decider.hand_ended(HandEnded(record=observe_record(record, None)))
    else:
        raise AssertionError("no hand ended with one holding shown and one mucked")
    bot = decider.bot_for(table.table_id, 1, "mcts")
    assert isinstance(bot, MctsBot)
    actions = [e for e in record.events if e.kind in ACTIONS]
    shown = {players[seat] for seat, kind in ends.items() if kind is EventKind.SHOW}
    mucked = {players[seat] for seat, kind in ends.items() if kind is EventKind.MUCK}
    reads = dict(bot.reliability.counts)

    def counted_now() -> float:
        return sum(decider.book.get(p).counts.sum() for p in players.values()) - counted

    assert counted_now() < len(actions)
    elsewhere = record.model_copy(update={"table_id": "t-never-served"})
    assert decider.hand_ended(HandEnded(record=elsewhere)) == 0  # its players stay unknown
    assert counted_now() < len(actions)
    assert decider.hand_ended(HandEnded(record=record)) == 3  # each seat's bot saw it

    assert counted_now() == len(actions)
    raised = Counter(players[e.seat] for e in actions if e.kind in (EventKind.BET, EventKind.RAISE))
    for player in shown:  # one strength read per bet or raise of a shown holding
        assert bot.reliability.counts.get(player, 0) - reads.get(player, 0) == raised[player] > 0
    for player in mucked:
        assert bot.reliability.counts.get(player, 0) == reads.get(player, 0)


@pytest.mark.slow
def test_warm_up_loads_the_priors_before_the_first_query() -> None:
    # The search's priors (a few seconds each) are loaded by the worker's warm-up, so the
    # first decision at a heads-up or three-handed table does not pay for them.
    from ai.search.blueprint_prior import blueprint_shares, nway_prior, sixmax_prior
    from ai.search.rollout_blueprint import pack
    from ai.worker.decider import load_priors

    blueprint_shares.cache_clear()
    nway_prior.cache_clear()
    pack.cache_clear()
    sixmax_prior.cache_clear()
    load_priors()
    assert blueprint_shares.cache_info().currsize == 1
    assert nway_prior.cache_info().currsize == 2  # nolimit-hu and limit-3max
    assert pack.cache_info().currsize == 3  # and heads-up Limit's
    assert sixmax_prior.cache_info().currsize == 1  # No-Limit tables of three to six
