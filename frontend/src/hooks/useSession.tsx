/**
 * The guest session: a display name, a short-lived access token and the
 * refresh token that renews it, kept in localStorage so a reload keeps you
 * signed in (and at your seat).
 *
 * The access token is renewed before it expires (and whenever the server
 * refuses it), without the user noticing: REST calls are retried once with the
 * new token, sockets ask for a current token on every (re)connection. Tabs
 * share the stored session: a tab that finds a newer one there adopts it
 * rather than spending its own (already rotated) refresh token.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { refreshSession, setTokenRefresher, signInAsGuest, signInWithPassword, signOutAllSessions, signOutSession } from "../api";
import type { GuestSession } from "../protocol";
import { readStorage, writeStorage } from "./storage";

export const SESSION_KEY = "showdown.session";
export const NAME_KEY = "showdown.name";
/** renew this long before the access token expires */
export const REFRESH_AHEAD_MS = 60_000;

export interface SessionApi {
  session: GuestSession | null;
  /** the last display name used, for the sign-in form */
  rememberedName: string;
  signIn: (name: string) => Promise<GuestSession>;
  /** sign in again as the player whose name this password protects */
  signInWithPassword: (name: string, password: string) => Promise<GuestSession>;
  /**
   * The token was refused: refresh it. If it cannot be refreshed the session ends, and
   * says so (`ended`): signing in a new guest under the same name, silently, made a
   * stranger of the player (watching their own table, no hands, their seat a ghost).
   */
  renew: () => Promise<GuestSession | null>;
  /** why the last session ended without the player signing out, for the sign-in page */
  ended: string | null;
  /** a current access token: at once, or refreshed first if it is about to expire */
  accessToken: () => string | null | Promise<string | null>;
  /** sign out here; `everywhere`: every session of the player ends, on every device */
  signOut: (everywhere?: boolean) => void;
}

const SessionContext = createContext<SessionApi | null>(null);

/** What the sign-in page says after a session that could not be renewed. */
export const SESSION_ENDED =
  "Your session expired and could not be renewed, so you were signed out. Sign in again to play on: a seat you left sits out, and after a few minutes it is freed and its chips are cashed out to you in the table's ledger.";

export function loadSession(): GuestSession | null {
  const s = readStorage<GuestSession | null>(SESSION_KEY, null);
  return s && typeof s.token === "string" && s.token ? s : null;
}

function expiresAt(session: GuestSession): number | null {
  const at = session.expires_at;
  if (at === null || at === undefined) return null;
  const ms = typeof at === "number" ? (at < 1e12 ? at * 1000 : at) : Date.parse(at);
  return Number.isFinite(ms) ? ms : null;
}

function fresh(session: GuestSession): boolean {
  const at = expiresAt(session);
  return at === null || at - Date.now() > REFRESH_AHEAD_MS / 2;
}

export function SessionProvider({ children, initial }: { children: ReactNode; initial?: GuestSession | null }) {
  const [session, setSession] = useState<GuestSession | null>(() => (initial !== undefined ? initial : loadSession()));
  const [rememberedName, setRememberedName] = useState<string>(() => readStorage<string>(NAME_KEY, ""));
  const [ended, setEnded] = useState<string | null>(null);
  const current = useRef(session);
  current.current = session;
  const refreshing = useRef<Promise<GuestSession | null> | null>(null);

  const adopt = useCallback((next: GuestSession | null) => {
    current.current = next;
    writeStorage(SESSION_KEY, next);
    setSession(next);
    if (next) setEnded(null);
  }, []);

  const signIn = useCallback(
    async (name: string) => {
      const clean = name.trim().slice(0, 24);
      const next = await signInAsGuest(clean);
      adopt(next);
      writeStorage(NAME_KEY, next.name || clean);
      setRememberedName(next.name || clean);
      return next;
    },
    [adopt],
  );

  const signInPassword = useCallback(
    async (name: string, password: string) => {
      const next = await signInWithPassword(name.trim(), password);
      adopt(next);
      writeStorage(NAME_KEY, next.name);
      setRememberedName(next.name);
      return next;
    },
    [adopt],
  );

  /** One refresh at a time; null when the session cannot be renewed (signed out, expired). */
  const refresh = useCallback((): Promise<GuestSession | null> => {
    if (refreshing.current) return refreshing.current;
    const run = async (): Promise<GuestSession | null> => {
      const mine = current.current;
      if (!mine) return null;
      // Another tab may have refreshed already: its session is ours too.
      const stored = loadSession();
      if (stored && stored.player_id === mine.player_id && stored.token !== mine.token && fresh(stored)) {
        adopt(stored);
        return stored;
      }
      if (!mine.refresh_token) return null;
      try {
        const next = await refreshSession(mine.refresh_token);
        adopt(next);
        return next;
      } catch {
        const now = loadSession(); // rotated by another tab meanwhile?
        if (now && now.player_id === mine.player_id && now.refresh_token !== mine.refresh_token) {
          adopt(now);
          return now;
        }
        return null;
      }
    };
    const promise = run().finally(() => {
      refreshing.current = null;
    });
    refreshing.current = promise;
    return promise;
  }, [adopt]);

  const accessToken = useCallback((): string | null | Promise<string | null> => {
    const mine = current.current;
    if (!mine) return null;
    if (fresh(mine)) return mine.token;
    return refresh().then((next) => next?.token ?? mine.token);
  }, [refresh]);

  const renew = useCallback(async () => {
    const refreshed = await refresh();
    if (refreshed) return refreshed;
    if (current.current) {
      adopt(null);
      setEnded(SESSION_ENDED);
    }
    return null;
  }, [refresh, adopt]);

  const signOut = useCallback((everywhere = false) => {
    const mine = current.current;
    adopt(null);
    if (!mine) return;
    // Revoke the session on the server (best effort: it is forgotten here anyway). An
    // expired access token is renewed first, so the refresh token dies with it.
    const revoke = async () => {
      const token = fresh(mine) || !mine.refresh_token ? mine.token : (await refreshSession(mine.refresh_token)).token;
      await (everywhere ? signOutAllSessions(token) : signOutSession(token));
    };
    void revoke().catch(() => undefined);
  }, [adopt]);

  // REST calls refused with 401 get a refreshed token and one more try.
  useEffect(
    () =>
      setTokenRefresher(async (refused) => {
        const mine = current.current;
        if (mine && mine.token !== refused) return mine.token; // renewed meanwhile
        return (await refresh())?.token ?? null;
      }),
    [refresh],
  );

  // Renew ahead of expiry, so a socket reconnecting finds a valid token at once.
  const expiry = session ? expiresAt(session) : null;
  useEffect(() => {
    if (expiry === null || !session?.refresh_token) return;
    const timer = setTimeout(() => void refresh(), Math.max(0, expiry - Date.now() - REFRESH_AHEAD_MS));
    return () => clearTimeout(timer);
  }, [expiry, session?.refresh_token, refresh]);

  // Another tab signed in, refreshed or signed out.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== SESSION_KEY) return;
      const next = loadSession();
      current.current = next;
      setSession(next);
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const api = useMemo<SessionApi>(
    () => ({ session, rememberedName, signIn, signInWithPassword: signInPassword, renew, ended, accessToken, signOut }),
    [session, rememberedName, signIn, signInPassword, renew, ended, accessToken, signOut],
  );
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error("useSession outside SessionProvider");
  return api;
}
