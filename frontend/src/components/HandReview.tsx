/**
 * The review of your play in a hand, beside the replayer: ask for it, see its progress,
 * then at each of your decisions the advisor's value of every action (bb ± standard
 * error) and what the action you took gave up ("grade"); a summary for the hand.
 */
import type { ActionValue } from "../protocol";
import type { HandReview as Review, ReviewedDecision } from "../api/review";
import { useHandReview } from "../hooks/useHandReview";
import { describeAction } from "../lib/events";

export interface HandReviewProps {
  handId: string;
  token: string | null;
  /** the replayer's step: step i shows the table after event i - 1 */
  step: number;
  unit: string;
  onJump: (step: number) => void;
}

/** The step whose caption is the decision's action (the table just after it). */
export const stepOf = (d: ReviewedDecision) => d.event_index + 1;

const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)}`;

function label(v: ActionValue | ReviewedDecision["taken"], unit: string): string {
  const kind = "action" in v ? v.action : v.kind;
  const text = describeAction({ kind, amount: v.amount ?? null }, unit);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function sameAction(a: ActionValue, b: ActionValue | null): boolean {
  return b !== null && a.action === b.action && (a.amount ?? null) === (b.amount ?? null);
}

/** How much a grade hurts: a word for people, a class for colour. A grade within its
 * standard error is a close call: the search cannot tell the two actions apart. */
export function gradeWord(grade: number | null, stderr: number | null = null): { word: string; tone: string } {
  if (grade === null) return { word: "not graded", tone: "muted" };
  if (grade < 0.05) return { word: "best", tone: "good" };
  if (stderr !== null && grade <= stderr) return { word: "close call", tone: "close" };
  if (grade < 1) return { word: "small mistake", tone: "warn" };
  return { word: "mistake", tone: "bad" };
}

function DecisionDetail({ decision, unit }: { decision: ReviewedDecision; unit: string }) {
  const grade = gradeWord(decision.grade_bb, decision.grade_stderr_bb ?? null);
  const noise = decision.grade_stderr_bb ? ` (±${decision.grade_stderr_bb.toFixed(2)})` : "";
  return (
    <div className="review__detail" data-testid="review-detail">
      <p className="review__taken">
        You: <strong>{label(decision.taken, unit)}</strong>
        {decision.matched && decision.matched.amount != null && decision.matched.amount !== decision.taken.amount && decision.taken.amount !== null && (
          <span className="muted small"> (graded as {label(decision.matched, unit).toLowerCase()})</span>
        )}
        {" · "}
        <span className={`review__grade review__grade--${grade.tone}`} data-testid="review-grade">
          {decision.grade_bb === null || decision.grade_bb < 0.05 ? grade.word : `${grade.word}: −${decision.grade_bb.toFixed(2)} bb${noise}`}
        </span>
      </p>
      <table className="review__values" data-testid="review-values">
        <caption>Advisor's value of each action (big blinds ± standard error)</caption>
        <tbody>
          {decision.values.map((v, i) => (
            <tr
              key={`${v.action}-${v.amount ?? ""}-${i}`}
              className={[sameAction(v, decision.best) ? "is-best" : "", sameAction(v, decision.matched) ? "is-taken" : ""].join(" ").trim()}
            >
              <th scope="row">
                {label(v, unit)}
                {sameAction(v, decision.matched) && <span className="review__tag">you</span>}
                {sameAction(v, decision.best) && <span className="review__tag review__tag--best">best</span>}
              </th>
              <td className="num">{signed(v.value_bb)}</td>
              <td className="num muted small">{v.stderr_bb != null && v.stderr_bb > 0 ? `±${v.stderr_bb.toFixed(2)}` : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {decision.reason && <p className="muted small review__reason">{decision.reason}</p>}
    </div>
  );
}

function Summary({ review, step, unit, onJump }: { review: Review; step: number; unit: string; onJump: (step: number) => void }) {
  const graded = review.decisions.filter((d) => d.grade_bb !== null);
  const current = review.decisions.find((d) => stepOf(d) === step || d.event_index === step);
  return (
    <>
      <p className="review__summary" data-testid="review-summary">
        {review.decisions.length === 0
          ? "You made no decision in this hand."
          : `${review.total_grade_bb < 0.05 ? "No value given up" : `${review.total_grade_bb.toFixed(2)} bb given up`} over ${review.decisions.length} decision${review.decisions.length === 1 ? "" : "s"}${graded.length < review.decisions.length ? ` (${review.decisions.length - graded.length} not graded)` : ""}.`}
      </p>
      {review.decisions.length > 0 && (
        <ol className="review__list" aria-label="Your decisions">
          {review.decisions.map((d) => {
            const grade = gradeWord(d.grade_bb, d.grade_stderr_bb ?? null);
            return (
              <li key={d.event_index}>
                <button
                  type="button"
                  className={`review__jump ${current === d ? "is-current" : ""}`}
                  onClick={() => onJump(stepOf(d))}
                  data-testid="review-jump"
                >
                  <span className="review__street">{d.street}</span> {label(d.taken, unit)}
                  <span className={`review__grade review__grade--${grade.tone}`}>
                    {d.grade_bb === null ? "–" : d.grade_bb < 0.05 ? "✓" : `−${d.grade_bb.toFixed(2)}`}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {current ? (
        <DecisionDetail decision={current} unit={unit} />
      ) : (
        review.decisions.length > 0 && <p className="muted small">Step to one of your decisions to see how the advisor valued it.</p>
      )}
    </>
  );
}

export function HandReview({ handId, token, step, unit, onJump }: HandReviewProps) {
  const { query, start } = useHandReview(handId, token);
  const status = query.data;
  const error = (start.error ?? query.error) as Error | null;
  return (
    <section className="review" aria-label="Review of your play" data-testid="hand-review">
      <div className="review__head">
        <h3>Review</h3>
        {(status === null || status?.status === "failed") && (
          <button type="button" className="btn btn--primary btn--small" onClick={() => start.mutate()} disabled={start.isPending} data-testid="review-start">
            {status?.status === "failed" ? "Try the review again" : "Review my play"}
          </button>
        )}
      </div>
      {error && (
        <p className="error-text" role="alert" data-testid="review-error">
          {error.message}
        </p>
      )}
      {query.isPending && token !== null && <p className="muted small">Loading…</p>}
      {status === null && !error && <p className="muted small">The AI values each of your decisions when it is not busy playing.</p>}
      {status?.status === "working" && (
        <div className="review__progress" data-testid="review-progress">
          <progress max={Math.max(status.total, 1)} value={status.done} />
          <span className="muted small">
            Reviewing… {status.done} of {status.total} decisions
            {status.message ? ` · ${status.message}` : ""}
          </span>
        </div>
      )}
      {status?.status === "failed" && <p className="error-text" data-testid="review-failed">{status.message}</p>}
      {status?.status === "done" && status.review && <Summary review={status.review} step={step} unit={unit} onJump={onJump} />}
    </section>
  );
}
