/** The standing "show when uncalled" choice: told to the table on every (re)connection. */
import { useCallback, useEffect } from "react";
import type { ClientCommand, Welcome } from "../protocol";
import { usePreferences } from "./usePreferences";

/** Sets the choice (kept in the preferences) and tells the table when it is turned off. */
export function useShowUncalled(welcome: Welcome | null, send: (command: ClientCommand) => string | null): (on: boolean) => void {
  const prefs = usePreferences();
  const showUncalled = prefs.showUncalled;
  useEffect(() => {
    if (welcome && showUncalled) send({ type: "show_uncalled", enabled: true });
  }, [welcome, showUncalled, send]);
  return useCallback(
    (on: boolean) => {
      prefs.set({ showUncalled: on });
      if (!on) send({ type: "show_uncalled", enabled: false });
    },
    [prefs, send],
  );
}
