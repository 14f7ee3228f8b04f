/** The home-game rules of a table (#34), in the create form and the host's panel. */
import type { Straddle } from "../protocol";

export interface HomeRules {
  straddle: Straddle;
  run_it_max: number;
  rabbit_hunt: boolean;
  bomb_pot_ante: number;
  bomb_pot_every: number;
  big_blind_ante: boolean;
}

export const NO_HOME_RULES: HomeRules = {
  straddle: "off",
  run_it_max: 1,
  rabbit_hunt: false,
  bomb_pot_ante: 0,
  bomb_pot_every: 0,
  big_blind_ante: false,
};

/** Only the rules set away from the defaults (what a table is created with). */
export function changedRules(rules: HomeRules): Partial<HomeRules> {
  return Object.fromEntries(Object.entries(rules).filter(([key, value]) => NO_HOME_RULES[key as keyof HomeRules] !== value));
}

export function HomeRulesFields({ rules, onChange, limit }: { rules: HomeRules; onChange: (rules: HomeRules) => void; limit: boolean }) {
  const set = (patch: Partial<HomeRules>) => onChange({ ...rules, ...patch });
  const num = (text: string) => Math.max(0, Number.parseInt(text, 10) || 0);
  return (
    <fieldset className="home-rules" data-testid="home-rules">
      <legend>Home-game rules</legend>
      <label className="field">
        <span>Straddle</span>
        <select
          value={limit ? "off" : rules.straddle}
          disabled={limit}
          title={limit ? "Straddles are for no-limit tables" : undefined}
          onChange={(e) => set({ straddle: e.target.value as Straddle })}
          data-testid="hr-straddle"
        >
          <option value="off">Off</option>
          <option value="utg">Under the gun</option>
          <option value="button">On the button</option>
        </select>
      </label>
      <label className="field">
        <span>Run it more than once</span>
        <select value={rules.run_it_max} onChange={(e) => set({ run_it_max: Number(e.target.value) })} data-testid="hr-runs">
          <option value={1}>Off</option>
          <option value={2}>Up to twice</option>
          <option value={3}>Up to three times</option>
        </select>
      </label>
      <label className="field">
        <span>Bomb pot ante</span>
        <input className="input" inputMode="numeric" value={rules.bomb_pot_ante} onChange={(e) => set({ bomb_pot_ante: num(e.target.value) })} data-testid="hr-bomb-ante" />
      </label>
      <label className="field">
        <span>Bomb pot every N hands</span>
        <input className="input" inputMode="numeric" value={rules.bomb_pot_every} placeholder="0: when the host calls one" onChange={(e) => set({ bomb_pot_every: num(e.target.value) })} data-testid="hr-bomb-every" />
      </label>
      <label className="check">
        <input type="checkbox" checked={rules.rabbit_hunt} onChange={(e) => set({ rabbit_hunt: e.target.checked })} data-testid="hr-rabbit" />
        Rabbit hunt (see the cards that would have come)
      </label>
      <label className="check">
        <input type="checkbox" checked={rules.big_blind_ante} onChange={(e) => set({ big_blind_ante: e.target.checked })} data-testid="hr-bb-ante" />
        Big-blind ante (the big blind antes for everyone)
      </label>
    </fieldset>
  );
}
