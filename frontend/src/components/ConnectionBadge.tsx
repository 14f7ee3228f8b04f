/** Connection state: live, connecting, reconnecting (with the next try), closed. */
import type { TableClientSnapshot } from "../protocol";
import { useNow } from "../hooks/useNow";

export function ConnectionBadge({ snapshot, onRetry }: { snapshot: TableClientSnapshot; onRetry: () => void }) {
  const now = useNow(snapshot.status === "reconnecting", 500);
  const { status } = snapshot;
  let text: string;
  switch (status) {
    case "open":
      text = snapshot.stalled ? "No answer…" : "Live";
      break;
    case "connecting":
    case "idle":
      text = "Connecting…";
      break;
    case "reconnecting": {
      const wait = snapshot.retryAt ? Math.max(0, Math.ceil((snapshot.retryAt - now) / 1000)) : 0;
      text = wait > 0 ? `Reconnecting in ${wait}s…` : "Reconnecting…";
      break;
    }
    default:
      text = snapshot.fatal ? "Disconnected" : "Closed";
  }
  return (
    <div
      className={`conn conn--${snapshot.stalled ? "stalled" : status}`}
      data-testid="connection"
      data-status={status}
      data-stalled={snapshot.stalled ? "true" : undefined}
      title={snapshot.stalled ? "Nothing heard from the server for a few seconds: the network may be down" : undefined}
      role="status"
      aria-live="polite"
    >
      <span className="conn__dot" aria-hidden="true" />
      <span className="conn__text">{text}</span>
      {(status === "reconnecting" || (status === "closed" && snapshot.fatal)) && (
        <button type="button" className="btn btn--tiny" onClick={onRetry} data-testid="reconnect-now">
          {status === "closed" ? "Reconnect" : "Retry now"}
        </button>
      )}
    </div>
  );
}
