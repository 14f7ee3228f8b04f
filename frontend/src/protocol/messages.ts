/**
 * The table WebSocket's messages (docs/protocol.md, protocol/messages.py):
 * commands the client sends, and the decoder that turns what the server sends
 * into one small internal union. Every message is JSON discriminated by "type".
 */
import type {
  Advice,
  AdviceReport,
  Change,
  ChatMessage,
  HostState,
  ServerError,
  StatsCounted,
  TableNotice,
  TableView,
  TournamentView,
  TurnClock,
  Welcome,
} from "./types";
import type { AuthMessage, ClientMessage } from "./wire.gen";

// ---------------------------------------------------------------- client -> server

/** Omit `K` from each member of the union `T` (Omit alone merges the members). */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A command on the table socket, as the server's schema defines it (wire.gen.ts);
 * `auth` is the client's own first message, and `ref` is added by TableClient.send.
 * For bet and raise, `amount` is the street total "to".
 */
export type ClientCommand = OmitEach<Exclude<ClientMessage, AuthMessage>, "ref">;

/** Every command may carry `ref` (<= 64 chars), echoed in the error or advice it causes. */
export type OutgoingMessage = ClientCommand & { ref?: string };

export function encode(message: OutgoingMessage): string {
  return JSON.stringify(message);
}

// ---------------------------------------------------------------- server -> client

export interface StateUpdate {
  seq: number;
  /** server epoch ms of the change */
  at: number | null;
  view: TableView;
  clock: TurnClock | null;
  cause: Change | null;
  /** who runs the table and what they set (#34) */
  host: HostState | null;
  /** the tournament this table belongs to: level, clock, field (#35) */
  tournament?: TournamentView | null;
  /** the run-it-twice vote: server epoch ms when unanswered votes count as once (#34) */
  runout_deadline?: number | null;
}

export type Incoming =
  | { kind: "welcome"; welcome: Welcome }
  | { kind: "state"; state: StateUpdate }
  | { kind: "error"; error: ServerError }
  | { kind: "chat"; message: ChatMessage }
  | { kind: "advice"; report: AdviceReport }
  | { kind: "pong"; at: number | null }
  | { kind: "notice"; notice: TableNotice }
  | { kind: "stats"; stats: StatsCounted }
  | { kind: "unknown"; raw: unknown };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function looksLikeView(value: unknown): value is TableView {
  return isObject(value) && Array.isArray(value.seats) && isObject(value.config) && "table_id" in value;
}

/** Normalise a view: optional tuples may be missing or null. */
export function normaliseView(view: TableView): TableView {
  return {
    ...view,
    board: view.board ?? [],
    pots: view.pots ?? [],
    seats: (view.seats ?? []).map((seat) => ({ ...seat, hole_cards: seat.hole_cards ?? null })),
    events: view.events ?? [],
    legal_actions: view.legal_actions ?? null,
    last_result: view.last_result ?? null,
    boards: view.boards ?? [],
    runout_voters: view.runout_voters ?? [],
    rabbit: view.rabbit ?? [],
  };
}

export function normaliseAdvice(advice: Advice): Advice {
  return {
    ...advice,
    values: advice.values ?? [],
    opponents: advice.opponents ?? [],
    equity: advice.equity ?? null,
    reason: advice.reason ?? "",
    close_call: advice.close_call ?? null,
  };
}

/** Decode one text frame. Never throws: anything unexpected becomes "unknown". */
export function decode(text: string): Incoming {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: "unknown", raw: text };
  }
  if (!isObject(raw)) return { kind: "unknown", raw };
  switch (raw.type) {
    case "welcome":
      return { kind: "welcome", welcome: raw as unknown as Welcome };
    case "state": {
      const seq = numberOrNull(raw.seq);
      if (seq === null || !looksLikeView(raw.view)) return { kind: "unknown", raw };
      return {
        kind: "state",
        state: {
          seq,
          at: numberOrNull(raw.at),
          view: normaliseView(raw.view),
          clock: isObject(raw.clock) ? (raw.clock as unknown as TurnClock) : null,
          cause: isObject(raw.cause) ? (raw.cause as unknown as Change) : null,
          host: isObject(raw.host) ? (raw.host as unknown as HostState) : null,
          tournament: isObject(raw.tournament) ? (raw.tournament as unknown as TournamentView) : null,
          runout_deadline: numberOrNull(raw.runout_deadline),
        },
      };
    }
    case "error":
      return {
        kind: "error",
        error: {
          code: stringOrNull(raw.code) ?? "error",
          message: stringOrNull(raw.message) ?? "The server refused that.",
          ref: stringOrNull(raw.ref),
        },
      };
    case "chat":
      return {
        kind: "chat",
        message: {
          seq: numberOrNull(raw.seq) ?? undefined,
          at: numberOrNull(raw.at) ?? undefined,
          player_id: stringOrNull(raw.player_id) ?? "",
          name: stringOrNull(raw.name) ?? "?",
          seat: numberOrNull(raw.seat),
          text: stringOrNull(raw.text) ?? "",
          history: raw.history === true,
        } as ChatMessage,
      };
    case "advice": {
      if (!isObject(raw.advice)) return { kind: "unknown", raw };
      const report = raw as unknown as AdviceReport;
      return { kind: "advice", report: { ...report, advice: normaliseAdvice(report.advice) } };
    }
    case "pong":
      return { kind: "pong", at: numberOrNull(raw.at) };
    case "notice":
      if (typeof raw.paused !== "boolean") return { kind: "unknown", raw };
      return {
        kind: "notice",
        notice: {
          paused: raw.paused,
          reason: stringOrNull(raw.reason),
          message: stringOrNull(raw.message) ?? "",
          at: numberOrNull(raw.at) ?? 0,
        },
      };
    case "stats": {
      // hand_no is null when only other tables' hands (of players seated here) were counted.
      const handNo = numberOrNull(raw.hand_no);
      const ids = Array.isArray(raw.player_ids) ? raw.player_ids.filter((id) => typeof id === "string") : null;
      if ((handNo === null && raw.hand_no !== null) || ids === null) return { kind: "unknown", raw };
      return { kind: "stats", stats: { hand_no: handNo, player_ids: ids, at: numberOrNull(raw.at) ?? 0 } };
    }
    default:
      return { kind: "unknown", raw };
  }
}
