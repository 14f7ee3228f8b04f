/** The AI's advice: recommended action, the value of each action in bb (and in prize equity at
 * tournaments), equity, reads, the reason. */
import { Icon } from "./Icon";
import type { ActionKind, Advice, AdviceReport, TableView } from "../protocol";
import { describeAction } from "../lib/events";

export interface AdvicePanelProps {
  report: AdviceReport | null;
  loading: boolean;
  view: TableView | null;
  onAsk?: (() => void) | undefined;
  canAsk: boolean;
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "–" : `${Math.round(x * 100)}%`);
const ACTION_LABEL: Record<ActionKind, string> = { fold: "Fold", check: "Check", call: "Call", bet: "Bet", raise: "Raise" };

const RANKS = "AKQJT98765432";

/** A prize amount in the prize table's units: two decimals below 100, whole above. */
export function prizeText(x: number): string {
  return x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toFixed(2);
}

function spreadTitle(stderr: number | null | undefined, share: number | null | undefined): string | undefined {
  const parts = [stderr ? `±${stderr.toFixed(2)} bb standard error` : "", share ? `${pct(share)} of the search` : ""].filter(Boolean);
  return parts.length ? parts.join(", ") : undefined;
}

/** "Close call: Bet 28 vs Bet 92": the recommendation and the runner-up whose value's 95%
 * interval overlaps it (the worker names it), so neither is shown as clearly better. */
export function closeCallText(advice: Advice, unit: string): string | null {
  const other = advice.close_call;
  if (!other) return null;
  const name = (kind: ActionKind, amount: number | null | undefined) =>
    sentenceCase(describeAction({ kind, amount: amount ?? null }, unit));
  return `Close call: ${name(advice.action, advice.amount)} vs ${name(other.action, other.amount)}`;
}

/** "raise to 16,525" -> "Raise to 16,525": a sentence's capital, in the text itself (not CSS). */
export function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A 13x13 range: pairs on the diagonal, suited above it, offsuit below; darker = more likely. */
export function RangeGrid({ grid, who }: { grid: number[][]; who: string }) {
  return (
    <div className="range-grid" role="img" aria-label={`${who}'s likely hands`} data-testid="range-grid">
      {grid.map((row, r) =>
        row.map((w, c) => {
          const [hi, lo] = r <= c ? [RANKS[r], RANKS[c]] : [RANKS[c], RANKS[r]];
          const name = r === c ? `${hi}${lo}` : `${hi}${lo}${r < c ? "s" : "o"}`;
          return (
            <span
              key={`${r}-${c}`}
              className="range-grid__cell"
              style={{ opacity: 0.08 + 0.92 * Math.max(0, Math.min(1, w)) }}
              title={`${name}: ${Math.round(w * 100)}%`}
            />
          );
        }),
      )}
    </div>
  );
}

export function AdvicePanel({ report, loading, view, onAsk, canAsk }: AdvicePanelProps) {
  const unit = view?.config.chip_unit ?? "1";
  const nameOf = (seat: number) => view?.seats.find((s) => s.seat === seat)?.name ?? `Seat ${seat}`;
  if (!report) {
    return (
      <div className="advice advice--empty" data-testid="advice-panel">
        {loading ? (
          <p className="advice__loading" data-testid="advice-loading">
            <span className="spinner" aria-hidden="true" /> The AI is thinking…
          </p>
        ) : (
          <>
            <p>Ask the AI what it would do in your spot: the value of each action, your equity, a read on each opponent, and why.</p>
            {onAsk && (
              <button type="button" className="btn btn--ghost" onClick={onAsk} disabled={!canAsk} data-testid="advice-ask">
                <Icon name="bulb" /> Get advice
              </button>
            )}
            {!canAsk && <p className="muted small">Available when it is your turn.</p>}
          </>
        )}
      </div>
    );
  }
  const { advice } = report;
  const values = [...advice.values].sort((a, b) => b.value_bb - a.value_bb);
  const maxAbs = Math.max(0.5, ...values.map((v) => Math.abs(v.value_bb)));
  // The row marked is the action recommended: a bet valued a little higher may be within
  // its error of the check the search chose (its aggression margin), which the reason says.
  const sameKind = values.filter((v) => v.action === advice.action);
  // Tournaments near the money: each action's expected prize (ICM) beside its chips.
  const hasPrize = values.some((v) => v.prize_equity != null);
  const best = sameKind.find((v) => (v.amount ?? null) === (advice.amount ?? null)) ?? (sameKind.length === 1 ? sameKind[0] : values[0]);
  return (
    <div className="advice" data-testid="advice-panel" data-applied={report.applied ? "true" : "false"}>
      <div className="advice__head">
        <div className="advice__rec" data-testid="advice-recommendation">
          <span className="advice__label">{report.applied ? "The AI played" : "Recommended"}</span>
          <strong className={`advice__action advice__action--${advice.action}`} data-testid="advice-action">
            {sentenceCase(describeAction({ kind: advice.action, amount: advice.amount ?? null }, unit))}
          </strong>
        </div>
        <div className="advice__meters">
          <div className="meter" title="Your chance to win at showdown against the likely hands">
            <span className="meter__label">Equity</span>
            <span className="meter__value" data-testid="advice-equity">{pct(advice.equity)}</span>
          </div>
          {advice.prize_equity != null && (
            <div className="meter" title="Your share of the prizes by the Independent Chip Model, with the stacks as the hand began">
              <span className="meter__label">Prize equity</span>
              <span className="meter__value" data-testid="advice-prize-equity">{prizeText(advice.prize_equity)}</span>
            </div>
          )}
          {advice.ehs !== undefined && advice.ehs !== null && (
            <div className="meter" title="Effective hand strength (strength plus potential)">
              <span className="meter__label">EHS</span>
              <span className="meter__value">{pct(advice.ehs)}</span>
            </div>
          )}
        </div>
      </div>
      {closeCallText(advice, unit) && (
        <p className="advice__close" data-testid="advice-close-call">
          {closeCallText(advice, unit)}
        </p>
      )}
      {advice.reason && (
        <p className="advice__reason" data-testid="advice-reason">
          {advice.reason}
        </p>
      )}
      {values.length > 0 && (
        <table className="advice__values" data-testid="advice-values">
          <caption>
            Value of each action (big blinds, ± standard error, share of the search)
            {hasPrize ? "; prize equity (ICM) after it" : ""}
          </caption>
          <tbody>
            {values.map((v, i) => (
              <tr key={`${v.action}-${v.amount ?? ""}-${i}`} className={v === best ? "is-best" : ""}>
                <th scope="row">
                  {ACTION_LABEL[v.action]}
                  {v.amount ? ` ${describeAction({ kind: v.action, amount: v.amount }, unit).replace(/^\w+( to)? /, "")}` : ""}
                </th>
                <td className="advice__bar-cell">
                  <span className="advice__bar-track">
                    <span
                      className={`advice__bar ${v.value_bb >= 0 ? "advice__bar--pos" : "advice__bar--neg"}`}
                      style={{ width: `${(Math.abs(v.value_bb) / maxAbs) * 50}%`, [v.value_bb >= 0 ? "left" : "right"]: "50%" }}
                    />
                  </span>
                </td>
                <td className="num">{v.value_bb >= 0 ? "+" : ""}{v.value_bb.toFixed(2)}</td>
                {hasPrize && (
                  <td className="num advice__prize" data-testid="advice-prize" title="Expected prize after this action (ICM)">
                    {v.prize_equity != null ? prizeText(v.prize_equity) : ""}
                  </td>
                )}
                {/* One short line ("±0.20 · 75%", the caption says what they are): with
                    "searched" spelled out the column wrapped onto three lines. */}
                <td className="num muted small advice__spread" data-testid="advice-spread" title={spreadTitle(v.stderr_bb, v.share)}>
                  {[v.stderr_bb != null && v.stderr_bb > 0 ? `±${v.stderr_bb.toFixed(2)}` : "", v.share != null && v.share > 0 ? pct(v.share) : ""].filter(Boolean).join(" · ")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {advice.opponents.length > 0 && (
        <div className="advice__reads" data-testid="advice-reads">
          <h4>Reads</h4>
          <ul>
            {advice.opponents.map((o) => (
              <li key={o.seat}>
                <strong>{nameOf(o.seat)}</strong>
                {o.label ? <span className="tag">{o.label}</span> : null}
                <span className="muted small">
                  {o.vpip != null ? ` VPIP ${pct(o.vpip)}` : ""}
                  {o.pfr != null ? ` · PFR ${pct(o.pfr)}` : ""}
                  {o.aggression != null ? ` · AF ${o.aggression.toFixed(1)}` : ""}
                  {o.fold_to_bet != null ? ` · folds to a bet ${pct(o.fold_to_bet)}` : ""}
                </span>
                {o.note ? <div className="small">{o.note}</div> : null}
                {o.predicted ? (
                  <div className="small" data-testid="advice-predicted">
                    If they act now: fold {pct(o.predicted[0])} · call {pct(o.predicted[1])} · raise {pct(o.predicted[2])}
                    {o.hands != null ? ` (model, ${o.hands} hand${o.hands === 1 ? "" : "s"} of data)` : ""}
                  </div>
                ) : null}
                {o.range_grid ? <RangeGrid grid={o.range_grid} who={nameOf(o.seat)} /> : null}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="muted small advice__source">
        {report.source === "fallback" ? "Built-in policy (no AI worker answered in time)" : "AI worker"} · hand #{report.hand_no}
      </p>
    </div>
  );
}
