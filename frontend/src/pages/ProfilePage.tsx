/** A player's profile: statistics per game and stakes, and the results graph, with filters. */
import { useState } from "react";
import { plural } from "../lib/plural";
import type { GameFilter, StatLine, Variant } from "../api/stats";
import { usePlayerResults, usePlayerStats } from "../hooks/useStats";
import { useSession } from "../hooks/useSession";
import { handsLabel, pct, ratio, signed } from "../lib/statsFormat";
import { ResultsChart, type ChartUnit } from "../components/ResultsChart";
import { TournamentRecord } from "../components/TournamentRecord";

const VARIANT_LABEL: Record<Variant, string> = { "no-limit": "No-Limit", limit: "Fixed-Limit" };

function StatRow({ line, label }: { line: StatLine; label: string }) {
  const f = line.figures;
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{line.hands.toLocaleString("en-US")}</td>
      <td>{pct(f.vpip)}</td>
      <td>{pct(f.pfr)}</td>
      <td>{pct(f.three_bet)}</td>
      <td>{pct(f.fold_to_three_bet)}</td>
      <td>{ratio(f.aggression_factor)}</td>
      <td>{pct(f.aggression_frequency)}</td>
      <td>{pct(f.cbet)}</td>
      <td>{pct(f.fold_to_cbet)}</td>
      <td>{pct(f.wtsd)}</td>
      <td>{pct(f.wsd)}</td>
      <td>{(line.counts.won ?? 0).toLocaleString("en-US")}</td>
      <td>{signed(f.bb_per_100)}</td>
    </tr>
  );
}

/** A `datetime-local` value as an ISO instant, or undefined when empty. */
function isoOrUndefined(value: string): string | undefined {
  return value ? new Date(value).toISOString() : undefined;
}

export function ProfilePage({ playerId }: { playerId: string }) {
  const { session } = useSession();
  const [variant, setVariant] = useState<Variant | "">("");
  const [stakes, setStakes] = useState<string>("");
  const [since, setSince] = useState("");
  const [until, setUntil] = useState("");
  const [unit, setUnit] = useState<ChartUnit>("bb");
  const filter: GameFilter = {
    variant: variant || undefined,
    bigBlind: stakes ? Number(stakes) : undefined,
  };
  const all = usePlayerStats(playerId);
  const stats = usePlayerStats(playerId, filter);
  const results = usePlayerResults(playerId, { ...filter, since: isoOrUndefined(since), until: isoOrUndefined(until) });
  const name = all.data?.name ?? playerId;
  const games = all.data?.items.map((l) => l.game).filter((g) => g !== null) ?? [];
  const bigBlinds = [...new Set(games.filter((g) => !variant || g.variant === variant).map((g) => g.big_blind))].sort((a, b) => a - b);
  const error = all.error ?? stats.error ?? results.error;
  return (
    <div className="profile" data-testid="profile">
      <div className="profile__head">
        <h1>
          {name}
          {all.data?.is_bot && <span className="tag">bot</span>}
          {session?.player_id === playerId && <span className="tag">you</span>}
        </h1>
        {all.data && <p className="muted">{handsLabel(all.data.total.hands)} at Showdown · statistics count only what was shown at the table</p>}
      </div>
      {error && <div className="error" role="alert">{error.message}</div>}
      <div className="profile__filters panel">
        <label>
          Game
          <select value={variant} onChange={(e) => { setVariant(e.target.value as Variant | ""); setStakes(""); }} data-testid="profile-variant">
            <option value="">All games</option>
            <option value="no-limit">No-Limit</option>
            <option value="limit">Fixed-Limit</option>
          </select>
        </label>
        <label>
          Big blind
          <select value={stakes} onChange={(e) => setStakes(e.target.value)} data-testid="profile-stakes">
            <option value="">All stakes</option>
            {bigBlinds.map((bb) => (
              <option key={bb} value={String(bb)}>{bb.toLocaleString("en-US")}</option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} data-testid="profile-since" />
        </label>
        <label>
          To
          <input type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} data-testid="profile-until" />
        </label>
        <div className="segmented" role="group" aria-label="Graph unit">
          <button type="button" className={unit === "bb" ? "is-on" : ""} onClick={() => setUnit("bb")} data-testid="unit-bb">big blinds</button>
          <button type="button" className={unit === "chips" ? "is-on" : ""} onClick={() => setUnit("chips")} data-testid="unit-chips">chips</button>
        </div>
      </div>
      <section className="panel">
        <h2>Results</h2>
        {results.data && results.data.items.length > 0 ? (
          <>
            <ResultsChart points={results.data.items} unit={unit} />
            <p className="muted small">{results.data.hands_per_point === 1 ? "A point per hand" : `A point every ${plural(results.data.hands_per_point, "hand")}`} of a game; all-in EV counts each all-in before the river at its equity.</p>
          </>
        ) : (
          <p className="muted" data-testid="no-results">{results.isPending ? "Loading…" : "No hands in this selection yet."}</p>
        )}
      </section>
      <section className="panel profile__stats">
        <h2>Statistics</h2>
        <div className="table-scroll">
          <table className="stats-table" data-testid="stats-table">
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col">Hands</th>
                <th scope="col" title="Voluntarily put money in pot, %">VPIP</th>
                <th scope="col" title="Preflop raise, %">PFR</th>
                <th scope="col">3-bet</th>
                <th scope="col">F3B</th>
                <th scope="col" title="Aggression factor">AF</th>
                <th scope="col" title="Aggression frequency, %">AFq</th>
                <th scope="col">C-bet</th>
                <th scope="col">FCB</th>
                <th scope="col" title="Went to showdown, %">WTSD</th>
                <th scope="col" title="Won at showdown, %">W$SD</th>
                <th scope="col">Won</th>
                <th scope="col">bb/100</th>
              </tr>
            </thead>
            <tbody>
              {stats.data?.items.map((line) =>
                line.game ? <StatRow key={`${line.game.variant}-${line.game.stakes}`} line={line} label={`${VARIANT_LABEL[line.game.variant]} ${line.game.stakes}`} /> : null,
              )}
              {stats.data && stats.data.items.length > 1 && <StatRow line={stats.data.total} label="All" />}
            </tbody>
          </table>
        </div>
      </section>
      <TournamentRecord playerId={playerId} />
    </div>
  );
}
