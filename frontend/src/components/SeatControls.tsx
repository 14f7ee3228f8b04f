/** Your seat's controls: take a seat or why you cannot, your stack, sit out or back, rebuy, stand up. */
import { useMemo } from "react";
import { useNavigate } from "react-router";
import type { ClientCommand, HostState, SeatView, TableView } from "../protocol";
import { formatChips } from "../lib/chips";
import { paths } from "../routes";
import type { TableNotice } from "../hooks/useTable";
import { rebuyRange, type SeatFlow } from "../hooks/useSeatFlow";

export interface SeatControlsProps {
  tableId: string;
  view: TableView;
  /** your seat, or null */
  me: SeatView | null;
  watch: boolean;
  playerId: string | null;
  notices: readonly TableNotice[];
  /** your seat request at a table where the host approves seats, until answered (#34) */
  myRequest: HostState["seat_requests"][number] | null;
  /** a tournament seats its players: no chips added, no standing up (#35) */
  tournament: boolean;
  flow: Pick<SeatFlow, "sitOutRequested" | "sitOut" | "openRebuy">;
  send: (command: ClientCommand) => string | null;
}

/** The chips you left with (your latest "left" notice), said until you sit again. */
export function leftWithStack(notices: readonly TableNotice[], playerId: string | null): number | null {
  const mine = [...notices].reverse().find((n) => n.by === "left" && n.left?.playerId === playerId);
  return mine?.left ? mine.left.stack : null;
}

export function SeatControls({ tableId, view, me, watch, playerId, notices, myRequest, tournament, flow, send }: SeatControlsProps) {
  const navigate = useNavigate();
  const seated = me !== null;
  const unit = view.config.chip_unit;
  const tableFull = view.seats.length >= view.config.seats;
  const leftWith = useMemo(() => leftWithStack(notices, playerId), [notices, playerId]);
  const handActive = !!me && view.hand_in_progress && me.has_cards;
  const rebuyMax = rebuyRange(view, me).max;
  return (
    <div className="seat-controls" data-testid="seat-controls">
      {!seated && watch && (
        <button
          type="button"
          className="btn btn--primary btn--small"
          onClick={() => navigate(paths.table(tableId, "join"))}
          disabled={tableFull}
          title={tableFull ? "Every seat is taken" : undefined}
          data-testid="take-seat"
        >
          {tableFull ? "Table full" : "Take a seat"}
        </button>
      )}
      {!seated && leftWith !== null && (
        <span className="muted small" data-testid="left-with">
          You left with <strong>{formatChips(leftWith, unit)}</strong>
        </span>
      )}
      {!seated && !watch && !myRequest && (
        <span className="muted small" data-testid="seat-hint">
          {tableFull ? "The table is full: watch, or pick another table in the lobby." : "Click an empty seat to sit down."}
        </span>
      )}
      {!seated && myRequest && (
        <span className="tag" role="status" data-testid="seat-request-pending">
          Seat {myRequest.seat} asked for: waiting for the host to approve
        </span>
      )}
      {me && (
        <>
          <span className="seat-controls__me">
            Seat {me.seat} · <strong>{formatChips(me.stack, unit)}</strong>
          </span>
          {me.state === "sitting_out" ? (
            me.stack >= view.config.big_blind && (
              <button type="button" className="btn btn--small btn--primary" onClick={() => send({ type: "sit_back" })} data-testid="sit-back">
                I'm back
              </button>
            )
          ) : me.waiting_for_big_blind ? (
            <span className="tag" data-testid="waiting-bb">
              Waiting for the big blind
            </span>
          ) : (
            <button type="button" className="btn btn--small btn--ghost" disabled={flow.sitOutRequested} onClick={flow.sitOut} data-testid="sit-out">
              {flow.sitOutRequested ? "Sitting out next hand" : "Sit out"}
            </button>
          )}
          {!tournament && (
            <>
              <button
                type="button"
                className={`btn btn--small ${me.stack < view.config.big_blind ? "btn--primary" : "btn--ghost"}`}
                disabled={handActive || rebuyMax <= 0}
                onClick={flow.openRebuy}
                title={handActive ? "Between hands" : rebuyMax <= 0 ? "You have the maximum buy-in" : "Add chips"}
                data-testid="rebuy"
              >
                {me.stack === 0 ? "Rebuy" : "Top up"}
              </button>
              <button
                type="button"
                className="btn btn--small btn--danger"
                onClick={() => {
                  if (!handActive || window.confirm("Leave the table? Your hand will be folded when your turn comes.")) send({ type: "stand" });
                }}
                data-testid="stand-up"
              >
                Stand up
              </button>
            </>
          )}
        </>
      )}
    </div>
  );
}
