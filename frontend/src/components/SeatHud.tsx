/**
 * A seat's HUD: VPIP/PFR/AF and hands on one line, the fuller statistics in a
 * popover on hover, focus or tap. Counted by the server from what was public at
 * the table (GET /api/players/{id}/stats), bots like anyone.
 */
import { useState } from "react";
import { usePlayerStats } from "../hooks/useStats";
import { handsLabel, pct, pctLabel, ratio, signed } from "../lib/statsFormat";
import { Link } from "react-router";
import { paths } from "../routes";

export function SeatHud({ playerId, name }: { playerId: string; name: string }) {
  const { data } = usePlayerStats(playerId);
  const [open, setOpen] = useState(false);
  if (!data) return null;
  const f = data.total.figures;
  const hands = data.total.hands;
  return (
    <div
      className={`seat-hud${open ? " is-open" : ""}`}
      data-testid={`hud-${playerId}`}
      onMouseLeave={() => setOpen(false)}
    >
      <button
        type="button"
        className="seat-hud__line"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-label={`${name}'s statistics: VPIP ${pct(f.vpip)}, PFR ${pct(f.pfr)}, aggression ${ratio(f.aggression_factor)}, ${handsLabel(hands)}`}
        title="VPIP / PFR / AF (hands)"
      >
        {pct(f.vpip)}/{pct(f.pfr)}/{ratio(f.aggression_factor)} <span className="seat-hud__hands">({hands.toLocaleString("en-US")})</span>
      </button>
      <div className="seat-hud__popover" role="dialog" aria-label={`${name}'s statistics`} data-testid={`hud-popover-${playerId}`}>
        <div className="seat-hud__title">
          {name} · {handsLabel(hands)}
        </div>
        <dl className="seat-hud__grid">
          <dt>VPIP</dt>
          <dd>{pctLabel(f.vpip)}</dd>
          <dt>PFR</dt>
          <dd>{pctLabel(f.pfr)}</dd>
          <dt>3-bet</dt>
          <dd>{pctLabel(f.three_bet)}</dd>
          <dt>Fold to 3-bet</dt>
          <dd>{pctLabel(f.fold_to_three_bet)}</dd>
          <dt>AF</dt>
          <dd>{ratio(f.aggression_factor)}</dd>
          <dt>AFq</dt>
          <dd>{pctLabel(f.aggression_frequency)}</dd>
          <dt>C-bet</dt>
          <dd>{pctLabel(f.cbet)}</dd>
          <dt>Fold to c-bet</dt>
          <dd>{pctLabel(f.fold_to_cbet)}</dd>
          <dt>WTSD</dt>
          <dd>{pctLabel(f.wtsd)}</dd>
          <dt>W$SD</dt>
          <dd>{pctLabel(f.wsd)}</dd>
          <dt>bb/100</dt>
          <dd>{signed(f.bb_per_100)}</dd>
        </dl>
        <Link className="seat-hud__profile" to={paths.player(playerId)}>
          Profile and graph
        </Link>
      </div>
    </div>
  );
}
