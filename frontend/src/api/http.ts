/**
 * A small fetch wrapper: JSON in and out, bearer token, errors in words.
 * A request refused with 401 is sent once more with a refreshed access token
 * (see setTokenRefresher), so an expired access token goes unnoticed.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

type Json = Record<string, unknown>;

/** FastAPI errors: {"detail": "..."} or {"detail": [{"msg": ...}]} or {"error": {...}}. */
export function errorMessageFrom(status: number, body: unknown): { code: string; message: string } {
  if (typeof body === "object" && body !== null) {
    const b = body as Json;
    const error = (typeof b.error === "object" && b.error !== null ? b.error : b) as Json;
    const code = typeof error.code === "string" ? error.code : `http_${status}`;
    if (typeof error.message === "string") return { code, message: error.message };
    const detail = b.detail;
    if (typeof detail === "string") return { code, message: detail };
    if (Array.isArray(detail)) {
      const parts = detail
        .map((d: unknown) => {
          if (typeof d !== "object" || d === null) return String(d);
          const item = d as Json;
          const loc = Array.isArray(item.loc) ? item.loc.filter((x) => x !== "body").join(".") : "";
          const msg = typeof item.msg === "string" ? item.msg : JSON.stringify(item);
          return loc ? `${loc}: ${msg}` : msg;
        })
        .filter(Boolean);
      if (parts.length) return { code, message: parts.join("; ") };
    }
    if (typeof detail === "object" && detail !== null) {
      const d = detail as Json;
      if (typeof d.message === "string") return { code: typeof d.code === "string" ? d.code : code, message: d.message };
    }
  }
  if (status === 401) return { code: "unauthorized", message: "Please sign in again." };
  if (status === 404) return { code: "not_found", message: "Not found." };
  if (status >= 500) return { code: "server", message: "The server had a problem; try again." };
  return { code: `http_${status}`, message: `Request failed (${status}).` };
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  token?: string | null;
  signal?: AbortSignal;
  accept?: "json" | "text";
  /** no second attempt with a refreshed token (the refresh and sign-out calls themselves) */
  noRefresh?: boolean;
}

type Refresher = (refused: string) => Promise<string | null>;
let refresher: Refresher | null = null;

/** Who renews a refused access token (the session); returns the unregister function. */
export function setTokenRefresher(fn: Refresher): () => void {
  refresher = fn;
  return () => {
    if (refresher === fn) refresher = null;
  };
}

export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await send<T>(path, options);
  } catch (err) {
    const retry = err instanceof ApiError && err.status === 401 && options.token && !options.noRefresh && refresher;
    if (!retry || !refresher || !options.token) throw err;
    const fresh = await refresher(options.token).catch(() => null);
    if (!fresh || fresh === options.token) throw err;
    return send<T>(path, { ...options, token: fresh });
  }
}

async function send<T>(path: string, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { Accept: options.accept === "text" ? "text/plain, */*" : "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (options.body === undefined ? "GET" : "POST"),
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiError(0, "network", "Cannot reach the server. Check your connection.");
  }
  const text = await response.text();
  let body: unknown = text;
  if (options.accept !== "text" && text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) {
    const { code, message } = errorMessageFrom(response.status, body);
    throw new ApiError(response.status, code, message);
  }
  return body as T;
}
