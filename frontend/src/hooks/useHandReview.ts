/** A hand's review through the data-fetching cache: polled while the AI works on it. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getReview, startReview, type ReviewStatus } from "../api/review";

export const REVIEW_POLL_MS = 1000;

export function useHandReview(handId: string, token: string | null) {
  const client = useQueryClient();
  const key = ["hand-review", handId];
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => getReview(handId, token, signal),
    enabled: token !== null,
    refetchInterval: (q) => (q.state.data?.status === "working" ? REVIEW_POLL_MS : false),
  });
  const start = useMutation({
    mutationFn: () => startReview(handId, token),
    onSuccess: (status: ReviewStatus) => client.setQueryData(key, status),
  });
  return { query, start };
}
