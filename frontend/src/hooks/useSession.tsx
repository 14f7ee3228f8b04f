/**
 * The guest session: a display name and the server's token, kept in
 * localStorage so a reload keeps you signed in (and at your seat).
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { signInAsGuest } from "../api";
import type { GuestSession } from "../protocol";
import { readStorage, writeStorage } from "./storage";

export const SESSION_KEY = "showdown.session";
export const NAME_KEY = "showdown.name";

export interface SessionApi {
  session: GuestSession | null;
  /** the last display name used, for the sign-in form */
  rememberedName: string;
  signIn: (name: string) => Promise<GuestSession>;
  /** the token was refused: sign in again with the same name */
  renew: () => Promise<GuestSession | null>;
  signOut: () => void;
}

const SessionContext = createContext<SessionApi | null>(null);

export function loadSession(): GuestSession | null {
  const s = readStorage<GuestSession | null>(SESSION_KEY, null);
  return s && typeof s.token === "string" && s.token ? s : null;
}

export function SessionProvider({ children, initial }: { children: ReactNode; initial?: GuestSession | null }) {
  const [session, setSession] = useState<GuestSession | null>(() => (initial !== undefined ? initial : loadSession()));
  const [rememberedName, setRememberedName] = useState<string>(() => readStorage<string>(NAME_KEY, ""));

  const signIn = useCallback(async (name: string) => {
    const clean = name.trim().slice(0, 24);
    const next = await signInAsGuest(clean);
    writeStorage(SESSION_KEY, next);
    writeStorage(NAME_KEY, next.name || clean);
    setRememberedName(next.name || clean);
    setSession(next);
    return next;
  }, []);

  const renew = useCallback(async () => {
    const name = session?.name || rememberedName;
    if (!name) {
      writeStorage(SESSION_KEY, null);
      setSession(null);
      return null;
    }
    try {
      return await signIn(name);
    } catch {
      writeStorage(SESSION_KEY, null);
      setSession(null);
      return null;
    }
  }, [session, rememberedName, signIn]);

  const signOut = useCallback(() => {
    writeStorage(SESSION_KEY, null);
    setSession(null);
  }, []);

  const api = useMemo<SessionApi>(
    () => ({ session, rememberedName, signIn, renew, signOut }),
    [session, rememberedName, signIn, renew, signOut],
  );
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error("useSession outside SessionProvider");
  return api;
}
