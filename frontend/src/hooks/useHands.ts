/** Your finished hands and one hand's record, through the data cache. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getHand, listMyHands } from "../api";
import { useSession } from "./useSession";

/** Every hand list (all tables, one table's, each page): invalidated when a hand ends. */
export const HANDS_KEY = ["hands"] as const;

export function useMyHands(tableId: string | null, limit: number, offset: number) {
  const { session } = useSession();
  const token = session?.token ?? null;
  return useQuery({
    // The player, not the token, names the answer: a renewed token asks nothing again.
    queryKey: [...HANDS_KEY, session?.player_id ?? null, tableId, limit, offset],
    queryFn: () => listMyHands(token, limit, offset, tableId),
    placeholderData: keepPreviousData, // the page shown stays while the next one loads
  });
}

export function useHandRecord(handId: string) {
  const { session } = useSession();
  const token = session?.token ?? null;
  return useQuery({
    // A finished hand never changes; what it shows depends on who looks.
    queryKey: ["hand", handId, session?.player_id ?? null],
    queryFn: () => getHand(handId, token),
    staleTime: Infinity,
  });
}
