/** Display preferences kept in localStorage: four-colour deck, big blinds, the seats' HUD, sound. */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { readStorage, writeStorage } from "./storage";

export const PREFS_KEY = "showdown.prefs";

export interface Preferences {
  fourColour: boolean;
  showBB: boolean;
  /** statistics under each seat at the table */
  hud: boolean;
  /** the table's sounds (your turn, your time bank, a win): off until asked for */
  sound: boolean;
  /** show your cards whenever you win uncalled (sent to each table you join) */
  showUncalled: boolean;
}

interface PreferencesApi extends Preferences {
  set: (patch: Partial<Preferences>) => void;
}

const DEFAULTS: Preferences = { fourColour: true, showBB: false, hud: true, showUncalled: false, sound: false };
const PreferencesContext = createContext<PreferencesApi>({ ...DEFAULTS, set: () => {} });

export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [prefs, setPrefs] = useState<Preferences>(() => ({ ...DEFAULTS, ...readStorage<Partial<Preferences>>(PREFS_KEY, {}) }));
  const set = useCallback((patch: Partial<Preferences>) => {
    setPrefs((current) => {
      const next = { ...current, ...patch };
      writeStorage(PREFS_KEY, next);
      return next;
    });
  }, []);
  const api = useMemo(() => ({ ...prefs, set }), [prefs, set]);
  return <PreferencesContext.Provider value={api}>{children}</PreferencesContext.Provider>;
}

export function usePreferences(): PreferencesApi {
  return useContext(PreferencesContext);
}

export function useCardStyle(): { fourColour: boolean } {
  return { fourColour: useContext(PreferencesContext).fourColour };
}
