/** Your past hands (newest first) and the replayer for one, served by the data cache. */
import { useCallback, useState } from "react";
import { downloadHandExport, downloadPhh } from "../api";
import type { HandSummary } from "../protocol";
import { formatChips } from "../lib/chips";
import { saveText } from "../lib/download";
import { plural } from "../lib/plural";
import { useSession } from "../hooks/useSession";
import { useHandRecord, useMyHands } from "../hooks/useHands";
import { Card } from "./Card";
import { ExportButtons } from "./ExportButtons";
import { Replayer } from "./Replayer";

export interface HandListProps {
  /** one table's hands (the server picks them: filtering a page here missed older ones) */
  tableId?: string | null;
  onOpen: (hand: HandSummary) => void;
  pageSize?: number;
}

export function HandList({ tableId = null, onOpen, pageSize = 20 }: HandListProps) {
  const [offset, setOffset] = useState(0);
  const page = useMyHands(tableId, pageSize, offset);
  const items = page.data?.items ?? null;
  const total = page.data?.total ?? 0;
  const error = page.error?.message ?? null;
  if (error) return <p className="error-text" data-testid="hands-error">{error}</p>;
  if (!items) return <p className="muted">Loading hands…</p>;
  if (!items.length) return <p className="muted" data-testid="hands-empty">No finished hands yet.</p>;
  return (
    <div className="hand-list" data-testid="hand-list">
      <ul>
        {items.map((h) => {
          const unit = h.chip_unit ?? "1";
          return (
            <li key={h.hand_id}>
              <button type="button" className="hand-list__item" onClick={() => onOpen(h)} data-testid="hand-item" data-hand-id={h.hand_id}>
                <span className="hand-list__no">#{h.hand_no}</span>
                <span className="hand-list__cards" data-testid="hand-my-cards" title="Your cards">
                  {(h.hole_cards ?? []).map((c) => (
                    <Card key={c} code={c} size="xs" />
                  ))}
                </span>
                <span className="hand-list__table">
                  {h.board && h.board.length > 0 ? (
                    <span className="hand-list__board">
                      {h.board.map((c) => (
                        <Card key={c} code={c} size="xs" />
                      ))}
                    </span>
                  ) : (
                    <span className="muted small">no flop</span>
                  )}
                  <span className="hand-list__meta" data-testid="hand-meta">
                    {h.table_name && <strong className="hand-list__table-name" data-testid="hand-table-name">{h.table_name}</strong>}
                    {h.table_name ? " · " : ""}
                    {[h.players ? plural(h.players, "player") : null, h.played_at ? new Date(h.played_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : null]
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                </span>
                {typeof h.net === "number" && (
                  <span className={`hand-list__net ${h.net > 0 ? "pos" : h.net < 0 ? "neg" : ""}`}>
                    {h.net > 0 ? "+" : ""}
                    {formatChips(h.net, unit)}
                  </span>
                )}
                <span className="hand-list__go" aria-hidden="true">▶</span>
              </button>
            </li>
          );
        })}
      </ul>
      {total > pageSize && (
        <div className="pager">
          <button type="button" className="btn btn--small btn--ghost" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - pageSize))}>
            Newer
          </button>
          <span className="muted small">
            {offset + 1}–{Math.min(total, offset + pageSize)} of {total}
          </span>
          <button type="button" className="btn btn--small btn--ghost" disabled={offset + pageSize >= total} onClick={() => setOffset(offset + pageSize)}>
            Older
          </button>
        </div>
      )}
    </div>
  );
}

export function HandReplay({ handId }: { handId: string }) {
  const { session } = useSession();
  const token = session?.token ?? null;
  const hand = useHandRecord(handId);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const download = useCallback(() => {
    downloadPhh(handId, token)
      .then((text) => saveText(`showdown-${handId}.phh`, text))
      .catch((e: Error) => setDownloadError(e.message));
  }, [handId, token]);
  const error = hand.error?.message ?? downloadError;
  if (error) return <p className="error-text" data-testid="replay-error">{error}</p>;
  const record = hand.data;
  if (!record) return <p className="muted">Loading the hand…</p>;
  const mySeat = record.seats.find((s) => s.player_id === session?.player_id)?.seat ?? null;
  const review = mySeat !== null ? { handId, token } : undefined;
  return (
    <>
      <Replayer record={record} viewerSeat={mySeat} onDownloadPhh={download} review={review} />
      <ExportButtons
        label="This hand for other poker software"
        testId="hand-export"
        fetchText={(format) => downloadHandExport(handId, format, token)}
        filename={(suffix) => `showdown-${handId}.${suffix}`}
      />
    </>
  );
}
