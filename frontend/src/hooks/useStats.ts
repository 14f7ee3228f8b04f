/** Statistics through the data-fetching cache: a seat's HUD, the profile and the lobby share answers. */
import { useQuery } from "@tanstack/react-query";
import { getLeaderboard, getPlayerResults, getPlayerStats, getTableStats, type GameFilter, type Variant } from "../api/stats";

export function usePlayerStats(playerId: string | null, filter: GameFilter = {}, enabled = true) {
  return useQuery({
    queryKey: ["player-stats", playerId, filter],
    queryFn: ({ signal }) => getPlayerStats(playerId ?? "", filter, signal),
    enabled: enabled && playerId !== null,
  });
}

export function usePlayerResults(playerId: string, filter: GameFilter = {}) {
  return useQuery({
    queryKey: ["player-results", playerId, filter],
    queryFn: ({ signal }) => getPlayerResults(playerId, filter, signal),
  });
}

export function useLeaderboard(variant: Variant, minHands: number) {
  return useQuery({
    queryKey: ["leaderboard", variant, minHands],
    queryFn: ({ signal }) => getLeaderboard(variant, minHands, signal),
  });
}

/** The open tables' lobby figures, by table id; refreshed while the lobby is shown. */
export function useTableStats() {
  return useQuery({
    queryKey: ["table-stats"],
    queryFn: async ({ signal }) => new Map((await getTableStats(signal)).map((t) => [t.table_id, t])),
    refetchInterval: 15_000,
  });
}
