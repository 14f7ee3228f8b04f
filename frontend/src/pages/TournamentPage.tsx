/** One tournament: register, the structure, the prizes, the players and their chips, the
 * tables (watch or take your seat), the level and time to the next; the final standings;
 * the rebuy period, and Rebuy / Add-on while the player may take them. */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { useState } from "react";
import {
  addOnTournament,
  getTournament,
  rebuyTournament,
  registerTournament,
  startTournament,
  unregisterTournament,
  type TournamentDetail,
} from "../api/tournaments";
import { useSession } from "../hooks/useSession";
import { paths } from "../routes";
import { TournamentBanner } from "../components/TournamentBanner";

export function TournamentPage({ tournamentId }: { tournamentId: string }) {
  const { session } = useSession();
  const queries = useQueryClient();
  const key = ["tournament", tournamentId];
  const query = useQuery({
    queryKey: key,
    queryFn: () => getTournament(tournamentId),
    refetchInterval: 2000,
  });
  const [error, setError] = useState<string | null>(null);
  const t = query.data;
  if (query.error) return <p className="error-text">{query.error.message}</p>;
  if (!t) return <p className="muted">Loading…</p>;
  const me = t.players.find((p) => p.player_id === session?.player_id) ?? null;
  const act = async (call: (id: string, token: string | null) => Promise<TournamentDetail>) => {
    try {
      setError(null);
      queries.setQueryData(key, await call(tournamentId, session?.token ?? null));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div className="lobby" data-testid="tournament-page" data-status={t.status}>
      <div className="lobby__head">
        <div>
          <h1>{t.name}</h1>
          <p className="muted">
            {t.kind === "sng" ? "Sit-and-go" : "Multi-table"} · {t.registered}/{t.max_players} players · buy-in {t.buy_in} · prize pool {t.prize_pool} ·{" "}
            {t.starting_chips} chips · {t.structure}, levels by {t.levels_by === "time" ? `${Math.round(t.level_seconds / 60)} min` : `${t.level_hands} hands`}
          </p>
          {t.rebuy_levels > 0 && <RebuyPeriod t={t} />}
        </div>
        <div>
          {t.status === "running" && me?.may_rebuy && (
            <button type="button" className="btn btn--primary" onClick={() => void act(rebuyTournament)} data-testid="rebuy">
              Rebuy {t.rebuy_chips} chips ({t.buy_in})
            </button>
          )}{" "}
          {t.status === "running" && me?.may_add_on && (
            <button type="button" className="btn btn--primary" onClick={() => void act(addOnTournament)} data-testid="add-on">
              Add-on {t.add_on} chips ({t.buy_in})
            </button>
          )}{" "}
          {t.status === "registering" && !me && (
            <button type="button" className="btn btn--primary" onClick={() => void act(registerTournament)} data-testid="register">
              Register
            </button>
          )}
          {t.status === "registering" && me && (
            <>
              <button type="button" className="btn btn--primary" onClick={() => void act(startTournament)} data-testid="start-now">
                Start now (bots fill)
              </button>{" "}
              <button type="button" className="btn btn--ghost" onClick={() => void act(unregisterTournament)} data-testid="unregister">
                Unregister
              </button>
            </>
          )}
          {t.status === "running" && me?.table_id && (
            <Link className="btn btn--primary" to={paths.table(me.table_id)} data-testid="my-table">
              To my table
            </Link>
          )}
        </div>
      </div>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {t.clock && <TournamentBanner tournament={t.clock} />}
      {me?.awaiting_rebuy && (
        <p className="panel" data-testid="awaiting-rebuy">
          You are busted: rebuy before the rebuy period ends to play on, or you are out.
        </p>
      )}
      {me?.place != null && (
        <p className="panel" data-testid="my-finish">
          You finished in place {me.place}
          {me.prize ? `, winning ${me.prize}` : ""}.
        </p>
      )}
      <div className="tournament-grid">
        <section className="panel">
          <h2>{t.status === "finished" ? "Final standings" : "Players"}</h2>
          <table className="table-list" data-testid="standings">
            <thead>
              <tr>
                <th>#</th>
                <th>Player</th>
                <th>Chips</th>
                <th>Prize</th>
              </tr>
            </thead>
            <tbody>
              {t.players.map((p, i) => (
                <tr key={p.player_id} data-testid="standing-row" className={p.player_id === session?.player_id ? "is-me" : ""}>
                  <td className="num">{p.place ?? i + 1}</td>
                  <td>
                    {p.name}
                    {p.is_bot ? <small className="muted"> bot</small> : null}
                  </td>
                  <td className="num">
                    {p.awaiting_rebuy ? "busted" : p.place == null || p.place === 1 ? p.chips : "out"}
                    {p.rebuys || p.add_on ? (
                      <small className="muted">
                        {" "}
                        {p.rebuys ? `${p.rebuys}R` : ""}
                        {p.add_on ? "+A" : ""}
                      </small>
                    ) : null}
                  </td>
                  <td className="num">{p.prize || ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className="panel">
          <h2>Prizes</h2>
          <ol data-testid="prizes">
            {t.prizes.map((amount, i) => (
              <li key={i}>{amount}</li>
            ))}
          </ol>
          {t.tables.length > 0 && (
            <>
              <h2>Tables</h2>
              <ul data-testid="tournament-tables">
                {t.tables.map((table) => (
                  <li key={table.table_id}>
                    <Link to={paths.table(table.table_id, "watch")}>{table.table_id}</Link> · {table.players} players · {table.chips} chips
                  </li>
                ))}
              </ul>
            </>
          )}
          <h2>Structure</h2>
          <table className="table-list" data-testid="structure">
            <thead>
              <tr>
                <th>Level</th>
                <th>Blinds</th>
                <th>Ante</th>
              </tr>
            </thead>
            <tbody>
              {t.levels.map((level, i) => (
                <tr key={i} className={t.clock?.level === i + 1 ? "is-me" : ""}>
                  <td className="num">{i + 1}</td>
                  <td className="num">
                    {level.small_blind}/{level.big_blind}
                  </td>
                  <td className="num">{level.ante ? `${level.ante}${level.big_blind_ante ? " BB" : ""}` : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </div>
  );
}

/** The rebuy period: its levels, the chips, the add-on, open or over, taken so far. */
function RebuyPeriod({ t }: { t: TournamentDetail }) {
  const levels = t.rebuy_levels === 1 ? "level 1" : `levels 1–${t.rebuy_levels}`;
  const limit = t.max_rebuys ? `, at most ${t.max_rebuys} each` : "";
  const addOn = t.add_on ? ` · add-on ${t.add_on} chips in level ${t.rebuy_levels}` : "";
  const state = t.status !== "running" ? "" : t.rebuy_open ? (t.add_on_open ? " · add-on open" : " · rebuys open") : " · rebuys over";
  return (
    <p className="muted" data-testid="rebuy-period">
      Rebuys in {levels}: {t.rebuy_chips} chips for {t.buy_in}, at or below the starting stack or busted{limit}
      {addOn}
      {state} · {t.rebuys} rebuys, {t.add_ons} add-ons
    </p>
  );
}
