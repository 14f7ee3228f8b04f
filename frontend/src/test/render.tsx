/** Render helpers: the providers the app's components expect. */
import { render, type RenderOptions } from "@testing-library/react";
import type { QueryClient } from "@tanstack/react-query";
import type { ReactElement, ReactNode } from "react";
import { PreferencesProvider } from "../hooks/usePreferences";
import { SessionProvider } from "../hooks/useSession";
import { makeQueryClient, RouterAndCache } from "../providers";
import type { GuestSession } from "../protocol";

export const SESSION: GuestSession = { token: "tok", player_id: "alice", name: "Alice" };

/** `client`: a cache to share between renders (by default a fresh one: tests share no answers). */
export function renderWithApp(ui: ReactElement, session: GuestSession | null = SESSION, options?: RenderOptions, client: QueryClient = makeQueryClient(false)) {
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <RouterAndCache client={client}>
      <PreferencesProvider>
        <SessionProvider initial={session}>{children}</SessionProvider>
      </PreferencesProvider>
    </RouterAndCache>
  );
  return render(ui, { wrapper: Wrapper, ...options });
}

/** A fetch stub answering by method and path. */
export function stubFetch(routes: Record<string, (body: unknown) => { status?: number; json?: unknown; text?: string }>) {
  const calls: { method: string; path: string; body: unknown; headers: Record<string, string> }[] = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === "string" ? input : input.toString();
    const method = init?.method ?? "GET";
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path, body, headers: (init?.headers ?? {}) as Record<string, string> });
    const key = `${method} ${path.split("?")[0]}`;
    const handler = routes[key];
    if (!handler) return new Response(JSON.stringify({ detail: `no route ${key}` }), { status: 404 });
    const { status = 200, json, text } = handler(body);
    return new Response(text ?? JSON.stringify(json ?? {}), { status, headers: { "content-type": "application/json" } });
  };
  return { fn, calls };
}
