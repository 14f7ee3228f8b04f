"""Answering one decision query: the CPU-heavy part, run in a worker process or thread.

Bots live here, one per (table, seat, style), so an opponent-modelling bot keeps
learning about its table across queries; a least-recently-used cap bounds them.
Everything crosses the process boundary as JSON text.
"""

from __future__ import annotations

import copy
import logging
import math
import os
import threading
import time
import zlib
from collections import OrderedDict
from typing import Protocol

from ai.bots import ADVISOR_STYLE, Bot, canonical_style, make_bot
from ai.bots.from_view import ReplayError, observation_from_view
from ai.bots.mcts import make_mcts
from ai.bots.poki import PokiBot
from ai.bots.settings import BotSettings
from ai.game.observation import Decision
from ai.models.model import OpponentModel
from ai.models.public import from_record_doc
from ai.models.replay import summary_of
from ai.models.stats import StatsBook
from ai.sim.rules import CALL, CHECK, Rules
from ai.tournament.advisor import (
    icm_actions,
    icm_call,
    plays_for_money,
    tournament_decision,
    with_prize_equity,
)
from ai.worker.advice import build_advice
from ai.worker.model_sync import ModelSync
from holdem.actions import ActionKind, LegalActions
from holdem.history import HandRecord
from protocol.messages import (
    DECLINE_YIELDED,
    Advice,
    DecisionAnswer,
    DecisionDecline,
    DecisionQuery,
    HandEnded,
    QueryPurpose,
)

log = logging.getLogger("showdown.worker")

MAX_BOTS = 512
FALLBACK_STYLE = "rational"
# Advice and "Let AI decide" run the advisor profile's iteration budget (the same for
# both, so the same spot gets the same answer), cut short only by a time budget of at
# most ADVICE_SECONDS: a person is waiting (the p95 of 500 ms end to end).
ADVICE_SECONDS = 0.3
# A review (a finished hand's decision, graded afterwards) thinks as long as advice: the
# gateway sends it only to an idle worker, and a live query that arrives meanwhile waits
# for the lane at most this long.
REVIEW_SECONDS = ADVICE_SECONDS
# A review stops at once (the search's next clock read) when a live query is waiting for
# its lane, and is declined with this reason: the gateway asks for it again later, and
# does not count it as a failed try.
REVIEW_YIELDED = DECLINE_YIELDED
# Spots whose advisor answer is kept: "Let AI decide" after "Advice" on the same spot
# applies the action the advice showed, even when a busy machine cut either search short.
MAX_SPOTS = 256

# (table, hand, seat, style, actions so far, board, our cards, the tournament situation
# as JSON or ""): one decision of a hand. The situation is part of it: the prize
# structure and the other tables' stacks can turn the same cards' call into a fold.
SpotKey = tuple[str, int, int, str, int, tuple[int, ...], tuple[int, ...], str]


class YieldFlag(Protocol):
    """Set by the worker's connection while a live query waits for this lane."""

    def is_set(self) -> bool: ...


class Decider:
    """Keeps the bots; thread-safe (one lock: a decider serves one lane of queries)."""

    def __init__(
        self,
        database_url: str = "",
        yield_flag: YieldFlag | None = None,
        advice_seconds: float = ADVICE_SECONDS,
    ) -> None:
        self._yield = yield_flag
        self.advice_seconds = advice_seconds
        self._spots: OrderedDict[SpotKey, DecisionAnswer] = OrderedDict()
        self._sync = ModelSync(database_url) if database_url else None
        self._bots: OrderedDict[tuple[str, int, str], Bot] = OrderedDict()
        # Statistics of every player met: loaded from the stored hands (ModelSync) and
        # counted from the queries; the bots' models and the advice read them.
        self._book = StatsBook()
        self._model = OpponentModel(book=self._book)
        self._review_bots: dict[str, Bot] = {}
        # The statistics the review bots read: a copy of the players' as they are now.
        self._review_book = StatsBook()
        self._lock = threading.Lock()

    @property
    def book(self) -> StatsBook:
        """The statistics of every player met, which every modelling bot here reads."""
        return self._book

    def bot_for(self, table_id: str, seat: int, style: str) -> Bot:
        key = (table_id, seat, style)
        bot = self._bots.get(key)
        if bot is None:
            seed = zlib.crc32(f"{table_id}:{seat}:{style}".encode())
            # Every bot here explains itself and reads every stored hand's statistics.
            settings = BotSettings(explain=True, book=self._book)
            bot = self._bots[key] = make_bot(style, seed, settings)
            while len(self._bots) > MAX_BOTS:
                self._bots.popitem(last=False)
        self._bots.move_to_end(key)
        return bot

    def answer(self, query: DecisionQuery, budget: float) -> DecisionAnswer | DecisionDecline:
        with self._lock:
            return self._answer(query, budget)

    def _answer(self, query: DecisionQuery, budget: float) -> DecisionAnswer | DecisionDecline:
        style = self._style(query)
        try:
            obs = observation_from_view(query.view, seed=zlib.crc32(query.request_id.encode()))
        except ReplayError as error:
            log.warning("query %s: cannot rebuild the hand (%s)", query.request_id, error)
            return safe_answer(query, "the hand could not be rebuilt from the view")
        if obs.legal.to_legal_actions() != query.legal:
            log.warning("query %s: legal actions differ from the view's", query.request_id)
            return safe_answer(query, "the legal actions did not match the view")
        spot: SpotKey | None = None
        if query.purpose in (QueryPurpose.ADVICE, QueryPurpose.AI_DECIDE):
            situation = "" if query.tournament is None else query.tournament.model_dump_json()
            spot = (query.table_id, query.hand_no, query.seat, style, len(obs.history),
                    tuple(obs.board), tuple(obs.hole), situation)  # fmt: skip
            kept = self._spots.get(spot)
            if kept is not None:
                self._spots.move_to_end(spot)
                return kept.model_copy(
                    update={
                        "request_id": query.request_id,
                        "advice": kept.advice if query.want_advice else None,
                    }
                )
        players = [obs.player_id(i) for i in range(obs.n)]
        if self._sync is not None:
            self._sync.refresh(players, self._book.players.update)
        if query.purpose is QueryPurpose.REVIEW:
            bot = self._review_bot(style, players)
            budget = min(budget, REVIEW_SECONDS)
        else:
            self._book.ingest(obs.hand_key, players, obs.history, obs.bet_units, obs.limit)
            bot = self.bot_for(query.table_id, query.seat, style)
            if query.purpose is not QueryPurpose.BOT:
                budget = min(budget, self.advice_seconds)
        # Tournaments: short-stacked push/fold spots play the equilibrium in prize equity.
        icm = query.tournament is not None and plays_for_money(style)
        tour = tournament_decision(obs, query) if icm else None
        bot.deadline = time.monotonic() + budget
        try:
            decision = bot.decide(obs) if tour is None else tour.decision
        finally:
            bot.deadline = None
        if tour is None and icm:  # an all-in call, else any decision, valued by ICM
            tour = icm_call(obs, query, decision) or icm_actions(obs, query, decision)
            decision = decision if tour is None else tour.decision
        if query.purpose is QueryPurpose.REVIEW and self._yielding():
            return DecisionDecline(request_id=query.request_id, reason=REVIEW_YIELDED)
        if not decision.is_legal(obs.legal):  # pragma: no cover - the sizing helpers prevent it
            log.error("query %s: %s proposed an illegal %s", query.request_id, style, decision)
            return safe_answer(query, "the bot proposed an illegal action")
        action = decision.to_action()
        # Advice is built for a kept spot even when not asked for: a later question on the
        # same spot may want it.
        want = query.want_advice or spot is not None
        advice = build_advice(obs, decision, bot, self._model) if want else None
        if advice is not None and query.tournament is not None:
            advice = with_prize_equity(advice, obs, query, tour)
        answer = DecisionAnswer(
            request_id=query.request_id, action=action.kind, amount=action.amount, advice=advice
        )
        if spot is not None:
            self._spots[spot] = answer
            while len(self._spots) > MAX_SPOTS:
                self._spots.popitem(last=False)
            if not query.want_advice:
                answer = answer.model_copy(update={"advice": None})
        return answer

    def hand_ended(self, message: HandEnded) -> int:
        """Show a finished hand to the bots of its table that were dealt into it, as the
        arena does (`Bot.hand_over`): the statistics count its last actions, the search
        bots read the shown cards (`ai.search.reliability`) and the answers to their bets.
        Returns how many bots saw it.

        Only the public hand is read (`ai.models.public`: events, never `hole_cards`), so
        a card nobody showed cannot reach a bot even if a record carried it.
        """
        with self._lock:
            return self._hand_ended(message.record)

    def _hand_ended(self, record: HandRecord) -> int:
        bots = self.bots_at(record.table_id)
        if not bots:  # a table this lane never served: its players stay unknown here
            return 0
        hand = from_record_doc(record.model_dump(mode="json"))
        net = record.net
        try:
            key = (record.table_id, record.hand_no)  # as the live Observation's hand_key
            summary = summary_of(hand, key, [net[seat] for seat in hand.seats])
        except ValueError as error:
            log.warning("hand %s does not replay (%s): not learned from", hand.key, error)
            return 0
        rules = Rules.of(hand.config)
        self._book.ingest(
            summary.hand_key, summary.players, summary.history, rules.min_increment, rules.is_limit
        )
        index = {seat: i for i, seat in enumerate(hand.seats)}
        dealt = [(index[seat], bot) for seat, bot in bots if seat in index]
        for me, bot in dealt:
            bot.hand_over(summary, me)
        return len(dealt)

    def bots_at(self, table_id: str) -> list[tuple[int, Bot]]:
        """(seat, bot) for every bot kept for the table (one per seat and style)."""
        return [(seat, bot) for (table, seat, _), bot in self._bots.items() if table == table_id]

    def _review_bot(self, style: str, players: list[str]) -> Bot:
        """The advisor for a past hand's decision: it reads the players' statistics as they
        are now, from a copy, so replaying an old hand counts nothing twice and leaves the
        live bots (their statistics, their kept trees) as they were."""
        book = self._review_book
        book.players.clear()
        book.players.update({p: copy.deepcopy(self._book.peek(p)) for p in players})
        bot = self._review_bots.get(style)
        if bot is None:
            # Decisions arrive in any order, from any hand: no tree is kept between them;
            # the search stops when a live query waits. Never evicted, never shared.
            settings = BotSettings(
                explain=True, book=book, keep_tree=False, clock=self._review_clock
            )
            bot = self._review_bots[style] = make_bot(style, 0, settings)
        return bot

    def _yielding(self) -> bool:
        return self._yield is not None and self._yield.is_set()

    def _review_clock(self) -> float:
        """The time, or infinity (past any deadline) once a live query waits."""
        return math.inf if self._yielding() else time.monotonic()

    def _style(self, query: DecisionQuery) -> str:
        if query.purpose is not QueryPurpose.BOT or not query.style:
            return ADVISOR_STYLE
        try:
            return canonical_style(query.style)
        except KeyError:
            log.warning("unknown style %r: playing %s", query.style, FALLBACK_STYLE)
            return FALLBACK_STYLE


def safe_answer(query: DecisionQuery, why: str) -> DecisionAnswer:
    """Check if free, else fold: never illegal, never costly (the table's timeout policy)."""
    legal: LegalActions = query.legal
    kind = ActionKind.CHECK if legal.can_check else ActionKind.FOLD
    advice = None
    if query.want_advice:
        advice = Advice(action=kind, reason=f"{kind.value.capitalize()}: {why}")
    return DecisionAnswer(request_id=query.request_id, action=kind, advice=advice)


# -- process-pool entry points (module level so they pickle) -------------------------

_DECIDER: Decider | None = None


def init_process(yield_flag: YieldFlag | None = None) -> None:
    """Load tables and compile the numba kernels before the first query arrives."""
    global _DECIDER
    _DECIDER = Decider(os.environ.get("MONGODB_URL", ""), yield_flag)
    warm_up()


def answer_json(query_json: str, budget: float) -> str:
    global _DECIDER
    if _DECIDER is None:
        _DECIDER = Decider(os.environ.get("MONGODB_URL", ""))
    query = DecisionQuery.model_validate_json(query_json)
    return _DECIDER.answer(query, budget).model_dump_json()


def hand_ended_json(message_json: str) -> int:
    """`Decider.hand_ended` in this process (the lane of the hand's table)."""
    global _DECIDER
    if _DECIDER is None:
        _DECIDER = Decider(os.environ.get("MONGODB_URL", ""))
    return _DECIDER.hand_ended(HandEnded.model_validate_json(message_json))


def load_priors() -> None:
    """The blueprints the search stands on, loaded and reduced to their tables (a few
    seconds each, cached per process) before the first query rather than inside it."""
    from ai.policy.blueprint import NotCovered
    from ai.search.blueprint_prior import blueprint_shares, nway_prior, sixmax_prior
    from ai.search.overbet_prior import blueprint_exponents
    from ai.search.rollout_blueprint import pack

    blueprint_shares()
    pack("limit-hu")
    for game in ("nolimit-hu", "limit-3max"):
        try:
            nway_prior(game)
            pack(game)  # our later play in the search's simulations
            if game == "nolimit-hu":
                blueprint_exponents()  # the prior of how players answer our overbets
        except NotCovered:  # an artefact not shipped: the search falls back to the model
            log.warning("no %s blueprint to warm up", game)
    try:
        sixmax_prior()  # No-Limit tables of three to six (its seats mapped per table)
    except NotCovered:
        log.warning("no nolimit-6max blueprint to warm up")


def warm_up() -> None:
    """One quick decision per code path (preflop table, Monte Carlo, ranges, rollouts),
    and the blueprints' priors (`load_priors`)."""
    load_priors()
    from ai.game.observation import ActionRecord
    from ai.game.observe import apply, observe
    from ai.sim.state import SimState
    from holdem.config import TableConfig, Variant

    config = TableConfig(variant=Variant.LIMIT, seats=3, small_blind=1, big_blind=2)
    state = SimState.new_hand(config, {1: 100, 2: 100, 3: 100}, button=3, seed=1)
    bot = PokiBot(1, rollouts=20)
    history: list[ActionRecord] = []
    while not state.over:
        obs = observe(state, history, "warm-up")
        decision = (
            bot.decide(obs) if obs.street else Decision(CALL if obs.legal.can_call else CHECK)
        )
        apply(state, decision, history, obs)
    # The advisor's search (advice, reviews): compiled here, not within a query's budget,
    # where it would leave the first advice of each process with no searched values.
    config = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
    state = SimState.new_hand(config, {1: 200, 2: 200}, button=2, seed=1)
    advisor = make_mcts(1, ADVISOR_STYLE.removeprefix("mcts-"), iterations=64)
    advisor.decide(observe(state, [], "warm-up"))
