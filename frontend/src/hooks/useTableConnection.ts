/** The signed-in player's live connection to a table: renews the token the server refuses. */
import { useCallback, useMemo } from "react";
import { useSession } from "./useSession";
import { useTable, type TableState } from "./useTable";

export function useTableConnection(tableId: string, invite: string | null): TableState {
  const { session, renew, accessToken } = useSession();
  const playerId = session?.player_id ?? null;
  // Stable while the player is: a refreshed token does not reconnect the table.
  const tokenSource = useMemo(() => (playerId ? () => accessToken() : null), [playerId, accessToken]);
  const onAuthFailure = useCallback(async () => {
    const next = await renew();
    return next !== null && next.player_id === playerId;
  }, [renew, playerId]);
  return useTable(tableId, tokenSource, { onAuthFailure, invite });
}
