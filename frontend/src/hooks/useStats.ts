/** Statistics through the data-fetching cache: a seat's HUD, the profile and the lobby share answers. */
import { useQuery } from "@tanstack/react-query";
import { getLeaderboard, getPlayerResults, getPlayerStats, type GameFilter, type Variant } from "../api/stats";

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
