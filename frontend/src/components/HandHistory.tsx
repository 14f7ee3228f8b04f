/** Your past hands (newest first) and the replayer for one of them. */
import { useCallback, useEffect, useState } from "react";
import { downloadPhh, getHand, listMyHands } from "../api";
import type { HandRecord, HandSummary } from "../protocol";
import { formatChips } from "../lib/chips";
import { saveText } from "../lib/download";
import { plural } from "../lib/plural";
import { Card } from "./Card";
import { Replayer } from "./Replayer";

export interface HandListProps {
  token: string | null;
  tableId?: string | null;
  onOpen: (hand: HandSummary) => void;
  /** bump to reload */
  refreshKey?: number;
  pageSize?: number;
}

export function HandList({ token, tableId, onOpen, refreshKey = 0, pageSize = 20 }: HandListProps) {
  const [items, setItems] = useState<HandSummary[] | null>(null);
  const [total, setTotal] = useState(0);
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    setError(null);
    // The server picks the table's hands: filtering one page of them here missed older ones.
    listMyHands(token, pageSize, offset, tableId ?? null)
      .then((page) => {
        if (cancelled) return;
        setItems(page.items);
        setTotal(page.total);
      })
      .catch((e: Error) => !cancelled && setError(e.message));
    return () => {
      cancelled = true;
    };
  }, [token, tableId, offset, refreshKey, pageSize]);
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

export function HandReplay({ handId, token, playerId }: { handId: string; token: string | null; playerId: string | null }) {
  const [record, setRecord] = useState<HandRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    setRecord(null);
    setError(null);
    getHand(handId, token)
      .then((r) => !cancelled && setRecord(r))
      .catch((e: Error) => !cancelled && setError(e.message));
    return () => {
      cancelled = true;
    };
  }, [handId, token]);
  const download = useCallback(() => {
    downloadPhh(handId, token)
      .then((text) => saveText(`showdown-${handId}.phh`, text))
      .catch((e: Error) => setError(e.message));
  }, [handId, token]);
  if (error) return <p className="error-text" data-testid="replay-error">{error}</p>;
  if (!record) return <p className="muted">Loading the hand…</p>;
  const mySeat = record.seats.find((s) => s.player_id === playerId)?.seat ?? null;
  const review = mySeat !== null ? { handId, token } : undefined;
  return <Replayer record={record} viewerSeat={mySeat} onDownloadPhh={download} review={review} />;
}
