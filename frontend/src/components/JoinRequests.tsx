/** The host's prompt for seat requests (#34), over the table whichever tab is open: who
 * asks for which seat with how much, approve or reject at once. */
import type { ClientCommand, HostState } from "../protocol";
import { formatChips } from "../lib/chips";

export function JoinRequests({ host, unit, send }: { host: HostState; unit: string; send: (command: ClientCommand) => string | null }) {
  if (host.seat_requests.length === 0) return null;
  return (
    <div className="join-requests" role="alert" data-testid="join-requests">
      {host.seat_requests.map((r) => (
        <p key={r.player_id} className="join-requests__one">
          <span>
            <strong>{r.name}</strong> asks to sit in seat {r.seat} with {formatChips(r.buy_in, unit)}
          </span>{" "}
          <button type="button" className="btn btn--primary btn--small" onClick={() => send({ type: "approve", player_id: r.player_id })} data-testid={`prompt-approve-${r.player_id}`}>
            Approve
          </button>{" "}
          <button type="button" className="btn btn--ghost btn--small" onClick={() => send({ type: "reject", player_id: r.player_id })} data-testid={`prompt-reject-${r.player_id}`}>
            Reject
          </button>
        </p>
      ))}
    </div>
  );
}
