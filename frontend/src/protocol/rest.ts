/**
 * REST endpoints of the server (docs/protocol.md, all under /api/) and the
 * decoders of their bodies. Paths live here so a protocol change stays inside
 * src/protocol/. Decoders are lenient: unknown fields are kept, missing ones
 * get safe defaults.
 */
import { normaliseView } from "./messages";
import type {
  GuestSession,
  HandPage,
  HandRecord,
  HandSummary,
  TableConfig,
  TableDetail,
  TableSummary,
  TableView,
} from "./types";
import type * as Rest from "./rest.gen";

export const endpoints = {
  guest: () => "/api/auth/guest",
  login: () => "/api/auth/login",
  password: () => "/api/auth/password",
  refresh: () => "/api/auth/refresh",
  logout: () => "/api/auth/logout",
  logoutAll: () => "/api/auth/logout-all",
  me: () => "/api/me",
  tables: () => "/api/tables",
  table: (tableId: string) => `/api/tables/${encodeURIComponent(tableId)}`,
  hands: (limit = 20, offset = 0, tableId: string | null = null) =>
    `/api/hands?limit=${limit}&offset=${offset}${tableId ? `&table_id=${encodeURIComponent(tableId)}` : ""}`,
  hand: (handId: string) => `/api/hands/${encodeURIComponent(handId)}`,
  handPhh: (handId: string) => `/api/hands/${encodeURIComponent(handId)}/phh`,
  /** One hand as another poker program reads it (#34): PokerStars text, OHH JSON or PHH. */
  handExport: (handId: string, format: ExportFormat) => `/api/hands/${encodeURIComponent(handId)}/${format}`,
  /** All your hands in one file: one table's, a time range's (ISO 8601; until exclusive), or all. */
  handsExport: (format: ExportFormat, tableId: string | null = null, since: string | null = null, until: string | null = null) => {
    const query = new URLSearchParams();
    if (tableId) query.set("table_id", tableId);
    if (since) query.set("since", since);
    if (until) query.set("until", until);
    const text = query.toString();
    return `/api/hands/export/${format}${text ? `?${text}` : ""}`;
  },
  ledger: (tableId: string) => `/api/tables/${encodeURIComponent(tableId)}/ledger`,
  ledgerCsv: (tableId: string) => `/api/tables/${encodeURIComponent(tableId)}/ledger.csv`,
  /** A private table's invite link (#34): POST a new one, DELETE to revoke it (the host only). */
  invite: (tableId: string) => `/api/tables/${encodeURIComponent(tableId)}/invite`,
  health: () => "/healthz",
};

/** The hand-history formats the server exports (holdem.exports.ExportFormat). */
export type ExportFormat = Rest.ExportFormat;
export const EXPORT_FORMATS = [
  { format: "pokerstars", label: "PokerStars", suffix: "txt", many: "txt" },
  { format: "ohh", label: "OHH", suffix: "ohh", many: "ohh" },
  { format: "phh", label: "PHH", suffix: "phh", many: "phhs" },
] as const satisfies readonly { format: ExportFormat; label: string; suffix: string; many: string }[];

/** A table session's ledger (backend/ledger_report.py): always sums to zero. */
export type LedgerRow = Rest.LedgerRow;
export type Payment = Rest.Payment;
export type TableLedger = Rest.TableLedger;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown, fallback = 0): number => (typeof v === "number" && Number.isFinite(v) ? v : fallback);

function listFrom(body: unknown, ...keys: string[]): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body)) {
    for (const key of keys) {
      const value = body[key];
      if (Array.isArray(value)) return value;
    }
  }
  return [];
}

export function decodeGuest(body: unknown): GuestSession {
  const b = (isObject(body) ? body : {}) as Partial<Rest.TokenResponse>;
  if (typeof b.token !== "string" || !b.token) throw new Error("the server sent no token");
  return {
    token: b.token,
    player_id: String(b.player_id ?? ""),
    name: String(b.name ?? ""),
    ...(b.expires_at ? { expires_at: b.expires_at } : {}),
    ...(b.refresh_token ? { refresh_token: b.refresh_token } : {}),
    ...(b.refresh_expires_at ? { refresh_expires_at: b.refresh_expires_at } : {}),
  };
}

function configOf(t: Json): TableConfig {
  const view = isObject(t.view) ? t.view : null;
  const c = (isObject(t.config) ? t.config : view && isObject(view.config) ? view.config : t) as Json;
  return {
    variant: c.variant === "limit" ? "limit" : "no-limit",
    seats: num(c.seats, 6),
    small_blind: num(c.small_blind, 1),
    big_blind: num(c.big_blind, 2),
    ante: num(c.ante),
    // The lobby's flat summary has no ante_mode (POST /api/tables cannot set it yet).
    ante_mode: c.ante_mode === "big_blind" ? "big_blind" : "every_seat",
    small_bet: num(c.small_bet),
    big_bet: num(c.big_bet),
    raise_cap: typeof c.raise_cap === "number" ? c.raise_cap : null,
    min_buy_in: num(c.min_buy_in),
    max_buy_in: num(c.max_buy_in),
    chip_unit: c.chip_unit === undefined || c.chip_unit === null ? "1" : String(c.chip_unit),
    // Home-game rules (#34): in the view's config; the flat lobby summary has none.
    straddle: c.straddle === "utg" || c.straddle === "button" ? c.straddle : "off",
    run_it_max: num(c.run_it_max, 1),
    rabbit_hunt: c.rabbit_hunt === true,
    bomb_pot_ante: num(c.bomb_pot_ante),
    bomb_pot_every: num(c.bomb_pot_every),
  };
}

export function decodeTableSummary(raw: unknown): TableSummary {
  const t = (isObject(raw) ? raw : {}) as Partial<Rest.TableSummary> & Json;
  const tableId = String(t.table_id ?? "");
  return {
    ...(t as Rest.TableSummary),
    table_id: tableId,
    name: typeof t.name === "string" && t.name ? t.name : `Table ${tableId}`,
    seats_taken: num(t.seats_taken),
    bots: num(t.bots),
    config: configOf(t),
  };
}

export function decodeTableDetail(raw: unknown): TableDetail {
  const summary = decodeTableSummary(raw);
  const b = (isObject(raw) ? raw : {}) as Partial<Rest.TableDetail>;
  const view = isObject(b.view) ? normaliseView(b.view as unknown as TableView) : null;
  return { ...summary, invite: b.invite ?? null, view };
}

/** The answer to a new or revoked invite link: the token, null once revoked. */
export function decodeInvite(raw: unknown): string | null {
  const b = (isObject(raw) ? raw : {}) as Partial<Rest.InviteResponse>;
  return typeof b.invite === "string" && b.invite ? b.invite : null;
}

export function decodeTables(body: unknown): TableSummary[] {
  return listFrom(body, "tables", "items").map(decodeTableSummary);
}

export function decodeHandPage(body: unknown): HandPage {
  const b = isObject(body) ? body : {};
  const items = listFrom(body, "items", "hands").map((raw) => {
    const h = (isObject(raw) ? raw : {}) as Json;
    const handNo = num(h.hand_no);
    const tableId = String(h.table_id ?? "");
    return {
      ...(h as unknown as HandSummary),
      hand_id: String(h.hand_id ?? h.id ?? `${tableId}-${handNo}`),
      table_id: tableId,
      hand_no: handNo,
    };
  });
  return { items, total: num(b.total, items.length), limit: num(b.limit, items.length), offset: num(b.offset) };
}

export function decodeHand(body: unknown): HandRecord {
  const b = isObject(body) ? body : {};
  const record = (isObject(b.record) ? b.record : isObject(b.hand) ? b.hand : b) as unknown as HandRecord;
  return {
    ...record,
    hand_id: typeof b.hand_id === "string" ? b.hand_id : record.hand_id,
    config: configOf(record as unknown as Json),
    events: record.events ?? [],
    board: record.board ?? [],
    seats: (record.seats ?? []).map((s) => ({
      ...s,
      // "??" marks a card you may not see.
      hole_cards: s.hole_cards && s.hole_cards.every((c) => c && c !== "??") ? s.hole_cards : null,
    })),
  };
}

export function decodeLedger(body: unknown): TableLedger {
  const b = isObject(body) ? body : {};
  const rows = listFrom(b.rows).filter(isObject).map((r) => ({
    player_id: String(r.player_id ?? ""),
    name: String(r.name ?? ""),
    is_bot: r.is_bot === true,
    buy_ins: num(r.buy_ins),
    rebuys: num(r.rebuys),
    adjustments: num(r.adjustments),
    cashed_out: num(r.cashed_out),
    on_table: num(r.on_table),
    net: num(r.net),
  }));
  const settle_up = listFrom(b.settle_up)
    .filter(isObject)
    .map((p) => ({ payer: String(p.payer ?? ""), payee: String(p.payee ?? ""), amount: num(p.amount) }));
  return { table_id: String(b.table_id ?? ""), rows, total: num(b.total), settle_up };
}
