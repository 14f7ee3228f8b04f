/** The table page before its first state: the way back, the connection, or why it failed. */
import { Link } from "react-router";
import type { TableClientSnapshot } from "../protocol";
import { paths } from "../routes";
import type { Toast } from "../hooks/useTable";
import { ConnectionBadge } from "./ConnectionBadge";
import { Toasts } from "./Toasts";

export interface TableLoadingProps {
  title: string;
  snapshot: TableClientSnapshot;
  onRetry: () => void;
  toasts: Toast[];
  onDismiss: (id: number) => void;
}

export function TableLoading({ title, snapshot, onRetry, toasts, onDismiss }: TableLoadingProps) {
  return (
    <div className="table-screen table-screen--loading" data-testid="table-screen">
      <div className="table-screen__top">
        <Link to={paths.lobby()} className="btn btn--ghost btn--small">
          ← Lobby
        </Link>
        <h2>{title}</h2>
        <ConnectionBadge snapshot={snapshot} onRetry={onRetry} />
      </div>
      <div className="loading-felt">
        {snapshot.fatal ? (
          <div className="loading-felt__msg" role="alert" data-testid="table-fatal">
            <p>{snapshot.fatal.message}</p>
            <Link to={paths.lobby()} className="btn btn--primary">
              Back to the lobby
            </Link>
          </div>
        ) : (
          <div className="loading-felt__msg">
            <span className="spinner" aria-hidden="true" /> Taking you to the table…
          </div>
        )}
      </div>
      <Toasts toasts={toasts} onDismiss={onDismiss} />
    </div>
  );
}
