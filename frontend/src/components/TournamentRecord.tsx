/** A player's tournaments on their profile: played, cashes, wins, ROI, and each result. */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { playerTournaments } from "../api/tournaments";
import { paths } from "../routes";

export function TournamentRecord({ playerId }: { playerId: string }) {
  const query = useQuery({ queryKey: ["player-tournaments", playerId], queryFn: () => playerTournaments(playerId) });
  const record = query.data;
  return (
    <section className="panel" data-testid="tournament-record">
      <h2>Tournaments</h2>
      {!record || record.played === 0 ? (
        <p className="muted">{query.isPending ? "Loading…" : "No tournament finished yet."}</p>
      ) : (
        <>
          <p data-testid="tournament-roi">
            {record.played} played · {record.cashes} in the money · {record.wins} won · buy-ins {record.buy_ins} · prizes {record.prizes} · ROI{" "}
            {record.roi === null ? "—" : `${(record.roi * 100).toFixed(0)}%`}
          </p>
          <table className="table-list">
            <thead>
              <tr>
                <th>Tournament</th>
                <th>Place</th>
                <th>Prize</th>
              </tr>
            </thead>
            <tbody>
              {record.results.map((r) => (
                <tr key={r.tournament_id}>
                  <td>
                    <Link to={paths.tournament(r.tournament_id)}>{r.name}</Link>
                  </td>
                  <td className="num">
                    {r.place ?? "—"} of {r.entrants}
                  </td>
                  <td className="num">{r.prize}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
