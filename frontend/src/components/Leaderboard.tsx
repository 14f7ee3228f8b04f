/** The lobby's leaderboard: bb/100 over at least a minimum of hands, per game type. */
import { useState } from "react";
import type { Variant } from "../api/stats";
import { useLeaderboard } from "../hooks/useStats";
import { Link } from "react-router";
import { paths } from "../routes";
import { handsLabel, signed } from "../lib/statsFormat";

const MIN_HANDS = [1, 50, 200, 1000];

export function Leaderboard() {
  const [variant, setVariant] = useState<Variant>("no-limit");
  const [minHands, setMinHands] = useState(50);
  const { data, error, isPending } = useLeaderboard(variant, minHands);
  return (
    <section className="panel leaderboard" data-testid="leaderboard">
      <div className="leaderboard__head">
        <h2>Leaderboard</h2>
        <div className="segmented" role="group" aria-label="Game type">
          <button type="button" className={variant === "no-limit" ? "is-on" : ""} onClick={() => setVariant("no-limit")} data-testid="leaders-no-limit">No-Limit</button>
          <button type="button" className={variant === "limit" ? "is-on" : ""} onClick={() => setVariant("limit")} data-testid="leaders-limit">Fixed-Limit</button>
        </div>
        <label className="small">
          at least{" "}
          <select value={minHands} onChange={(e) => setMinHands(Number(e.target.value))} data-testid="leaders-min-hands">
            {MIN_HANDS.map((n) => (
              <option key={n} value={n}>{n === 1 ? "1 hand" : `${n} hands`}</option>
            ))}
          </select>
        </label>
      </div>
      {error && <div className="error" role="alert">{error.message}</div>}
      {data && data.items.length === 0 && <p className="muted">Nobody has played {handsLabel(minHands)} of this game yet.</p>}
      {isPending && <p className="muted">Loading…</p>}
      {data && data.items.length > 0 && (
        <table className="leaderboard__table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Player</th>
              <th scope="col">Hands</th>
              <th scope="col">bb/100</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((row) => (
              <tr key={row.player_id} data-testid="leader-row">
                <td>{row.rank}</td>
                <td>
                  <Link to={paths.player(row.player_id)}>{row.name ?? row.player_id}</Link>
                  {row.is_bot && <span className="tag">bot</span>}
                </td>
                <td>{row.hands.toLocaleString("en-US")}</td>
                <td className={row.bb_per_100 >= 0 ? "pos" : "neg"}>{signed(row.bb_per_100)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
