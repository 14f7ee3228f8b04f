/** The host's home-game rules (#34): call a bomb pot; change the rules from the next hand. */
import { useState } from "react";
import type { ClientCommand, TableView } from "../protocol";
import { HomeRulesFields, type HomeRules } from "./HomeRulesFields";

function rulesOf(view: TableView): HomeRules {
  const c = view.config;
  return {
    straddle: c.straddle,
    run_it_max: c.run_it_max,
    rabbit_hunt: c.rabbit_hunt,
    bomb_pot_ante: c.bomb_pot_ante,
    bomb_pot_every: c.bomb_pot_every,
    big_blind_ante: c.ante_mode === "big_blind",
  };
}

export function HostHomeRules({ view, send }: { view: TableView; send: (command: ClientCommand) => string | null }) {
  const [rules, setRules] = useState<HomeRules>(() => rulesOf(view));
  const bombReady = view.config.bomb_pot_ante > 0 && !view.bomb_pot_next;
  return (
    <div className="host-panel__rules" data-testid="host-home-rules">
      <p>
        <button type="button" disabled={!bombReady} onClick={() => send({ type: "bomb_pot" })} data-testid="host-bomb-pot" title={view.config.bomb_pot_ante > 0 ? undefined : "Set a bomb pot ante first"}>
          {view.bomb_pot_next ? "Bomb pot next hand" : "Call a bomb pot"}
        </button>
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: "table_settings", ...rules });
        }}
      >
        <HomeRulesFields rules={rules} onChange={setRules} limit={view.config.variant === "limit"} />
        <button type="submit" data-testid="host-rules-save">
          Rules from the next hand
        </button>
      </form>
    </div>
  );
}
