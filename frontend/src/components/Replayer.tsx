/** Step through a finished hand: the table as it was after each event. */
import { Icon } from "./Icon";
import { useEffect, useMemo, useState } from "react";
import type { HandRecord } from "../protocol";
import { buildReplay } from "../lib/replay";
import { stepToView } from "../lib/replayView";
import { describeEvent } from "../lib/events";
import { formatChips } from "../lib/chips";
import { PokerTable } from "./PokerTable";
import { HandReview } from "./HandReview";

export interface ReplayerProps {
  record: HandRecord;
  /** your seat in the hand (cards you held) */
  viewerSeat: number | null;
  phhHref?: string;
  onDownloadPhh?: () => void;
  /** your hand's review (you were dealt in): asked for and shown beside the steps */
  review?: { handId: string; token: string | null } | undefined;
}

export function Replayer({ record, viewerSeat, onDownloadPhh, review }: ReplayerProps) {
  const steps = useMemo(() => buildReplay(record, "all"), [record]);
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const last = steps.length - 1;
  useEffect(() => {
    if (!playing) return;
    if (index >= last) {
      setPlaying(false);
      return;
    }
    const id = setTimeout(() => setIndex((i) => Math.min(last, i + 1)), 900);
    return () => clearTimeout(id);
  }, [playing, index, last]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
      if (e.key === "ArrowRight") setIndex((i) => Math.min(last, i + 1));
      else if (e.key === "ArrowLeft") setIndex((i) => Math.max(0, i - 1));
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [last]);
  const view = stepToView(record, steps, index, viewerSeat);
  const unit = record.config.chip_unit;
  const nameOf = (seat: number | null | undefined) => record.seats.find((s) => s.seat === seat)?.name ?? (seat == null ? "" : `Seat ${seat}`);
  const step = steps[index]!;
  return (
    <div className="replayer" data-testid="replayer">
      <div className="replayer__table">
        <PokerTable view={view} clock={null} clockOffset={0} canSit={false} onSit={() => {}} tableName={`Hand #${record.hand_no}`} />
      </div>
      <div className="replayer__controls" role="group" aria-label="Replay controls">
        <button type="button" className="btn btn--step" onClick={() => setIndex(0)} disabled={index === 0} aria-label="First"><Icon name="first" size={14} /></button>
        <button type="button" className="btn btn--step" onClick={() => setIndex((i) => Math.max(0, i - 1))} disabled={index === 0} aria-label="Previous" data-testid="replay-prev"><Icon name="prev" size={14} /></button>
        <button type="button" className="btn btn--primary btn--small" onClick={() => { if (index >= last) setIndex(0); setPlaying((p) => !p); }} data-testid="replay-play">
          <Icon name={playing ? "pause" : "play"} size={13} /> {playing ? "Pause" : "Play"}
        </button>
        <button type="button" className="btn btn--step" onClick={() => setIndex((i) => Math.min(last, i + 1))} disabled={index >= last} aria-label="Next" data-testid="replay-next"><Icon name="next" size={14} /></button>
        <button type="button" className="btn btn--step" onClick={() => setIndex(last)} disabled={index >= last} aria-label="Last"><Icon name="last" size={14} /></button>
        <span className="replayer__pos" data-testid="replay-position">{index} / {last}</span>
        {onDownloadPhh && (
          <button type="button" className="btn btn--ghost btn--small" onClick={onDownloadPhh} data-testid="download-phh">
            <Icon name="download" size={14} /> PHH
          </button>
        )}
      </div>
      <p className="replayer__caption" data-testid="replay-caption">
        {step.event ? describeEvent(step.event, nameOf, unit) : `Blinds ${formatChips(record.config.small_blind, unit)}/${formatChips(record.config.big_blind, unit)} · ${record.seats.length} players`}
      </p>
      {review && <HandReview handId={review.handId} token={review.token} step={index} unit={unit} onJump={(i) => { setPlaying(false); setIndex(Math.min(last, i)); }} />}
      <ol className="replayer__events">
        {record.events.map((e, i) => (
          <li key={i} className={i + 1 === index ? "is-current" : i + 1 < index ? "is-past" : ""}>
            <button type="button" className="linklike" onClick={() => setIndex(i + 1)}>
              {describeEvent(e, nameOf, unit)}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
