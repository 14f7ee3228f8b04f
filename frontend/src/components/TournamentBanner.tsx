/** The clock at a tournament's table: level, stakes, time to the next level (or the
 * break's end), players left; hand-for-hand, break, final table and the rebuy period said
 * plainly; the latest knock-out as a notice. */
import type { TournamentView } from "../protocol";
import { formatChips } from "../lib/chips";
import { useNow } from "../hooks/useNow";
import { useEffect, useState } from "react";

export function clockText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function TournamentBanner({ tournament }: { tournament: TournamentView }) {
  // The server's seconds_to_next is as of the last state: counted down here between states.
  const [received, setReceived] = useState(() => Date.now());
  useEffect(() => setReceived(Date.now()), [tournament]);
  const now = useNow(tournament.seconds_to_next != null && tournament.status === "running", 1000);
  const left = tournament.seconds_to_next != null ? tournament.seconds_to_next - (now - received) / 1000 : null;
  const last = tournament.eliminations?.[tournament.eliminations.length - 1] ?? null;
  const stakes = `${formatChips(tournament.small_blind)}/${formatChips(tournament.big_blind)}`;
  return (
    <div className="tournament-banner" role="status" data-testid="tournament-banner">
      <strong>{tournament.name}</strong>
      {tournament.status === "finished" ? (
        <span data-testid="tournament-finished"> · finished</span>
      ) : (
        <>
          <span data-testid="tournament-level">
            {" "}
            · Level {tournament.level} · {stakes}
            {tournament.ante ? ` ante ${tournament.ante}${tournament.big_blind_ante ? " (BB)" : ""}` : ""}
          </span>
          {(left !== null || tournament.on_break) && (
            <span data-testid="tournament-clock">
              {" "}
              · {tournament.on_break ? "break ends in" : "next level in"} {clockText(left)}
            </span>
          )}
          <span>
            {" "}
            · {tournament.players_left}/{tournament.entrants} left · avg {tournament.average_stack}
          </span>
          {tournament.hand_for_hand && (
            <span className="tag" data-testid="hand-for-hand">
              {" "}
              hand-for-hand
            </span>
          )}
          {tournament.rebuy_open && (
            <span className="tag" data-testid="rebuys-open">
              {" "}
              {tournament.add_on_open ? "rebuys and add-on open" : "rebuys open"} (tournament page)
            </span>
          )}
          {tournament.final_table && (
            <span className="tag" data-testid="final-table">
              {" "}
              final table
            </span>
          )}
        </>
      )}
      {last && (
        <div className="muted" data-testid="elimination-notice">
          {last.name} is out in place {last.place}
          {last.prize ? ` (wins ${last.prize})` : ""}
        </div>
      )}
    </div>
  );
}
