/**
 * The decision bar: fold / check / call / bet-raise (slider, quick sizes and a
 * typed amount in No-Limit; the fixed size in Limit), "Let AI decide" and
 * advice; pre-actions while waiting; keyboard shortcuts.
 */
import { Icon } from "./Icon";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import type { ActionKind, LegalActions, TableView } from "../protocol";
import { clampTo, isFixedSize, quickSizes, sizeStep } from "../lib/betting";
import { chipsToInput, formatBB, formatChips, parseChips } from "../lib/chips";

export type PreAction = "check_fold" | "check" | "call_any" | null;

export interface ActionBarProps {
  view: TableView;
  onAct: (kind: ActionKind, amount?: number) => void;
  onAiDecide: () => void;
  onAdvice: () => void;
  adviceAllowed: boolean;
  aiBusy: boolean;
  /** a decision was sent and we wait for the server */
  pending: boolean;
  preAction: PreAction;
  onPreAction: (pre: PreAction) => void;
}

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

/** The pre-action to apply now that it is our turn, or null to wait for the player. */
export function resolvePreAction(pre: PreAction, legal: LegalActions): { kind: ActionKind } | null {
  switch (pre) {
    case "check_fold":
      return legal.can_check ? { kind: "check" } : legal.can_fold ? { kind: "fold" } : null;
    case "check":
      return legal.can_check ? { kind: "check" } : null;
    case "call_any":
      return legal.can_call ? { kind: "call" } : legal.can_check ? { kind: "check" } : null;
    default:
      return null;
  }
}

export function ActionBar(props: ActionBarProps) {
  const { view, onAct, onAiDecide, onAdvice, adviceAllowed, aiBusy, pending, preAction, onPreAction } = props;
  const legal = view.legal_actions;
  const unit = view.config.chip_unit;
  const bb = view.config.big_blind;
  const me = view.seats.find((s) => s.seat === view.viewer_seat) ?? null;
  const myTurn = legal !== null && view.actor === view.viewer_seat && view.hand_in_progress;
  const inHand = me !== null && view.hand_in_progress && (me.state === "active") && me.has_cards;

  const sizes = useMemo(() => (legal ? quickSizes(view, legal) : []), [view, legal]);
  const [amount, setAmount] = useState<number>(legal?.min_to ?? 0);
  const [typed, setTyped] = useState<string>("");
  const decisionKey = legal ? `${view.hand_no}:${view.street}:${legal.min_to}:${legal.call_amount}:${view.events.length}` : "";
  const lastKey = useRef("");
  useEffect(() => {
    if (decisionKey && decisionKey !== lastKey.current && legal) {
      lastKey.current = decisionKey;
      setAmount(legal.min_to ?? 0);
      setTyped(legal.min_to !== null ? chipsToInput(legal.min_to, unit) : "");
    }
  }, [decisionKey, legal, unit]);

  const canRaise = legal?.raise_kind != null && legal.min_to !== null && legal.max_to !== null;
  const fixed = legal ? isFixedSize(view, legal) : false;
  const raiseTo = legal && canRaise ? (fixed ? legal.min_to! : clampTo(amount, legal)) : 0;
  const allIn = legal && canRaise ? raiseTo === legal.max_to && raiseTo - legal.committed >= legal.stack : false;
  const raiseVerb = legal?.raise_kind === "bet" ? "Bet" : "Raise to";
  // Fixed-Limit: chips left over the call but no raise allowed means the street's cap was reached.
  const capped = !!legal && view.config.variant === "limit" && legal.raise_kind === null && legal.stack > legal.call_amount;
  const step = sizeStep(view);

  const setRaise = (chips: number) => {
    if (!legal || !canRaise) return;
    const clamped = clampTo(chips, legal);
    setAmount(clamped);
    setTyped(chipsToInput(clamped, unit));
  };

  const act = (kind: ActionKind) => {
    if (!legal || pending) return;
    if (kind === "bet" || kind === "raise") onAct(kind, raiseTo);
    else onAct(kind);
  };
  const checkOrCall = () => {
    if (!legal) return;
    if (legal.can_check) act("check");
    else if (legal.can_call) act("call");
  };

  // Keyboard shortcuts while it is our turn.
  const handlers = useRef({ act, checkOrCall, setRaise, sizes, raiseTo, step, legal, canRaise, onAiDecide, onAdvice, adviceAllowed });
  handlers.current = { act, checkOrCall, setRaise, sizes, raiseTo, step, legal, canRaise, onAiDecide, onAdvice, adviceAllowed };
  useEffect(() => {
    if (!myTurn) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      const h = handlers.current;
      if (!h.legal) return;
      const key = event.key.toLowerCase();
      let handled = true;
      if (key === "f" && h.legal.can_fold) h.act("fold");
      else if (key === "c" || key === "k" || key === " ") h.checkOrCall();
      else if ((key === "r" || key === "b" || key === "enter") && h.canRaise && h.legal.raise_kind) h.act(h.legal.raise_kind);
      else if (key === "arrowup" && h.canRaise) h.setRaise(h.raiseTo + h.step);
      else if (key === "arrowdown" && h.canRaise) h.setRaise(h.raiseTo - h.step);
      else if (key >= "1" && key <= "5" && h.sizes[Number(key) - 1]) h.setRaise(h.sizes[Number(key) - 1]!.to);
      else if (key === "a" && h.canRaise && h.legal.max_to !== null) h.setRaise(h.legal.max_to);
      else if (key === "l") h.onAiDecide();
      else if (key === "h" && h.adviceAllowed) h.onAdvice();
      else handled = false;
      if (handled) event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [myTurn]);

  if (!me) return null;

  if (!myTurn || !legal) {
    if (!inHand) return null;
    const facing = Math.max(0, ...view.seats.map((s) => s.bet)) - me.bet;
    const options: { key: Exclude<PreAction, null>; label: string }[] = [
      { key: "check_fold", label: facing > 0 ? "Fold" : "Check / Fold" },
      ...(facing > 0 ? [] : [{ key: "check" as const, label: "Check" }]),
      { key: "call_any", label: facing > 0 ? `Call ${formatChips(Math.min(facing, me.stack), unit)}` : "Call any" },
    ];
    return (
      <div className="action-bar action-bar--waiting" data-testid="pre-actions" role="group" aria-label="Pre-select your action">
        <span className="action-bar__hint">Waiting for {view.seats.find((s) => s.seat === view.actor)?.name ?? "the next hand"}…</span>
        <div className="pre-actions">
          {options.map((o) => (
            <label key={o.key} className={`pre-action${preAction === o.key ? " pre-action--on" : ""}`}>
              <input
                type="checkbox"
                checked={preAction === o.key}
                onChange={(e) => onPreAction(e.target.checked ? o.key : null)}
                data-testid={`pre-${o.key}`}
              />
              {o.label}
            </label>
          ))}
        </div>
      </div>
    );
  }

  const onTypedKey = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      const chips = parseChips(typed, unit);
      if (chips !== null) {
        const clamped = clampTo(chips, legal);
        setRaise(clamped);
        if (legal.raise_kind) onAct(legal.raise_kind, clamped);
      }
      event.preventDefault();
    }
  };

  return (
    <div className="action-bar action-bar--turn" data-testid="action-bar" data-decision={decisionKey} role="group" aria-label="Your decision">
      {canRaise && !fixed && (
        <div className="sizing" data-testid="sizing">
          <div className="sizing__quick">
            {sizes.map((s, i) => (
              <button
                key={s.key}
                type="button"
                className={`btn btn--chip${raiseTo === s.to ? " btn--chip-on" : ""}`}
                onClick={() => setRaise(s.to)}
                data-testid={`size-${s.key}`}
                title={`${s.label}: ${formatChips(s.to, unit)} (key ${i + 1})`}
              >
                {s.label}
              </button>
            ))}
          </div>
          <div className="sizing__slider">
            <button type="button" className="btn btn--step" onClick={() => setRaise(raiseTo - step)} aria-label="Smaller">
              −
            </button>
            <input
              type="range"
              min={legal.min_to!}
              max={legal.max_to!}
              step={1}
              value={raiseTo}
              onChange={(e) => setRaise(Number(e.target.value))}
              aria-label="Raise amount"
              data-testid="raise-slider"
            />
            <button type="button" className="btn btn--step" onClick={() => setRaise(raiseTo + step)} aria-label="Larger">
              +
            </button>
            <input
              className="sizing__input"
              type="text"
              inputMode="decimal"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              onBlur={() => {
                const chips = parseChips(typed, unit);
                setRaise(chips ?? raiseTo);
              }}
              onKeyDown={onTypedKey}
              aria-label="Raise to amount"
              data-testid="raise-input"
            />
          </div>
        </div>
      )}
      <div className="action-bar__main">
        {legal.can_fold && (
          <button type="button" className="btn btn--action btn--fold" onClick={() => act("fold")} disabled={pending} data-testid="act-fold">
            Fold <kbd>F</kbd>
          </button>
        )}
        {legal.can_check && (
          <button type="button" className="btn btn--action btn--check" onClick={() => act("check")} disabled={pending} data-testid="act-check">
            Check <kbd>C</kbd>
          </button>
        )}
        {legal.can_call && (
          <button type="button" className="btn btn--action btn--call" onClick={() => act("call")} disabled={pending} data-testid="act-call">
            <span>
              Call <strong>{formatChips(legal.call_amount, unit)}</strong>
              {legal.call_amount >= legal.stack ? " (all-in)" : ""}
            </span>
            <kbd>C</kbd>
          </button>
        )}
        {capped && (
          <button type="button" className="btn btn--action btn--raise" disabled data-testid="act-capped" title="The betting is capped on this street: no more raises">
            <span>
              Capped
              <small className="btn__sub">no more raises</small>
            </span>
          </button>
        )}
        {canRaise && legal.raise_kind && (
          <button
            type="button"
            className={`btn btn--action btn--raise${allIn ? " btn--allin" : ""}`}
            onClick={() => act(legal.raise_kind!)}
            disabled={pending}
            data-testid="act-raise"
            data-amount={raiseTo}
          >
            <span>
              {allIn ? "All-in" : raiseVerb} <strong>{formatChips(raiseTo, unit)}</strong>
              <small className="btn__sub">{formatBB(raiseTo, bb)}</small>
            </span>
            <kbd>R</kbd>
          </button>
        )}
      </div>
      <div className="action-bar__ai">
        <button type="button" className="btn btn--ai" onClick={onAiDecide} disabled={pending || aiBusy} data-testid="let-ai-decide" title="The AI takes this decision for you (L)">
          <Icon name="robot" /> Let AI decide
        </button>
        {adviceAllowed && (
          <button type="button" className="btn btn--ghost" onClick={onAdvice} disabled={aiBusy} data-testid="ask-advice" title="Ask the AI for advice (H)">
            <Icon name="bulb" /> Advice
          </button>
        )}
      </div>
    </div>
  );
}
