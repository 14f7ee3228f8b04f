"""The wire protocol: every JSON message between the server, its clients and AI workers.

Two WebSocket endpoints, four directions, each a union discriminated on "type":

- `/ws/tables/{table_id}`: `ClientMessage` (browser -> server) and `ServerMessage`
  (server -> browser). After every change each client gets a `StateMessage`
  carrying its own `TableView` (built by `holdem.views.observe`, never anything
  else) and a per-table sequence number that only grows.
- `/ws/ai`: `WorkerMessage` (AI worker -> server) and `GatewayMessage`
  (server -> AI worker): request_id-tagged decision queries and their answers.

docs/protocol.md explains the conversation; docs/protocol.schema.json is generated
from these models (`python -m protocol --write docs/protocol.schema.json`,
or `--check` to verify it is current). Changes must stay backward compatible:
add optional fields, never rename or remove.

>>> msg = parse_client_message('{"type": "act", "action": "raise", "amount": 600}')
>>> (msg.type, msg.action.value, msg.amount)
('act', 'raise', 600)
"""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, RootModel, TypeAdapter, ValidationError
from pydantic_core import from_json

from holdem.actions import Action, ActionKind, LegalActions
from holdem.config import MAX_RUNS, Straddle
from holdem.history import HandRecord
from holdem.views import TableView
from holdem.wire_enum import WireEnum

PROTOCOL_VERSION = 1

# The bot styles a table may seat. The AI worker plays exactly these
# (ai/bots/registry.py; a test keeps the lists equal, and the web client's too).
BotStyle = Literal[
    "mcts",
    "aggressive",
    "cautious",
    "rational",
    "always-raise",
    "calling-station",
    "always-fold",
    "random",
    "loki",
    "poki",
    "blueprint",
]
BOT_STYLES: tuple[BotStyle, ...] = get_args(BotStyle)
DEFAULT_BOT_STYLE: BotStyle = "rational"

MAX_REF_LENGTH = 64
Ref = Annotated[
    str | None,
    Field(max_length=MAX_REF_LENGTH, description="Client-chosen id echoed in the reply"),
]


class CloseCode(IntEnum):
    """WebSocket close codes the server uses."""

    NORMAL = 1000
    GOING_AWAY = 1001
    POLICY = 1008  # bad origin, bad credentials, flooding
    TOO_BIG = 1009  # a message over the size limit
    INTERNAL = 1011
    TRY_AGAIN = 1013  # a client too slow to keep up with its messages; reconnect
    REPLACED = 4000  # the same player opened a newer connection to this table
    UNKNOWN_TABLE = 4004
    # The table is served by another node; the reason is its address (http://host:port).
    # Only to a client that asked to follow moves (`?follow=1`): it opens the same path
    # there, and reconnects later where it first connected (a failover moves the table).
    MOVED = 4010


class ErrorCode(WireEnum):
    """Stable `code`s of ErrorMessage. Rule errors use the code of holdem.errors."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    TOO_BIG = "too_big"
    RATE_LIMITED = "rate_limited"
    UNAUTHORIZED = "unauthorized"
    NOT_SEATED = "not_seated"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"
    ADVICE_DISABLED = "advice_disabled"
    AI_BUSY = "ai_busy"
    ADVICE_LIMITED = "advice_limited"  # the player's advice budget is spent for now
    UNKNOWN_TABLE = "unknown_table"  # no such table: the socket is closed with 4004
    NOT_HOST = "not_host"  # a host's command from anyone but the table's host
    HAND_IN_PROGRESS = "hand_in_progress"  # a host's command that waits for the hand's end
    NO_SUCH_REQUEST = "no_such_request"  # approve/reject: nobody asked for a seat


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# -- browser -> server -----------------------------------------------------------


class AuthMessage(_Message):
    """The first message on a table socket: the access token (never in the URL)."""

    type: Literal["auth"] = "auth"
    token: str = Field(max_length=4096)
    last_seq: int | None = Field(default=None, description="Last seq seen, when reconnecting")
    invite: str | None = Field(
        default=None,
        max_length=64,
        description="A private table's invite token (from its link): needed to open it "
        "unless you are one of its players",
    )


class SitCommand(_Message):
    type: Literal["sit"] = "sit"
    ref: Ref = None
    seat: int = Field(ge=1, le=10)
    buy_in: int = Field(ge=1)


class StandCommand(_Message):
    """Leave the seat with the stack (mid-hand: fold when your turn comes, leave at the end)."""

    type: Literal["stand"] = "stand"
    ref: Ref = None


class SitOutCommand(_Message):
    type: Literal["sit_out"] = "sit_out"
    ref: Ref = None


class SitBackCommand(_Message):
    type: Literal["sit_back"] = "sit_back"
    ref: Ref = None


class RebuyCommand(_Message):
    """Add chips between hands: a rebuy after busting or a top-up to the maximum buy-in."""

    type: Literal["rebuy"] = "rebuy"
    ref: Ref = None
    amount: int = Field(ge=1)


class ActCommand(_Message):
    """Fold, check, call, or bet/raise to `amount` (the street total, as in LegalActions)."""

    type: Literal["act"] = "act"
    ref: Ref = None
    action: ActionKind
    amount: int | None = Field(default=None, ge=0)
    seat: int | None = Field(default=None, description="Optional: must be your own seat")
    hand_no: int | None = Field(
        default=None, description="Optional guard: rejected as stale if another hand is on"
    )

    def to_action(self) -> Action:
        return Action(kind=self.action, amount=self.amount)


class AdviceRequest(_Message):
    """Ask the AI what it would do in your spot; nothing is applied (if the table allows)."""

    type: Literal["advice"] = "advice"
    ref: Ref = None


class AIDecideCommand(_Message):
    """Let the AI take this decision for your seat; you also receive its advice."""

    type: Literal["ai_decide"] = "ai_decide"
    ref: Ref = None


class ChatCommand(_Message):
    type: Literal["chat"] = "chat"
    ref: Ref = None
    text: str = Field(min_length=1, max_length=500)


class ShowCommand(_Message):
    """Show the cards that won the last hand uncalled (before the next deal); default: muck."""

    type: Literal["show"] = "show"
    ref: Ref = None


class ShowUncalledCommand(_Message):
    """A standing choice at this table: show your cards whenever you win uncalled."""

    type: Literal["show_uncalled"] = "show_uncalled"
    ref: Ref = None
    enabled: bool


class SyncRequest(_Message):
    """Ask for the full current state again (e.g. after a gap in seq)."""

    type: Literal["sync"] = "sync"
    ref: Ref = None
    last_seq: int | None = None


class PingMessage(_Message):
    type: Literal["ping"] = "ping"
    ref: Ref = None


# -- the host's commands (refused with not_host from anyone else) -------------------


class PauseCommand(_Message):
    """Pause the game: no hand is dealt until resumed (a hand in progress is played out)."""

    type: Literal["pause"] = "pause"
    ref: Ref = None


class ResumeCommand(_Message):
    type: Literal["resume"] = "resume"
    ref: Ref = None


class RemoveCommand(_Message):
    """Remove the player or bot in `seat`: now between hands, else at the hand's end; its
    chips are cashed out to its ledger."""

    type: Literal["remove"] = "remove"
    ref: Ref = None
    seat: int = Field(ge=1, le=10)


class AdjustCommand(_Message):
    """Add chips to (or take them from) a seat's stack between hands: a ledger entry."""

    type: Literal["adjust"] = "adjust"
    ref: Ref = None
    seat: int = Field(ge=1, le=10)
    amount: int = Field(ge=-1_000_000_000, le=1_000_000_000, description="not 0")


class AddBotCommand(_Message):
    """Seat a bot of `style` in an empty seat, bought in for the maximum."""

    type: Literal["add_bot"] = "add_bot"
    ref: Ref = None
    seat: int = Field(ge=1, le=10)
    style: BotStyle = DEFAULT_BOT_STYLE


class BotStyleCommand(_Message):
    """The bot in `seat` plays `style` from its next decision."""

    type: Literal["bot_style"] = "bot_style"
    ref: Ref = None
    seat: int = Field(ge=1, le=10)
    style: BotStyle


class TableSettingsCommand(_Message):
    """Change the stakes and settings from the next hand; omitted fields stay as they are."""

    type: Literal["table_settings"] = "table_settings"
    ref: Ref = None
    small_blind: int | None = Field(default=None, ge=1, le=1_000_000_000)
    big_blind: int | None = Field(default=None, ge=1, le=1_000_000_000)
    ante: int | None = Field(default=None, ge=0, le=1_000_000_000)
    time_bank: float | None = Field(default=None, ge=0, le=3600)
    advice_allowed: bool | None = None
    approve_seats: bool | None = Field(
        default=None, description="a seat is taken only once the host approves the request"
    )
    big_blind_ante: bool | None = None
    # Home-game rules (#34); None: unchanged.
    straddle: Straddle | None = None
    run_it_max: int | None = Field(default=None, ge=1, le=MAX_RUNS)
    rabbit_hunt: bool | None = None
    bomb_pot_ante: int | None = Field(default=None, ge=0, le=1_000_000_000)
    bomb_pot_every: int | None = Field(default=None, ge=0, le=1000)


class ApproveCommand(_Message):
    """Approve a player's seat request: they sit with the buy-in they asked for."""

    type: Literal["approve"] = "approve"
    ref: Ref = None
    player_id: str = Field(max_length=64)


class RejectCommand(_Message):
    type: Literal["reject"] = "reject"
    ref: Ref = None
    player_id: str = Field(max_length=64)


class HandOverCommand(_Message):
    """Hand the host's role to another player at the table (seated, or watching)."""

    type: Literal["hand_over"] = "hand_over"
    ref: Ref = None
    player_id: str = Field(max_length=64)


class BombPotCommand(_Message):
    """The host calls a bomb pot for the next hand (the table's bomb pot ante from every seat)."""

    type: Literal["bomb_pot"] = "bomb_pot"
    ref: Ref = None


class RunoutsCommand(_Message):
    """All-in before the river at a table that runs it more than once: the runs you want.
    The board is run more than once only if every player asked agrees."""

    type: Literal["runouts"] = "runouts"
    ref: Ref = None
    runs: int = Field(ge=1, le=MAX_RUNS, description="1: run it once (no)")


class RabbitHuntCommand(_Message):
    """After a hand that ended early: show everyone the cards that would have come."""

    type: Literal["rabbit_hunt"] = "rabbit_hunt"
    ref: Ref = None


class StraddleCommand(_Message):
    """Your standing choice: straddle whenever the straddle position reaches your seat."""

    type: Literal["straddle"] = "straddle"
    ref: Ref = None
    enabled: bool


# The commands only the table's host may give (backend.realtime.hosting checks who).
HostCommand = (
    PauseCommand
    | ResumeCommand
    | RemoveCommand
    | AdjustCommand
    | AddBotCommand
    | BotStyleCommand
    | TableSettingsCommand
    | ApproveCommand
    | RejectCommand
    | HandOverCommand
    | BombPotCommand
)


ClientCommand = Annotated[
    SitCommand
    | StandCommand
    | SitOutCommand
    | SitBackCommand
    | RebuyCommand
    | ActCommand
    | AdviceRequest
    | AIDecideCommand
    | ChatCommand
    | ShowCommand
    | ShowUncalledCommand
    | SyncRequest
    | PingMessage
    | AuthMessage
    | HostCommand
    | RunoutsCommand
    | RabbitHuntCommand
    | StraddleCommand,
    Field(discriminator="type"),
]


class ClientMessage(RootModel[ClientCommand]):
    """Any message a browser may send on /ws/tables/{table_id}."""


# -- shared: advice --------------------------------------------------------------


class ActionValue(_Message):
    """The AI's estimate of one candidate action, in big blinds (positive = profit)."""

    action: ActionKind
    amount: int | None = None
    value_bb: float
    stderr_bb: float | None = Field(
        default=None, ge=0, description="standard error of value_bb (0 for an exact value)"
    )
    share: float | None = Field(
        default=None, ge=0, le=1, description="the action's share of the search's iterations"
    )
    prize_equity: float | None = Field(
        default=None,
        ge=0,
        description="tournaments: the expected prize after this action (ICM), in the "
        "prize table's units; None at cash tables or where it was not estimated",
    )


class OpponentRead(_Message):
    """What the AI believes about one opponent; statistics are shares in 0..1."""

    seat: int
    label: str = Field(default="", max_length=64, description='e.g. "loose-aggressive"')
    vpip: float | None = None
    pfr: float | None = None
    aggression: float | None = None
    fold_to_bet: float | None = None
    note: str = Field(default="", max_length=200)
    hands: int | None = Field(default=None, ge=0, description="stored hands the read rests on")
    predicted: list[float] | None = Field(
        default=None,
        min_length=3,
        max_length=3,
        description="the opponent model's fold, check/call, bet/raise probabilities if this "
        "opponent were to act now",
    )
    range_grid: list[list[float]] | None = Field(
        default=None,
        description="the opponent's range as 13x13 weights 0..1 (rows and columns A..2; "
        "suited above the diagonal, offsuit below, pairs on it)",
    )


class Advice(_Message):
    """The AI's recommendation and its reasoning, shown to the player who asked."""

    action: ActionKind
    amount: int | None = None
    values: list[ActionValue] = Field(default_factory=list, max_length=16)
    equity: float | None = Field(default=None, ge=0, le=1)
    ehs: float | None = Field(default=None, ge=0, le=1, description="Effective hand strength")
    opponents: list[OpponentRead] = Field(default_factory=list, max_length=10)
    reason: str = Field(default="", max_length=300)
    # The runner-up whose value's 95% interval overlaps the recommended action's: a close
    # call between the two, shown as such (None: the recommendation is clear).
    close_call: ActionValue | None = None
    prize_equity: float | None = Field(
        default=None, ge=0, description="tournaments: our stack's prize equity now (ICM)"
    )


# -- server -> browser ------------------------------------------------------------


class ChangeKind(WireEnum):
    SIT = "sit"
    STAND = "stand"
    SIT_OUT = "sit_out"
    SIT_BACK = "sit_back"
    REBUY = "rebuy"
    ACT = "act"
    HAND_START = "hand_start"
    RESTORE = "restore"  # the table was loaded again after a server restart
    SHOW = "show"  # the winner of an uncalled pot showed their cards after the hand
    # The host's (by "host"; HOST also when the role passes on by itself, by "table"):
    SEAT_REQUEST = "seat_request"  # a player asks for a seat (seat, amount: the buy-in)
    SEAT_REJECTED = "seat_rejected"
    REMOVE = "remove"  # the host removed the seat's player or bot (stack: what it left with)
    PAUSE = "pause"
    RESUME = "resume"
    SETTINGS = "settings"  # the stakes or settings change from the next hand (note says how)
    BOT_STYLE = "bot_style"
    ADJUST = "adjust"  # amount: added (negative: taken); stack: the stack it made
    HOST = "host"  # player_id: the new host
    # Home-game rules (#34):
    RUNOUT_VOTE = "runout_vote"  # seat asked for `amount` runs (1: once); by "timer" if silent
    RABBIT_HUNT = "rabbit_hunt"  # the seat hunted the rabbit: the view's `rabbit` shows it
    BOMB_POT = "bomb_pot"  # the host called a bomb pot for the next hand
    STRADDLE = "straddle"  # the seat's straddle choice (amount 1: on, 0: off)


class ActedBy(WireEnum):
    PLAYER = "player"
    AI = "ai"  # "Let AI decide": the table is told the AI took the decision
    BOT = "bot"
    TIMER = "timer"  # the decision timed out: check if possible, else fold
    TABLE = "table"  # house rules (e.g. sat out after repeated timeouts)
    HOST = "host"  # the table's host


class Change(_Message):
    """What caused a state message (None for a resync)."""

    kind: ChangeKind
    seat: int | None = None
    player_id: str | None = None
    action: Action | None = None
    by: ActedBy = ActedBy.PLAYER
    note: str = ""
    amount: int | None = Field(
        default=None, description='rebuy: the chips added (a bot\'s rebuy is by "bot")'
    )
    stack: int | None = Field(
        default=None,
        description="rebuy: the seat's stack after it; stand: the chips the player left with",
    )
    top_up: bool | None = Field(
        default=None, description="rebuy: true for a top-up, false for a rebuy after busting"
    )


class TurnClock(_Message):
    """The actor's clock; times are server epoch milliseconds."""

    seat: int
    started_at: float
    deadline: float
    action_timeout_ms: int
    time_bank_ms: int = Field(description="The actor's time bank before this decision")


class Limits(_Message):
    max_message_bytes: int
    messages_per_second: float
    burst: int


class WelcomeMessage(_Message):
    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    table_id: str
    player_id: str
    name: str
    seat: int | None
    seq: int
    resync: bool = Field(description="True when the client reconnected with a last_seq")
    missed: int | None = Field(description="Changes since last_seq (the state follows)")
    limits: Limits


class SeatRequest(_Message):
    player_id: str
    name: str
    seat: int
    buy_in: int


class HostState(_Message):
    """Who runs the table and what they set: the same for everyone at the table."""

    host_id: str | None
    paused: bool = Field(description="the host paused the game: no hand is dealt")
    approve_seats: bool = Field(description="seat requests wait for the host's approval")
    seat_requests: list[SeatRequest] = Field(default_factory=list)


class TournamentElimination(BaseModel):
    player_id: str
    name: str
    place: int
    prize: int


class TournamentView(BaseModel):
    """The tournament a table belongs to, as every player at it sees it: the clock
    banner (level, stakes, time to the next level or the break's end) and the field."""

    tournament_id: str
    name: str
    status: str = Field(description="registering, running or finished")
    level: int = Field(description="1 for the first level")
    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    seconds_to_next: float | None = Field(
        default=None, description="play seconds to the next level (or the break's end)"
    )
    on_break: bool = False
    hand_for_hand: bool = False
    final_table: bool = False
    players_left: int
    entrants: int
    paid_places: int
    average_stack: int = 0
    eliminations: list[TournamentElimination] = Field(
        default_factory=list, description="the latest knock-outs, newest last"
    )
    rebuy_open: bool = Field(default=False, description="the rebuy period is on")
    add_on_open: bool = Field(default=False, description="the add-on may be taken")


class StateMessage(_Message):
    type: Literal["state"] = "state"
    seq: int
    at: float = Field(description="Server epoch milliseconds of the change")
    table_id: str
    view: TableView
    clock: TurnClock | None = None
    cause: Change | None = None
    host: HostState | None = None
    tournament: TournamentView | None = None
    runout_deadline: float | None = Field(
        default=None,
        description="all-in run-it-twice vote: server epoch ms when unanswered votes count as once",
    )


class ErrorMessage(_Message):
    type: Literal["error"] = "error"
    code: str
    message: str
    ref: Ref = None


class ChatMessage(_Message):
    type: Literal["chat"] = "chat"
    seq: int
    at: float
    player_id: str
    name: str
    seat: int | None
    text: str
    history: bool = Field(
        default=False, description="sent on joining: one of the table's last chat messages"
    )


class AdviceSource(WireEnum):
    WORKER = "worker"
    FALLBACK = "fallback"  # no worker answered in time: the built-in policy


class AdviceMessage(_Message):
    """The AI's advice, to the requester only; `applied` when it came from "Let AI decide"."""

    type: Literal["advice"] = "advice"
    ref: Ref = None
    hand_no: int
    seat: int
    advice: Advice
    source: AdviceSource
    applied: bool


class PongMessage(_Message):
    type: Literal["pong"] = "pong"
    ref: Ref = None
    at: float


class NoticeMessage(_Message):
    """The table paused or resumed, sent to everyone connected when it happens."""

    type: Literal["notice"] = "notice"
    paused: bool
    reason: str | None = Field(
        default=None,
        description='Why it is paused: "database" (changes cannot be stored yet); None on resuming',
    )
    message: str = Field(description="For people: what is happening")
    at: float


class StatsMessage(_Message):
    """The players' statistics changed: a HUD showing them fetches them again. Sent to
    everyone connected, once the hands are counted (after the hand's end was shown:
    counting never holds up the table). A table also hears of the hands its seated
    players played at other tables, with `hand_no` null."""

    type: Literal["stats"] = "stats"
    hand_no: int | None = Field(
        ge=1,
        description="The table's latest hand counted; null when only hands played at "
        "other tables were",
    )
    player_ids: list[str] = Field(
        description="Whose statistics changed: the hands' players, and this table's "
        "seated players among those of other tables' hands"
    )
    at: float


ServerEvent = Annotated[
    WelcomeMessage
    | StateMessage
    | ErrorMessage
    | ChatMessage
    | AdviceMessage
    | PongMessage
    | NoticeMessage
    | StatsMessage,
    Field(discriminator="type"),
]


class ServerMessage(RootModel[ServerEvent]):
    """Any message the server sends on /ws/tables/{table_id}."""


# -- AI worker -> server -------------------------------------------------------------


class WorkerHello(_Message):
    """The first message on /ws/ai; a wrong secret closes the socket with 1008."""

    type: Literal["hello"] = "hello"
    secret: str = Field(max_length=512)
    name: str = Field(default="", max_length=64)
    capacity: int = Field(default=4, ge=1, le=256, description="Queries handled at once")
    protocol: int = PROTOCOL_VERSION


class DecisionAnswer(_Message):
    """The answer to a DecisionQuery; advice is required for ai_decide and advice queries."""

    type: Literal["decision"] = "decision"
    request_id: str = Field(max_length=64)
    action: ActionKind
    amount: int | None = Field(default=None, ge=0)
    advice: Advice | None = None


# Reasons a worker gives in a DecisionDecline that the gateway acts on.
# A review stopped because a live query needed its lane: asked again, no failed try.
DECLINE_YIELDED = "yielded to a live query"
# The query's lane did not finish it in time (ai.worker.client): for a review, the lane
# was busy with live work, which is no fault of the review; asked again, no failed try.
DECLINE_TIMEOUT = "timeout"


class DecisionDecline(_Message):
    """The worker cannot answer (overloaded, error): the server re-sends or falls back now."""

    type: Literal["decline"] = "decline"
    request_id: str = Field(max_length=64)
    reason: str = Field(default="", max_length=200)


class WorkerPing(_Message):
    type: Literal["ping"] = "ping"


WorkerEvent = Annotated[
    WorkerHello | DecisionAnswer | DecisionDecline | WorkerPing,
    Field(discriminator="type"),
]


class WorkerMessage(RootModel[WorkerEvent]):
    """Any message an AI worker may send on /ws/ai."""


# -- server -> AI worker -------------------------------------------------------------


class QueryPurpose(WireEnum):
    BOT = "bot"  # a bot seat's decision
    AI_DECIDE = "ai_decide"  # a human pressed "Let AI decide": the action is applied
    ADVICE = "advice"  # a human asked for advice: nothing is applied
    REVIEW = "review"  # a finished hand's decision, graded afterwards: low priority


class WorkerWelcome(_Message):
    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    worker_id: str


class TournamentSituation(_Message):
    """What a decision is worth in a tournament: the prizes still to be paid and every
    other player's chips, so the AI can value chips in prize equity (ICM).

    The stacks of the players at this table come from the view; `other_stacks` are
    those of the players still in at the tournament's other tables.
    """

    prizes: list[Annotated[float, Field(ge=0)]] = Field(
        min_length=1,
        max_length=10_000,
        description="prize per place still to be decided, best place first (places of "
        "players already out are settled and not listed); 0 for unpaid places may be left off",
    )
    other_stacks: list[Annotated[int, Field(gt=0)]] = Field(
        default_factory=list, max_length=100_000
    )
    players_left: int = Field(ge=1, description="players still in, this table included")

    @classmethod
    def of(
        cls, stacks: dict[str, int], prizes: list[int] | list[float], at_table: set[str]
    ) -> TournamentSituation:
        """From every stack left (by player) and the prizes still to be paid (best first):
        the stacks of the players not at this table become `other_stacks`."""
        return cls(
            prizes=[float(p) for p in prizes] or [0.0],
            other_stacks=[chips for p, chips in stacks.items() if p not in at_table and chips > 0],
            players_left=max(1, sum(1 for chips in stacks.values() if chips > 0)),
        )


class DecisionQuery(_Message):
    """Decide for `seat`. `view` is exactly what that seat sees; nothing more is sent."""

    type: Literal["query"] = "query"
    request_id: str
    purpose: QueryPurpose
    table_id: str
    hand_no: int
    seat: int
    style: str | None = Field(description="Bot style for bot seats; None for human seats")
    view: TableView
    legal: LegalActions
    deadline: float = Field(description="Server epoch ms after which the answer is ignored")
    timeout_ms: int = Field(description="Time allowed from sending, for clock-skewed workers")
    want_advice: bool
    tournament: TournamentSituation | None = Field(
        default=None, description="the tournament's prizes and stacks; None at cash tables"
    )


class QueryCancel(_Message):
    """The query is no longer needed (hand moved on, deadline passed)."""

    type: Literal["cancel"] = "cancel"
    request_id: str
    reason: str = ""


class WorkerPong(_Message):
    type: Literal["pong"] = "pong"
    at: float


class HandEnded(_Message):
    """A hand is over: the worker's bots at that table learn from its end, as in the arena.

    `record` is the hand as a spectator saw it (`holdem.views.observe_record`): its
    events, the board, and only the hole cards a showdown or a player revealed; every
    other card is "??". Sent to every worker, for tables with a bot or where AI was asked.
    """

    type: Literal["hand_ended"] = "hand_ended"
    record: HandRecord


GatewayEvent = Annotated[
    WorkerWelcome | DecisionQuery | QueryCancel | ErrorMessage | WorkerPong | HandEnded,
    Field(discriminator="type"),
]


class GatewayMessage(RootModel[GatewayEvent]):
    """Any message the server sends on /ws/ai."""


# -- parsing helpers ---------------------------------------------------------------

_client_adapter: TypeAdapter[ClientCommand] = TypeAdapter(ClientCommand)
_server_adapter: TypeAdapter[ServerEvent] = TypeAdapter(ServerEvent)
_worker_adapter: TypeAdapter[WorkerEvent] = TypeAdapter(WorkerEvent)
_gateway_adapter: TypeAdapter[GatewayEvent] = TypeAdapter(GatewayEvent)


def parse_client_message(data: str | bytes) -> ClientCommand:
    """Validate a browser message strictly; raises pydantic.ValidationError.

    Strict: an integer field takes a JSON integer only, never "5000", true or 5000.0.
    """
    return _client_adapter.validate_json(data, strict=True)


def read_client_message(text: str) -> ClientCommand | ErrorMessage:
    """A browser message, or the error to answer it with: what is wrong, and its `ref`."""
    try:
        return parse_client_message(text)
    except ValidationError as error:
        # Not JSON at all (or nested past the parser's depth limit): no `ref` to recover.
        unparsed = error.errors()[0]["type"] == "json_invalid"
        return _explain(error, None if unparsed else _ref_of(text))


def _ref_of(text: str) -> str | None:
    """The `ref` of a message that failed validation, if it had a usable one.

    Parsed by the validator's own parser (its depth limit, no recursion): the
    standard library's json recursed into 1,000 nested arrays until RecursionError.
    """
    try:
        data = from_json(text)
    except (ValueError, RecursionError):
        return None
    ref = data.get("ref") if isinstance(data, dict) else None
    return ref if isinstance(ref, str) and len(ref) <= MAX_REF_LENGTH else None


def _explain(error: ValidationError, ref: str | None) -> ErrorMessage:
    first = error.errors()[0]
    kind = first["type"]
    if kind == "json_invalid":
        return ErrorMessage(code=ErrorCode.BAD_JSON, message=f"not valid JSON: {first['msg']}")
    if kind == "model_attributes_type":
        return ErrorMessage(code=ErrorCode.BAD_MESSAGE, message="a message is a JSON object")
    if kind == "union_tag_invalid":
        ctx = first.get("ctx", {})
        return ErrorMessage(
            code=ErrorCode.UNKNOWN_TYPE,
            message=f"unknown message type {ctx.get('tag', '?')!r}; "
            f"expected one of {ctx.get('expected_tags', '')}",
            ref=ref,
        )
    if kind == "union_tag_not_found":
        return ErrorMessage(code=ErrorCode.BAD_MESSAGE, message='a message needs a "type"', ref=ref)
    where = ".".join(str(p) for p in first["loc"][1:])
    what = str(first["msg"])
    if kind == "int_type":
        # Strict: "5000", true and 5000.0 are refused, not quietly taken for 5000.
        what = f"must be a JSON integer (like 5000), not {_shown(first.get('input'))}"
    return ErrorMessage(
        code=ErrorCode.BAD_MESSAGE, message=f"{where}: {what}" if where else what, ref=ref
    )


def _shown(value: object) -> str:
    text = json.dumps(value) if isinstance(value, str | bool | int | float | None) else "that"
    return text if len(text) <= 40 else text[:37] + "..."


def parse_server_message(data: str | bytes) -> ServerEvent:
    return _server_adapter.validate_json(data)


def parse_worker_message(data: str | bytes) -> WorkerEvent:
    """Validate an AI worker message strictly (as client messages); raises ValidationError."""
    return _worker_adapter.validate_json(data, strict=True)


def parse_gateway_message(data: str | bytes) -> GatewayEvent:
    """Validate a server message on /ws/ai (for AI workers)."""
    return _gateway_adapter.validate_json(data)
