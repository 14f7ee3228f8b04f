/**
 * Wire types of the Showdown server, written from the Python models:
 * holdem/views.py (TableView), holdem/actions.py (Action, LegalActions, HandEvent),
 * holdem/config.py (TableConfig) and holdem/protocol.py / docs/protocol.md
 * (messages, REST bodies).
 *
 * This folder (src/protocol/) is the ONLY place that knows the wire format:
 * when the server's protocol changes, this is the one module to adapt.
 */

// ---------------------------------------------------------------- game

export type Variant = "limit" | "no-limit";
export type Street = "preflop" | "flop" | "turn" | "river" | "showdown";
export type ActionKind = "fold" | "check" | "call" | "bet" | "raise";
export type EventKind =
  | "ante"
  | "small_blind"
  | "big_blind"
  | "fold"
  | "check"
  | "call"
  | "bet"
  | "raise"
  | "board"
  | "return"
  | "show"
  | "muck"
  | "win";
export type SeatState = "waiting" | "active" | "folded" | "all_in" | "sitting_out";

/** Two characters: rank (23456789TJQKA) + suit (cdhs), e.g. "Ah", "Td". */
export type CardCode = string;

export const BOT_STYLES = [
  "aggressive",
  "cautious",
  "rational",
  "always-raise",
  "calling-station",
  "always-fold",
  "random",
  "loki",
  "poki",
] as const;
export type BotStyle = (typeof BOT_STYLES)[number];

export interface TableConfig {
  variant: Variant;
  seats: number;
  small_blind: number;
  big_blind: number;
  ante: number;
  small_bet: number;
  big_bet: number;
  raise_cap: number | null;
  min_buy_in: number;
  max_buy_in: number;
  /** pydantic serialises Decimal as a string ("0.01"). */
  chip_unit: string;
}

/** A player's intention. For bet and raise, `amount` is the street total "to". */
export interface Action {
  kind: ActionKind;
  amount?: number | null;
}

export interface LegalActions {
  seat: number;
  can_fold: boolean;
  can_check: boolean;
  /** Chips the call adds (may be less than the bet when it puts the caller all-in). */
  call_amount: number;
  can_call: boolean;
  /** "bet" when nobody has bet this street, "raise" otherwise; null when no bet/raise. */
  raise_kind: "bet" | "raise" | null;
  min_to: number | null;
  max_to: number | null;
  /** Chips already in front of the actor this street. */
  committed: number;
  stack: number;
}

export interface HandEvent {
  kind: EventKind;
  street: Street;
  seat?: number | null;
  /** chips posted/called/returned/won; for bet and raise, the street total "to". */
  amount?: number | null;
  cards?: CardCode[];
  all_in?: boolean;
  pot_index?: number | null;
}

export interface SeatView {
  seat: number;
  player_id: string;
  name: string;
  is_bot: boolean;
  bot_style: string | null;
  stack: number;
  bet: number;
  state: SeatState;
  has_cards: boolean;
  hole_cards: CardCode[] | null;
  waiting_for_big_blind: boolean;
  leaving: boolean;
}

export interface PotView {
  amount: number;
  seats: number[];
}

/** JSON object keys are strings: dict[int, int] arrives as {"3": 120}. */
export interface ResultView {
  hand_no: number;
  net: Record<string, number>;
  winnings: Record<string, number>;
  shown: Record<string, CardCode[]>;
  board: CardCode[];
}

export interface TableView {
  table_id: string;
  config: TableConfig;
  viewer_seat: number | null;
  hand_no: number;
  hand_in_progress: boolean;
  button: number | null;
  small_blind_seat: number | null;
  big_blind_seat: number | null;
  street: Street | null;
  board: CardCode[];
  pots: PotView[];
  total_pot: number;
  seats: SeatView[];
  actor: number | null;
  /** only in the actor's own view */
  legal_actions: LegalActions | null;
  events: HandEvent[];
  last_result: ResultView | null;
}

/** The actor's clock (StateMessage.clock); times are server epoch milliseconds. */
export interface TurnClock {
  seat: number;
  started_at: number;
  /** the last moment to act: started_at + action_timeout_ms + time bank */
  deadline: number;
  action_timeout_ms: number;
  /** the actor's time bank before this decision */
  time_bank_ms: number;
}

export type ChangeKind =
  | "sit"
  | "stand"
  | "sit_out"
  | "sit_back"
  | "rebuy"
  | "act"
  | "hand_start"
  | "hand_end"
  | "connect"
  | "disconnect"
  | "restore";

/** "player", "ai" ("Let AI decide"), "bot", "timer" (timed out), "table" (house rules). */
export type ActedBy = "player" | "ai" | "bot" | "timer" | "table";

/** What caused a state message (null for a resync). */
export interface Change {
  kind: ChangeKind;
  seat?: number | null;
  player_id?: string | null;
  action?: Action | null;
  by?: ActedBy;
  note?: string;
}

// ---------------------------------------------------------------- advice

/** The AI's estimate of one candidate action, in big blinds (positive = profit). */
export interface ActionValue {
  action: ActionKind;
  amount?: number | null;
  value_bb: number;
}

/** What the AI believes about one opponent; statistics are shares in 0..1. */
export interface OpponentRead {
  seat: number;
  label?: string;
  vpip?: number | null;
  pfr?: number | null;
  aggression?: number | null;
  fold_to_bet?: number | null;
  note?: string;
  hands?: number | null;
  predicted?: number[] | null;
  range_grid?: number[][] | null;
}

export interface Advice {
  action: ActionKind;
  amount?: number | null;
  values: ActionValue[];
  /** 0..1 */
  equity: number | null;
  /** effective hand strength, 0..1 */
  ehs?: number | null;
  opponents: OpponentRead[];
  reason: string;
}

export type AdviceSource = "worker" | "fallback";

/** An advice message: to the requester only; `applied` when it came from "Let AI decide". */
export interface AdviceReport {
  ref?: string | null;
  hand_no: number;
  seat: number;
  advice: Advice;
  source: AdviceSource;
  applied: boolean;
}

// ---------------------------------------------------------------- chat and notices

export interface ChatMessage {
  seq?: number;
  at?: number;
  player_id: string;
  name: string;
  seat: number | null;
  text: string;
}

/** The table paused (its changes cannot be stored yet) or resumed: docs/protocol.md. */
export interface TableNotice {
  paused: boolean;
  /** "database" while paused; null on resuming */
  reason: string | null;
  message: string;
  at: number;
}

export interface Limits {
  max_message_bytes: number;
  messages_per_second: number;
  burst: number;
}

export interface Welcome {
  protocol?: number;
  table_id: string;
  player_id: string;
  name: string;
  seat: number | null;
  seq: number;
  resync: boolean;
  missed: number | null;
  limits?: Limits;
}

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
  chip_unit?: string;
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
  hand_no?: number;
  hand_in_progress?: boolean;
  /** seconds per decision */
  action_timeout?: number | null;
  /** seconds of time bank */
  time_bank?: number | null;
  advice_allowed?: boolean;
}

export interface TableDetail extends TableSummary {
  view: TableView | null;
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
  /** not sent by the server today; shown when present */
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

export interface SeatRecord {
  seat: number;
  player_id: string;
  name: string;
  is_bot: boolean;
  starting_stack: number;
  final_stack: number;
  /** null (or "??" cards) for hole cards you may not see */
  hole_cards: CardCode[] | null;
}

/** A finished hand as the hand-detail endpoint returns it (holdem/history.py HandRecord). */
export interface HandRecord {
  hand_id?: string;
  table_id: string;
  hand_no: number;
  config: TableConfig;
  button: number;
  seats: SeatRecord[];
  events: HandEvent[];
  board: CardCode[];
  played_at?: string | number | null;
}

// ---------------------------------------------------------------- connection

export type ConnectionStatus = "idle" | "connecting" | "open" | "reconnecting" | "closed";

export interface ServerError {
  code: string;
  message: string;
  ref?: string | null;
}
