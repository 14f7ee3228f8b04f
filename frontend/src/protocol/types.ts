/**
 * The client's types of the wire.
 *
 * Those of the table WebSocket (TableView, TableConfig, events, clocks, advice,
 * messages) are GENERATED at build time from docs/protocol.schema.json, which the
 * server's pydantic models generate in turn (protocol/messages.py): see ./wire.gen.ts
 * and scripts/gen-protocol-types.mjs. They are re-exported here under the names the
 * app uses; none is written by hand, so none can drift from the server.
 *
 * The REST bodies (backend/schemas.py) are generated likewise from docs/openapi.json,
 * which the server's routes generate (`python -m backend.openapi_doc`): ./rest.gen.ts.
 *
 * This folder (src/protocol/) is the ONLY place that knows the wire format.
 */
import type {
  AdviceMessage,
  NoticeMessage,
  TableConfig,
  TableView,
  ChatMessage as WireChatMessage,
  HandRecord as WireHandRecord,
  SeatRecord as WireSeatRecord,
  ErrorMessage,
  StatsMessage,
  WelcomeMessage,
} from "./wire.gen";
import type * as Rest from "./rest.gen";

export type {
  ActedBy,
  Action,
  ActionKind,
  ActionValue,
  Advice,
  AdviceSource,
  AnteMode,
  Change,
  ChangeKind,
  EventKind,
  HandEvent,
  HostState,
  LegalActions,
  Limits,
  NoticeMessage,
  OpponentRead,
  PotView,
  ResultView,
  SeatState,
  SeatView,
  Straddle,
  Street,
  TableConfig,
  TableView,
  TournamentElimination,
  TournamentView,
  TurnClock,
  Variant,
} from "./wire.gen";

// ---------------------------------------------------------------- game

/** Two characters: rank (23456789TJQKA) + suit (cdhs), e.g. "Ah", "Td". */
export type CardCode = string;

/** The bot styles a table may seat (protocol.messages.BOT_STYLES; a test keeps them equal). */
export const BOT_STYLES = [
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
] as const;
export type BotStyle = (typeof BOT_STYLES)[number];

// ---------------------------------------------------------------- messages, as decoded

/** An `advice` message: to the requester only; `applied` when it came from "Let AI decide". */
export type AdviceReport = Omit<AdviceMessage, "type">;

/** A `chat` line; `seq` and `at` may be missing from a line the client made up itself. */
export type ChatMessage = Omit<WireChatMessage, "type" | "seq" | "at"> & {
  seq?: number;
  at?: number;
};

/** The `welcome` after every (re)connection. */
export type Welcome = Omit<WelcomeMessage, "type">;

/**
 * An `error`: `code` is stable, `message` is for people, `ref` echoes the command's
 * (missing from the errors the client makes up itself).
 */
export type ServerError = Omit<ErrorMessage, "type" | "ref"> & { ref?: string | null };

/** The table paused (its changes cannot be stored yet) or resumed: docs/protocol.md. */
export type TableNotice = Omit<NoticeMessage, "type">;

/** A `stats`: the players' figures now count the table's hands up to `hand_no`. */
export type StatsCounted = Omit<StatsMessage, "type">;

// ---------------------------------------------------------------- REST
// The bodies of the REST API are generated from docs/openapi.json (./rest.gen.ts);
// a server model that changes changes these types, and the compiler finds every use.

/**
 * POST /api/auth/guest, /login, /refresh: the session's tokens. A session kept from
 * before refresh tokens (or built by a test) may lack the renewal fields.
 */
export type GuestSession = Pick<Rest.TokenResponse, "token" | "player_id" | "name"> &
  Partial<Pick<Rest.TokenResponse, "expires_at" | "refresh_token" | "refresh_expires_at">>;

/** POST /api/tables */
export type CreateTableRequest = Rest.CreateTableRequest;

/**
 * One table in the lobby: the server's flat TableSummary, with its rules also folded
 * into `config` (the shape the table's own view uses).
 */
export type TableSummary = Rest.TableSummary & { config: TableConfig };

/** GET /api/tables/{id}: the summary, the table's view, the host's invite token. */
export type TableDetail = TableSummary & Pick<Rest.TableDetail, "invite"> & { view: TableView | null };

export type HandSummary = Rest.HandSummary;
export type HandPage = Rest.HandPage;

/** A seat of a finished hand, decoded (rest.ts decodeHand): the wire's SeatRecord with
 * null where the hole cards are not yours to see (the wire sends "??"). */
export type SeatRecord = Omit<WireSeatRecord, "hole_cards"> & {
  hole_cards: CardCode[] | null;
};

/** A finished hand as the hand-detail endpoint returns it, decoded (rest.ts decodeHand):
 * the wire's HandRecord (holdem/history.py) with its id and decoded seats. */
export type HandRecord = Omit<WireHandRecord, "seats" | "played_at"> & {
  hand_id?: string;
  seats: SeatRecord[];
  played_at?: string | number | null;
};

// ---------------------------------------------------------------- connection

export type ConnectionStatus = "idle" | "connecting" | "open" | "reconnecting" | "closed";
