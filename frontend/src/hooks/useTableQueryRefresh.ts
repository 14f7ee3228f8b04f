/** Keeps the cached queries a table changes fresh: HUD statistics and the hand lists. */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { StatsCounted } from "../protocol";
import { HANDS_KEY } from "./useHands";

export function useTableQueryRefresh(statsCounted: StatsCounted | null, handLive: boolean, handNo: number): void {
  const queries = useQueryClient();
  useEffect(() => {
    // The server counted the table's latest hands: those players' HUD figures changed.
    // (Not at a hand's end: the server counts the hand after showing its end.)
    if (statsCounted === null) return;
    const changed = new Set(statsCounted.player_ids);
    void queries.invalidateQueries({
      predicate: (query) => query.queryKey[0] === "player-stats" && changed.has(String(query.queryKey[1])),
    });
    // A hand is counted once it is filed, and it is filed behind the table's path (after its
    // end was shown): the lists fetched at the hand's end may have missed it.
    void queries.invalidateQueries({ queryKey: HANDS_KEY });
  }, [statsCounted, queries]);
  // A hand that ends is a new hand in every hand list.
  useEffect(() => {
    if (!handLive) void queries.invalidateQueries({ queryKey: HANDS_KEY });
  }, [handLive, handNo, queries]);
}
