/**
 * The client's types of the wire.
 *
 * Those of the table WebSocket (TableView, TableConfig, events, clocks, advice,
 * messages) are GENERATED at build time from docs/protocol.schema.json, which the
 * server's pydantic models generate in turn (holdem/protocol.py): see ./wire.gen.ts
 * and scripts/gen-protocol-types.mjs. They are re-exported here under the names the
 * app uses; none is written by hand, so none can drift from the server.
 *
 * The REST bodies below (backend/schemas.py, served as /openapi.json) are still
 * written by hand, from the server's models.
 *
 * This folder (src/protocol/) is the ONLY place that knows the wire format.
 */
import type {
  AdviceMessage,
  NoticeMessage,
  TableConfig,
  TableView,
  Variant,
  ChatMessage as WireChatMessage,
  HandRecord as WireHandRecord,
  SeatRecord as WireSeatRecord,
  ErrorMessage,
  StatsMessage,
  WelcomeMessage,
} from "./wire.gen";

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
  TurnClock,
  Variant,
} from "./wire.gen";

// ---------------------------------------------------------------- game

/** Two characters: rank (23456789TJQKA) + suit (cdhs), e.g. "Ah", "Td". */
export type CardCode = string;

/** The bot styles a table may seat (holdem.protocol.BOT_STYLES; a test keeps them equal). */
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

export interface GuestSession {
  /** the access token (minutes); renewed with refresh_token */
  token: string;
  player_id: string;
  name: string;
  expires_at?: string | number | null;
  /** POST /api/auth/refresh: a new pair; each refresh token works once */
  refresh_token?: string;
  refresh_expires_at?: string | number | null;
}

/** POST /api/tables */
export interface CreateTableRequest {
  name: string;
  variant: Variant;
  small_blind: number;
  big_blind: number;
  ante?: number;
  small_bet?: number;
  big_bet?: number;
  raise_cap?: number | null;
  seats: number;
  /** 0 = 40 big blinds */
  min_buy_in?: number;
  /** 0 = 100 big blinds */
  max_buy_in?: number;
  /** seconds per decision */
  action_timeout?: number;
  /** seconds of time bank */
  time_bank?: number;
  /** how many seats to fill with bots */
  bots: number;
  /** one style per bot, cycled */
  bot_styles: string[];
  advice_allowed: boolean;
  /** unlisted: only its players see it; others need the invite link (#34) */
  private?: boolean;
  chip_unit?: string;
  /** home-game rules (#34); the bots play every one of them */
  big_blind_ante?: boolean;
  straddle?: "off" | "utg" | "button";
  run_it_max?: number;
  rabbit_hunt?: boolean;
  bomb_pot_ante?: number;
  bomb_pot_every?: number;
}

/**
 * One table in the lobby (backend/schemas.py TableSummary is flat: variant,
 * blinds, seats, seats_taken...; the decoder folds the rules into `config`).
 */
export interface TableSummary {
  table_id: string;
  name: string;
  config: TableConfig;
  /** seats taken */
  seated: number;
  bots: number;
  /** human players seated */
  players?: number;
  /** seats taken whose player sits out (the server frees them when their player stays away) */
  sitting_out?: number;
  hand_no?: number;
  hand_in_progress?: boolean;
  /** seconds per decision */
  action_timeout?: number | null;
  /** seconds of time bank */
  time_bank?: number | null;
  advice_allowed?: boolean;
  private?: boolean;
  host_id?: string | null;
}

export interface TableDetail extends TableSummary {
  view: TableView | null;
  /** a private table's invite token, to its host only */
  invite?: string | null;
}

export interface HandSummary {
  hand_id: string;
  table_id: string;
  hand_no: number;
  played_at?: string | null;
  variant?: Variant;
  small_blind?: number;
  big_blind?: number;
  /** your seat in the hand */
  seat?: number | null;
  /** your net result in chips */
  net?: number | null;
  board?: CardCode[];
  players?: number;
  /** your own hole cards (the list never has anyone else's) */
  hole_cards?: CardCode[] | null;
  table_name?: string | null;
  chip_unit?: string;
}

export interface HandPage {
  items: HandSummary[];
  total: number;
  limit: number;
  offset: number;
}

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
