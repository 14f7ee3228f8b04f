"""AI workers serve the whole cluster: a query no worker here can take goes over the bus.

Workers keep connecting to a node's `/ws/ai` socket (the AI gateway: deadlines,
quarantine, re-sending, fallback, all unchanged). A node with a worker that can take
a query (connected, not quarantined) joins the NATS queue group `ai` on `ai.decide`;
a node with none leaves it. A node whose gateway has no such worker sends the bot's
DecisionQuery there as a request: NATS hands it to one node of the group, whose
gateway decides as for its own tables (its workers, their deadlines and quarantines,
its fallback if they fail) within the query's time less a margin for the hops,
and answers the decision. No answer in time (the node died, no node in the group)
and the asking node's fallback policy decides, at the deadline as before.

- `ai.review` (the same queue group): a hand review's decision (`review()`) asked on
  a node with no worker at all; the serving node's review queue takes it (reviews
  never delay live queries there either).
- `ai.workers`: each node's count of workers able to take a query, on change and
  every WORKERS_HEARTBEAT seconds; a node asks over the bus only while another
  node announced one in the last ALIVE_FOR seconds (else its fallback acts at once,
  with no round trip, as for one process without workers).
- `ai.hands`: a node that relays (no worker of its own) publishes its finished hands
  (HandEnded, as a spectator saw them) for the other nodes' workers, so a worker
  learns from the hands of every table it plays at; a node with its own workers
  keeps its hands to them (no traffic for hands no other worker plays).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any

from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from pydantic import ValidationError

from backend.ai_gateway import AIGateway, Decision, ReviewUnavailable
from backend.cluster.bus import Bus, NoOwner, dumps, loads
from holdem.actions import Action
from protocol.messages import Advice, AdviceSource, DecisionQuery

log = logging.getLogger(__name__)

DECIDE_SUBJECT = "ai.decide"
REVIEW_SUBJECT = "ai.review"
# A relayed review waits in the serving node's review queue for an idle worker, then
# up to REVIEW_TRIES workers' REVIEW_TIMEOUT each: past this, nobody reviews it.
REVIEW_WAIT = 120.0
WORKERS_SUBJECT = "ai.workers"
HANDS_SUBJECT = "ai.hands"
QUEUE = "ai"  # the queue group: one node with workers takes each query
CHECK_EVERY = 0.2  # seconds between checks of this node's workers (join or leave the group)
WORKERS_HEARTBEAT = 1.0
ALIVE_FOR = 3.0
# Of the query's time, the share left to the bus hops and the reply (within bounds):
# a loaded host delays each hop by tens of ms, and a reply after the asking node's
# deadline is wasted (its fallback has decided).
RELAY_SHARE = 0.1
RELAY_MARGIN = (0.03, 0.25)  # seconds, at least and at most
MIN_TIME = 0.05


def margin(seconds: float) -> float:
    """The time a relayed query leaves to the bus, of `seconds` in all."""
    low, high = RELAY_MARGIN
    return min(high, max(low, seconds * RELAY_SHARE))


def encode(decision: Decision) -> bytes:
    advice = decision.advice
    return dumps(
        {
            "action": decision.action.model_dump(mode="json"),
            "advice": advice.model_dump(mode="json") if advice is not None else None,
            "source": decision.source.value,
            "worker_id": decision.worker_id,
            "fallback_reason": decision.fallback_reason,
        }
    )


def decode(data: bytes) -> Decision:
    body = loads(data)
    advice = body.get("advice")
    return Decision(
        action=Action.model_validate(body["action"]),
        advice=Advice.model_validate(advice) if advice is not None else None,
        source=AdviceSource(body["source"]),
        worker_id=body.get("worker_id"),
        fallback_reason=body.get("fallback_reason"),
    )


class AIRelay:
    """Both sides: asks other nodes' workers for this node, serves its workers to them."""

    def __init__(self, bus: Bus, gateway: AIGateway, node_id: str) -> None:
        self._bus = bus
        self._gateway = gateway
        self._node_id = node_id
        self._heard: dict[str, tuple[int, float]] = {}  # node -> (workers, monotonic seen)
        self._serving: list[Subscription] = []
        self._announced = -1
        self._announced_at = 0.0
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.served = 0  # queries this node decided for other nodes

    async def start(self) -> None:
        await self._bus.subscribe(WORKERS_SUBJECT, self._workers_heard)
        await self._bus.subscribe(HANDS_SUBJECT, self._hand_heard)
        self._gateway.remote = self
        self._task = asyncio.create_task(self._watch(), name="cluster-ai")

    async def close(self) -> None:
        self._gateway.remote = None
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self._leave()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # -- asking (RemoteWorkers) ----------------------------------------------------------

    def elsewhere(self) -> int:
        """Workers able to take a query on the other live nodes, as they announced."""
        cutoff = time.monotonic() - ALIVE_FOR
        return sum(n for n, seen in self._heard.values() if seen >= cutoff)

    def available(self) -> bool:
        return self.elsewhere() > 0

    async def decide(self, query: DecisionQuery, time_limit: float) -> Decision | None:
        try:
            reply = await self._bus.request(
                DECIDE_SUBJECT, query.model_dump_json().encode(), within=time_limit
            )
            return decode(reply)
        except NoOwner:
            log.info("no node answered a relayed query", extra={"request_id": query.request_id})
        except (ValidationError, ValueError, KeyError) as error:
            log.warning("bad relayed decision", extra={"error": str(error)[:200]})
        return None

    async def review(self, query: DecisionQuery) -> Advice:
        try:
            reply = loads(
                await self._bus.request(
                    REVIEW_SUBJECT, query.model_dump_json().encode(), within=REVIEW_WAIT
                )
            )
        except NoOwner as error:
            raise ReviewUnavailable("no AI worker answered this review") from error
        if "error" in reply:
            raise ReviewUnavailable(str(reply["error"]))
        return Advice.model_validate(reply["advice"])

    def share_hand(self, text: str) -> None:
        if self.available():
            self._spawn(self._bus.publish(HANDS_SUBJECT, self._tagged(text)))

    def _tagged(self, text: str) -> bytes:
        return dumps({"node": self._node_id, "text": text})

    # -- serving -------------------------------------------------------------------------

    async def _watch(self) -> None:
        while True:
            try:
                await self._check()
            except Exception as error:  # the bus is away: the next round tries again
                log.warning("AI relay check failed", extra={"error": str(error)[:200]})
            await asyncio.sleep(CHECK_EVERY)  # a period, not a synchronisation

    async def _check(self) -> None:
        """Join the queue group while a worker here can take a query; leave it if not."""
        able = self._gateway.can_take()
        if able and not self._serving:
            self._serving = [
                await self._bus.subscribe(DECIDE_SUBJECT, self._query, queue=QUEUE),
                await self._bus.subscribe(REVIEW_SUBJECT, self._review_asked, queue=QUEUE),
            ]
        elif not able:
            await self._leave()
        workers = self._gateway.worker_count if able else 0
        now = time.monotonic()
        if workers != self._announced or now - self._announced_at >= WORKERS_HEARTBEAT:
            body = {"node": self._node_id, "workers": workers}
            await self._bus.publish(WORKERS_SUBJECT, dumps(body))
            self._announced, self._announced_at = workers, now

    async def _leave(self) -> None:
        subs, self._serving = self._serving, []
        for sub in subs:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()

    async def _query(self, msg: Msg) -> None:
        # A subscription's messages are handled one after another: each query gets its
        # own task, or one slow worker would hold every other node's queries.
        self._spawn(self._answer(msg))

    async def _answer(self, msg: Msg) -> None:
        try:
            query = DecisionQuery.model_validate_json(msg.data)
        except ValidationError as error:
            log.warning("bad relayed query", extra={"error": str(error)[:200]})
            return
        time_limit = max(MIN_TIME, query.timeout_ms / 1000 - margin(query.timeout_ms / 1000))
        decision = await self._gateway.decide(
            purpose=query.purpose,
            view=query.view,
            legal=query.legal,
            style=query.style,
            time_limit=time_limit,
            tournament=query.tournament,
            local_only=True,
        )
        self.served += 1
        await msg.respond(encode(decision))

    async def _review_asked(self, msg: Msg) -> None:
        self._spawn(self._review_answer(msg))

    async def _review_answer(self, msg: Msg) -> None:
        try:
            query = DecisionQuery.model_validate_json(msg.data)
        except ValidationError as error:
            log.warning("bad relayed review", extra={"error": str(error)[:200]})
            return
        try:
            advice = await self._gateway.review(query.view, query.legal, local_only=True)
        except ReviewUnavailable as error:
            await msg.respond(dumps({"error": str(error)}))
            return
        self.served += 1
        await msg.respond(dumps({"advice": advice.model_dump(mode="json")}))

    async def _workers_heard(self, msg: Msg) -> None:
        body = loads(msg.data)
        node = str(body["node"])
        if node != self._node_id:
            self._heard[node] = (int(body["workers"]), time.monotonic())

    async def _hand_heard(self, msg: Msg) -> None:
        body = loads(msg.data)
        if body.get("node") != self._node_id and isinstance(body.get("text"), str):
            self._gateway.hand_text(str(body["text"]))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
