/** Hand review: the advisor's values of each of your decisions in a hand, graded (backend/api/routes/reviews.py). */
import type { ActionKind, ActionValue, Street } from "../protocol";
import { ApiError, request } from "./http";

export interface ReviewedDecision {
  event_index: number;
  street: Street;
  taken: { kind: ActionKind; amount: number | null };
  values: ActionValue[];
  best: ActionValue;
  matched: ActionValue | null;
  /** value given up against the best action, in big blinds (null: the action taken was not valued) */
  grade_bb: number | null;
  /** the grade's standard error from the search's noise (null: unknown) */
  grade_stderr_bb?: number | null;
  equity: number | null;
  reason: string;
}

export interface HandReview {
  hand_id: string;
  player_id: string;
  seat: number;
  big_blind: number;
  computed_at: string;
  decisions: ReviewedDecision[];
  total_grade_bb: number;
}

export type ReviewState = "working" | "done" | "failed";

export interface ReviewStatus {
  hand_id: string;
  status: ReviewState;
  done: number;
  total: number;
  message: string;
  review: HandReview | null;
}

const path = (handId: string) => `/api/hands/${encodeURIComponent(handId)}/review`;

/** The review's status, or null when none was asked for yet. */
export async function getReview(handId: string, token: string | null, signal?: AbortSignal): Promise<ReviewStatus | null> {
  try {
    return await request<ReviewStatus>(path(handId), signal ? { token, signal } : { token });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.message.includes("no review")) return null;
    throw err;
  }
}

export function startReview(handId: string, token: string | null): Promise<ReviewStatus> {
  return request<ReviewStatus>(path(handId), { method: "POST", token });
}
