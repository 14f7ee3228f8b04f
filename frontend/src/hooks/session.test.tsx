import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { listMyHands } from "../api";
import type { GuestSession } from "../protocol";
import { stubFetch } from "../test/render";
import { REFRESH_AHEAD_MS, SESSION_ENDED, SESSION_KEY, SessionProvider, useSession } from "./useSession";

const HOUR = 3_600_000;

function session(token: string, refresh: string, expiresInMs = 15 * 60_000): GuestSession {
  return {
    token,
    refresh_token: refresh,
    player_id: "g1",
    name: "Alice",
    expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    refresh_expires_at: new Date(Date.now() + 7 * 24 * HOUR).toISOString(),
  };
}

function renderSession(initial: GuestSession | null) {
  const wrapper = ({ children }: { children: ReactNode }) => <SessionProvider initial={initial}>{children}</SessionProvider>;
  return renderHook(() => useSession(), { wrapper });
}

const EMPTY_PAGE = { items: [], total: 0, limit: 20, offset: 0 };

describe("the session's tokens", () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("retries a REST call refused with 401 once, with a refreshed token, as the same player", async () => {
    const api = stubFetch({
      "GET /api/hands": () => ({ status: 401, json: { detail: "the token has expired" } }),
      "POST /api/auth/refresh": (body) => {
        expect(body).toEqual({ refresh_token: "r1" });
        return { json: session("a2", "r2") };
      },
    });
    let refreshed = false;
    const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
      const auth = (init?.headers as Record<string, string> | undefined)?.Authorization;
      if (String(input).startsWith("/api/hands") && auth === "Bearer a2") {
        refreshed = true;
        return new Response(JSON.stringify(EMPTY_PAGE), { status: 200 });
      }
      return api.fn(input, init);
    };
    vi.stubGlobal("fetch", fn);
    const { result } = renderSession(session("a1", "r1"));
    const page = await act(() => listMyHands("a1"));
    expect(page.total).toBe(0);
    expect(refreshed).toBe(true);
    expect(result.current.session?.token).toBe("a2");
    expect(result.current.session?.player_id).toBe("g1");
    expect(JSON.parse(window.localStorage.getItem(SESSION_KEY)!)).toMatchObject({ token: "a2", refresh_token: "r2" });
    expect(api.calls.filter((c) => c.path === "/api/auth/refresh")).toHaveLength(1);
  });

  it("refreshes ahead of expiry without anyone asking", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = stubFetch({ "POST /api/auth/refresh": () => ({ json: session("a2", "r2") }) });
    vi.stubGlobal("fetch", api.fn);
    const { result } = renderSession(session("a1", "r1", 5 * 60_000));
    expect(api.calls).toHaveLength(0);
    await act(async () => {
      vi.advanceTimersByTime(5 * 60_000 - REFRESH_AHEAD_MS + 1);
    });
    await waitFor(() => expect(result.current.session?.token).toBe("a2"));
    expect(api.calls.map((c) => c.path)).toEqual(["/api/auth/refresh"]);
  });

  it("hands sockets a refreshed token when the stored one is about to expire", async () => {
    const api = stubFetch({ "POST /api/auth/refresh": () => ({ json: session("a2", "r2") }) });
    vi.stubGlobal("fetch", api.fn);
    const { result } = renderSession(session("a1", "r1", 10_000));
    await expect(act(async () => result.current.accessToken())).resolves.toBe("a2");
    const fresh = renderSession(session("b1", "q1"));
    expect(fresh.result.current.accessToken()).toBe("b1"); // valid: at once, no request
    expect(api.calls).toHaveLength(1);
  });

  it("renews a refused token by refreshing it, keeping the player", async () => {
    const api = stubFetch({
      "POST /api/auth/refresh": () => ({ json: session("a2", "r2") }),
      "POST /api/auth/guest": () => ({ json: { ...session("x", "y"), player_id: "g-new" } }),
    });
    vi.stubGlobal("fetch", api.fn);
    const { result } = renderSession(session("a1", "r1"));
    const renewed = await act(() => result.current.renew());
    expect(renewed?.player_id).toBe("g1");
    expect(api.calls.map((c) => c.path)).toEqual(["/api/auth/refresh"]);
  });

  it("ends a session that cannot be renewed, and says so: never a new guest under the same name", async () => {
    const api = stubFetch({
      "POST /api/auth/refresh": () => ({ status: 401, json: { detail: "the refresh token is not valid" } }),
      "POST /api/auth/guest": () => ({ json: { ...session("x", "y"), player_id: "g-new" } }),
    });
    vi.stubGlobal("fetch", api.fn);
    const { result } = renderSession(session("a1", "r1"));
    const renewed = await act(() => result.current.renew());
    expect(renewed).toBeNull();
    expect(result.current.session).toBeNull();
    expect(result.current.ended).toBe(SESSION_ENDED);
    expect(window.localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(api.calls.map((c) => c.path)).toEqual(["/api/auth/refresh"]);
    // Signing in again clears the message.
    await act(() => result.current.signIn("Alice"));
    expect(result.current.ended).toBeNull();
  });

  it("signs out on the server, and forgets the session", async () => {
    const api = stubFetch({ "POST /api/auth/logout": () => ({ json: {} }) });
    vi.stubGlobal("fetch", api.fn);
    const { result } = renderSession(session("a1", "r1"));
    act(() => result.current.signOut());
    expect(result.current.session).toBeNull();
    expect(window.localStorage.getItem(SESSION_KEY)).toBeNull();
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(api.calls[0]).toMatchObject({ method: "POST", path: "/api/auth/logout" });
    expect(api.calls[0]!.headers.Authorization).toBe("Bearer a1");
  });

  it("signs out with a renewed token when the access token has expired", async () => {
    const api = stubFetch({
      "POST /api/auth/refresh": () => ({ json: session("a2", "r2") }),
      "POST /api/auth/logout": () => ({ json: {} }),
    });
    vi.stubGlobal("fetch", api.fn);
    const { result } = renderSession(session("a1", "r1", -1000));
    act(() => result.current.signOut());
    expect(result.current.session).toBeNull();
    await waitFor(() => expect(api.calls).toHaveLength(2));
    expect(api.calls.map((c) => c.path)).toEqual(["/api/auth/refresh", "/api/auth/logout"]);
    expect(api.calls[1]!.headers.Authorization).toBe("Bearer a2");
    expect(window.localStorage.getItem(SESSION_KEY)).toBeNull();
  });
});
