/** Cumulative winnings over hands: total, showdown, non-showdown and all-in EV lines (recharts). */
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { plural } from "../lib/plural";
import type { ResultPoint } from "../api/stats";

export type ChartUnit = "chips" | "bb";

/** The graph's rows in chips or big blinds, starting from 0 before the first hand. */
export function chartRows(points: ResultPoint[], unit: ChartUnit) {
  const rows = points.map((p) =>
    unit === "chips"
      ? { hands: p.hands, won: p.won, showdown: p.won_showdown, nonShowdown: p.won_no_showdown, allinEv: p.allin_ev }
      : { hands: p.hands, won: p.won_bb, showdown: p.won_showdown_bb, nonShowdown: p.won_no_showdown_bb, allinEv: p.allin_ev_bb },
  );
  return [{ hands: 0, won: 0, showdown: 0, nonShowdown: 0, allinEv: 0 }, ...rows];
}

export function ResultsChart({ points, unit }: { points: ResultPoint[]; unit: ChartUnit }) {
  const rows = chartRows(points, unit);
  const digits = unit === "bb" ? 1 : 0;
  return (
    <div className="results-chart" data-testid="results-chart">
      <ResponsiveContainer width="100%" height={320}>
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="rgba(255,255,255,0.08)" />
          <XAxis dataKey="hands" type="number" domain={[0, "dataMax"]} stroke="#9aa7b4" tickFormatter={(v: number) => v.toLocaleString("en-US")} />
          <YAxis stroke="#9aa7b4" tickFormatter={(v: number) => v.toFixed(digits)} width={64} />
          <Tooltip
            formatter={(v) => (typeof v === "number" ? v.toFixed(digits) : String(v))}
            labelFormatter={(v) => `after ${plural(Number(v), "hand")}`}
            contentStyle={{ background: "#17202a", border: "1px solid #2c3a48" }}
          />
          <Legend />
          <Line type="monotone" dataKey="won" name={`won (${unit})`} stroke="#e6be5a" dot={false} strokeWidth={2} isAnimationActive={false} />
          <Line type="monotone" dataKey="showdown" name="showdown" stroke="#4fb3ff" dot={false} isAnimationActive={false} />
          <Line type="monotone" dataKey="nonShowdown" name="non-showdown" stroke="#ff6b6b" dot={false} isAnimationActive={false} />
          <Line type="monotone" dataKey="allinEv" name="all-in EV" stroke="#7ddc84" dot={false} strokeDasharray="5 4" isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
