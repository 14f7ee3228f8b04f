/** The lobby REST API (paths and body shapes come from src/protocol/rest.ts). */
import {
  decodeGuest,
  decodeHand,
  decodeHandPage,
  decodeInvite,
  decodeLedger,
  decodeTableDetail,
  decodeTables,
  endpoints,
  type CreateTableRequest,
  type ExportFormat,
  type TableLedger,
  type GuestSession,
  type HandPage,
  type HandRecord,
  type TableDetail,
  type TableSummary,
} from "../protocol";
import { request } from "./http";

export { ApiError, errorMessageFrom, request, setTokenRefresher } from "./http";

export async function signInAsGuest(name: string): Promise<GuestSession> {
  const body = await request(endpoints.guest(), { method: "POST", body: { name } });
  const session = decodeGuest(body);
  return { ...session, name: session.name || name };
}

/** Sign in again as the player who protected `name` with a password. */
export async function signInWithPassword(name: string, password: string): Promise<GuestSession> {
  return decodeGuest(await request(endpoints.login(), { method: "POST", body: { name, password } }));
}

/** The signed-in player; `has_password` when their name is protected. */
export interface Me {
  player_id: string;
  name: string;
  has_password: boolean;
}

export async function getMe(token: string | null): Promise<Me> {
  const body = await request<Partial<Me>>(endpoints.me(), { token });
  return { player_id: String(body.player_id ?? ""), name: String(body.name ?? ""), has_password: body.has_password === true };
}

/** Protect your name with a password (changing it needs the current one). */
export async function setPassword(token: string | null, password: string, currentPassword: string | null = null): Promise<Me> {
  const body = await request<Partial<Me>>(endpoints.password(), {
    method: "POST",
    token,
    body: currentPassword === null ? { password } : { password, current_password: currentPassword },
  });
  return { player_id: String(body.player_id ?? ""), name: String(body.name ?? ""), has_password: body.has_password === true };
}

/** A new access and refresh token for a refresh token (each works once). */
export async function refreshSession(refreshToken: string): Promise<GuestSession> {
  const body = await request(endpoints.refresh(), { method: "POST", body: { refresh_token: refreshToken }, noRefresh: true });
  return decodeGuest(body);
}

/** Sign out on the server: the session's tokens are refused from now on. */
export async function signOutSession(token: string): Promise<void> {
  await request(endpoints.logout(), { method: "POST", token, noRefresh: true });
}

/** Sign out everywhere: every session of the player ends, on every device. */
export async function signOutAllSessions(token: string): Promise<void> {
  await request(endpoints.logoutAll(), { method: "POST", token, noRefresh: true });
}

export async function listTables(signal?: AbortSignal): Promise<TableSummary[]> {
  return decodeTables(await request(endpoints.tables(), signal ? { signal } : {}));
}

export async function getTable(tableId: string, token: string | null = null, invite: string | null = null): Promise<TableDetail> {
  // A private table answers its players, or the invite of its link (#34).
  const path = endpoints.table(tableId) + (invite ? `?invite=${encodeURIComponent(invite)}` : "");
  return decodeTableDetail(await request(path, { token }));
}

export async function createTable(spec: CreateTableRequest, token: string | null): Promise<TableDetail> {
  return decodeTableDetail(await request(endpoints.tables(), { method: "POST", body: spec, token }));
}

export async function listMyHands(token: string | null, limit = 20, offset = 0, tableId: string | null = null): Promise<HandPage> {
  return decodeHandPage(await request(endpoints.hands(limit, offset, tableId), { token }));
}

export async function getHand(handId: string, token: string | null): Promise<HandRecord> {
  return decodeHand(await request(endpoints.hand(handId), { token }));
}

export async function downloadPhh(handId: string, token: string | null): Promise<string> {
  return request<string>(endpoints.handPhh(handId), { token, accept: "text" });
}

/** One of your hands as another poker program reads it (PokerStars text, OHH JSON, PHH). */
export async function downloadHandExport(handId: string, format: ExportFormat, token: string | null): Promise<string> {
  return request<string>(endpoints.handExport(handId, format), { token, accept: "text" });
}

/** All your hands (or one table's, or a time range's) in one file. */
export async function downloadHandsExport(
  format: ExportFormat,
  token: string | null,
  tableId: string | null = null,
  since: string | null = null,
  until: string | null = null,
): Promise<string> {
  return request<string>(endpoints.handsExport(format, tableId, since, until), { token, accept: "text" });
}

/** The table session's ledger and settle-up (its players only). */
export async function getLedger(tableId: string, token: string | null): Promise<TableLedger> {
  return decodeLedger(await request(endpoints.ledger(tableId), { token }));
}

export async function downloadLedgerCsv(tableId: string, token: string | null): Promise<string> {
  return request<string>(endpoints.ledgerCsv(tableId), { token, accept: "text" });
}

/** A new invite link for a private table (the host only): its token; the old link stops working. */
export async function newInvite(tableId: string, token: string | null): Promise<string | null> {
  return decodeInvite(await request(endpoints.invite(tableId), { method: "POST", token }));
}

/** Revoke a private table's invite link (the host only): no link admits anyone until a new one. */
export async function revokeInvite(tableId: string, token: string | null): Promise<void> {
  await request(endpoints.invite(tableId), { method: "DELETE", token });
}
