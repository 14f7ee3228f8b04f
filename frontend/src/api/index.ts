/** The lobby REST API (paths and body shapes come from src/protocol/rest.ts). */
import {
  decodeGuest,
  decodeHand,
  decodeHandPage,
  decodeTableDetail,
  decodeTables,
  endpoints,
  type CreateTableRequest,
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

/** A new access and refresh token for a refresh token (each works once). */
export async function refreshSession(refreshToken: string): Promise<GuestSession> {
  const body = await request(endpoints.refresh(), { method: "POST", body: { refresh_token: refreshToken }, noRefresh: true });
  return decodeGuest(body);
}

/** Sign out on the server: the session's tokens are refused from now on. */
export async function signOutSession(token: string): Promise<void> {
  await request(endpoints.logout(), { method: "POST", token, noRefresh: true });
}

export async function listTables(signal?: AbortSignal): Promise<TableSummary[]> {
  return decodeTables(await request(endpoints.tables(), signal ? { signal } : {}));
}

export async function getTable(tableId: string, token: string | null = null): Promise<TableDetail> {
  return decodeTableDetail(await request(endpoints.table(tableId), { token }));
}

export async function createTable(spec: CreateTableRequest, token: string | null): Promise<TableDetail> {
  return decodeTableDetail(await request(endpoints.tables(), { method: "POST", body: spec, token }));
}

export async function listMyHands(token: string | null, limit = 20, offset = 0): Promise<HandPage> {
  return decodeHandPage(await request(endpoints.hands(limit, offset), { token }));
}

export async function getHand(handId: string, token: string | null): Promise<HandRecord> {
  return decodeHand(await request(endpoints.hand(handId), { token }));
}

export async function downloadPhh(handId: string, token: string | null): Promise<string> {
  return request<string>(endpoints.handPhh(handId), { token, accept: "text" });
}
