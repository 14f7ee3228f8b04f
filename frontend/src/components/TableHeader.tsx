/** The table page's top bar: the way back, the table's name and stakes, your seat's controls, the connection. */
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { TableClientSnapshot, TableView } from "../protocol";
import { formatChips } from "../lib/chips";
import { paths } from "../routes";
import { ConnectionBadge } from "./ConnectionBadge";

export interface TableHeaderProps {
  title: string;
  view: TableView;
  seated: boolean;
  snapshot: TableClientSnapshot;
  onRetry: () => void;
  /** the seat controls */
  children: ReactNode;
}

export function TableHeader({ title, view, seated, snapshot, onRetry, children }: TableHeaderProps) {
  const unit = view.config.chip_unit;
  return (
    <div className="table-screen__top">
      <Link to={paths.lobby()} className="btn btn--ghost btn--small" data-testid="back-to-lobby">
        ← Lobby
      </Link>
      <div className="table-screen__title">
        <h2>{title}</h2>
        <span className="muted small">
          {view.config.variant === "limit" ? "Fixed-Limit" : "No-Limit"} · {formatChips(view.config.small_blind, unit)}/{formatChips(view.config.big_blind, unit)}
          {view.config.ante ? ` · ante ${formatChips(view.config.ante, unit)}` : ""}
          {!seated ? " · watching" : ""}
        </span>
      </div>
      {children}
      <ConnectionBadge snapshot={snapshot} onRetry={onRetry} />
    </div>
  );
}
