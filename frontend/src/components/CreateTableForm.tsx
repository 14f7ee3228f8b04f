/** Create a table: variant, stakes, seats, buy-in range, timer, bots and their styles, advice. */
import { Icon } from "./Icon";
import { useMemo, useState, type FormEvent } from "react";
import { BOT_STYLES, type BotStyle, type CreateTableRequest, type Variant } from "../protocol";
import { changedRules, HomeRulesFields, NO_HOME_RULES, type HomeRules } from "./HomeRulesFields";

export interface CreateTableFormProps {
  onCreate: (spec: CreateTableRequest) => Promise<void>;
  onCancel?: () => void;
  defaultName?: string;
}

/** Every style's one-line description: a Record over BotStyle, so a new style without one
 * does not compile (mcts had none). */
export const STYLE_HELP: Record<BotStyle, string> = {
  mcts: "searches the hand's future against its reads of each player: the strongest",
  aggressive: "plays many hands, bets and raises a lot",
  cautious: "plays only strong hands",
  rational: "compares its odds with the pot",
  "always-raise": "raises whenever it can",
  "calling-station": "calls almost anything",
  "always-fold": "folds whenever it can",
  random: "random legal actions",
  loki: "expert rules with hand strength and potential",
  poki: "simulations with opponent modelling",
  blueprint: "self-play equilibrium strategy (heads-up Limit)",
};

const int = (text: string, fallback = 0) => {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) ? n : fallback;
};

export function CreateTableForm({ onCreate, onCancel, defaultName }: CreateTableFormProps) {
  const [name, setName] = useState(defaultName ?? "");
  const [variant, setVariant] = useState<Variant>("no-limit");
  const [smallBlind, setSmallBlind] = useState("50");
  const [bigBlind, setBigBlind] = useState("100");
  const [ante, setAnte] = useState("0");
  const [raiseCap, setRaiseCap] = useState("4");
  const [seats, setSeats] = useState(6);
  const [minBuyIn, setMinBuyIn] = useState("");
  const [maxBuyIn, setMaxBuyIn] = useState("");
  const [timeout, setTimeoutSecs] = useState("20");
  const [timeBank, setTimeBank] = useState("30");
  const [bots, setBots] = useState<BotStyle[]>(["rational", "aggressive", "cautious", "calling-station"]);
  const [advice, setAdvice] = useState(true);
  const [unlisted, setUnlisted] = useState(false);
  const [rules, setRules] = useState<HomeRules>(NO_HOME_RULES);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const bb = int(bigBlind, 100);
  const unitBet = variant === "limit" ? bb : bb;
  const defaultMin = 40 * unitBet;
  const defaultMax = 100 * unitBet;
  const maxBots = seats - 1;
  const shownBots = bots.slice(0, maxBots);

  const problems = useMemo(() => {
    const list: string[] = [];
    const sb = int(smallBlind, -1);
    if (sb < 1 || bb < 1) list.push("Blinds must be at least 1.");
    if (sb > bb) list.push("The small blind cannot exceed the big blind.");
    const lo = minBuyIn ? int(minBuyIn) : defaultMin;
    const hi = maxBuyIn ? int(maxBuyIn) : Math.max(defaultMax, lo);
    if (lo > hi) list.push("The minimum buy-in cannot exceed the maximum.");
    if (lo < bb) list.push("The minimum buy-in must cover the big blind.");
    if (rules.big_blind_ante && int(ante) < 1) list.push("A big-blind ante needs an ante above 0.");
    if (rules.bomb_pot_every > 0 && rules.bomb_pot_ante < 1) list.push("Bomb pots every N hands need a bomb pot ante.");
    return list;
  }, [smallBlind, bb, minBuyIn, maxBuyIn, defaultMin, defaultMax, rules, ante]);

  const setBotCount = (count: number) => {
    const next = shownBots.slice(0, count);
    while (next.length < count) next.push(BOT_STYLES[next.length % BOT_STYLES.length]!);
    setBots(next);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (problems.length) {
      setError(problems.join(" "));
      return;
    }
    const spec: CreateTableRequest = {
      // Left empty, the server names it "Table N": the lobby shows game and stakes in their own columns.
      name: name.trim(),
      variant,
      small_blind: int(smallBlind),
      big_blind: bb,
      ante: int(ante),
      seats,
      min_buy_in: minBuyIn ? int(minBuyIn) : 0,
      max_buy_in: maxBuyIn ? int(maxBuyIn) : 0,
      action_timeout: int(timeout, 20),
      time_bank: int(timeBank, 30),
      bots: shownBots.length,
      bot_styles: shownBots,
      advice_allowed: advice,
      private: unlisted,
      ...changedRules(variant === "limit" ? { ...rules, straddle: "off" } : rules),
    };
    if (variant === "limit") {
      spec.small_bet = bb;
      spec.big_bet = 2 * bb;
      spec.raise_cap = raiseCap === "" ? null : int(raiseCap, 4);
    }
    setBusy(true);
    setError(null);
    try {
      await onCreate(spec);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="create-table" onSubmit={submit} data-testid="create-table-form">
      <h2>New table</h2>
      <div className="form-grid">
        <label className="field field--wide">
          <span>Table name</span>
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} maxLength={40} placeholder="Friday night" data-testid="ct-name" />
        </label>
        <fieldset className="field field--wide segmented" data-testid="ct-variant">
          <legend>Game</legend>
          {(["no-limit", "limit"] as const).map((v) => (
            <label key={v} className={variant === v ? "is-on" : ""}>
              <input type="radio" name="variant" value={v} checked={variant === v} onChange={() => setVariant(v)} data-testid={`ct-variant-${v}`} />
              {v === "limit" ? "Fixed-Limit" : "No-Limit"} Hold'em
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>Small blind</span>
          <input className="input" inputMode="numeric" value={smallBlind} onChange={(e) => setSmallBlind(e.target.value)} data-testid="ct-sb" />
        </label>
        <label className="field">
          <span>Big blind</span>
          <input className="input" inputMode="numeric" value={bigBlind} onChange={(e) => setBigBlind(e.target.value)} data-testid="ct-bb" />
        </label>
        {variant === "limit" ? (
          <>
            <div className="field">
              <span>Bets</span>
              <div className="static">
                {bb} / {2 * bb} <small className="muted">(small / big bet)</small>
              </div>
            </div>
            <label className="field">
              <span>Raise cap (bets per street)</span>
              <input className="input" inputMode="numeric" value={raiseCap} onChange={(e) => setRaiseCap(e.target.value)} data-testid="ct-cap" />
            </label>
          </>
        ) : null}
        <label className="field">
          <span>Ante</span>
          <input className="input" inputMode="numeric" value={ante} onChange={(e) => setAnte(e.target.value)} data-testid="ct-ante" />
        </label>
        <label className="field">
          <span>Seats: {seats}</span>
          <input type="range" min={2} max={10} value={seats} onChange={(e) => setSeats(Number(e.target.value))} data-testid="ct-seats" aria-label="Seats" />
        </label>
        <label className="field">
          <span>Min buy-in</span>
          <input className="input" inputMode="numeric" value={minBuyIn} onChange={(e) => setMinBuyIn(e.target.value)} placeholder={String(defaultMin)} data-testid="ct-min-buyin" />
        </label>
        <label className="field">
          <span>Max buy-in</span>
          <input className="input" inputMode="numeric" value={maxBuyIn} onChange={(e) => setMaxBuyIn(e.target.value)} placeholder={String(defaultMax)} data-testid="ct-max-buyin" />
        </label>
        <label className="field">
          <span>Seconds per decision</span>
          <input className="input" inputMode="numeric" value={timeout} onChange={(e) => setTimeoutSecs(e.target.value)} data-testid="ct-timeout" />
        </label>
        <label className="field">
          <span>Time bank (seconds)</span>
          <input className="input" inputMode="numeric" value={timeBank} onChange={(e) => setTimeBank(e.target.value)} data-testid="ct-timebank" />
        </label>
      </div>

      <fieldset className="bots" data-testid="ct-bots">
        <legend>
          Bots{" "}
          <select value={shownBots.length} onChange={(e) => setBotCount(Number(e.target.value))} aria-label="Number of bots" data-testid="ct-bot-count">
            {Array.from({ length: maxBots + 1 }, (_, i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>{" "}
          <span className="muted small">of {seats} seats (leave at least one for you)</span>
        </legend>
        <div className="bots__list">
          {shownBots.map((style, i) => (
            <label key={i} className="bots__row">
              <span className="bots__n"><Icon name="robot" size={14} /> Bot {i + 1}</span>
              <select
                value={style}
                onChange={(e) => setBots(shownBots.map((s, j) => (j === i ? (e.target.value as BotStyle) : s)))}
                data-testid={`ct-bot-style-${i}`}
                aria-label={`Style of bot ${i + 1}`}
              >
                {BOT_STYLES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
              <span className="muted small bots__help" data-testid={`ct-bot-help-${i}`}>
                {STYLE_HELP[style as BotStyle] ?? ""}
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <HomeRulesFields rules={rules} onChange={setRules} limit={variant === "limit"} />

      <label className="check">
        <input type="checkbox" checked={advice} onChange={(e) => setAdvice(e.target.checked)} data-testid="ct-advice" />
        Allow AI advice at this table
      </label>

      <label className="check">
        <input type="checkbox" checked={unlisted} onChange={(e) => setUnlisted(e.target.checked)} data-testid="ct-private" />
        Private: not in the lobby, friends join by the invite link
      </label>

      {error && (
        <p className="error-text" role="alert" data-testid="ct-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        {onCancel && (
          <button type="button" className="btn btn--ghost" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn btn--primary" disabled={busy} data-testid="ct-submit">
          {busy ? "Creating…" : "Create table"}
        </button>
      </div>
    </form>
  );
}
