/** The lobby's table list through the data cache: polled while shown, kept between visits. */
import { useQuery } from "@tanstack/react-query";
import { listTables } from "../api";

export const TABLES_KEY = ["tables"] as const;
const POLL_MS = 5_000; // seats fill and empty under the lobby's eyes

export function useTables() {
  return useQuery({
    queryKey: TABLES_KEY,
    queryFn: ({ signal }) => listTables(signal),
    refetchInterval: POLL_MS,
    staleTime: POLL_MS,
  });
}
