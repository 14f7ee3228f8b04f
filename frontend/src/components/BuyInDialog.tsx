/** Choose a buy-in (sit down) or a rebuy/top-up amount within the table's range. */
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { TableConfig } from "../protocol";
import { chipsToInput, formatBB, formatChips, parseChips } from "../lib/chips";

export interface BuyInDialogProps {
  title: string;
  config: TableConfig;
  min: number;
  max: number;
  initial: number;
  confirmLabel: string;
  onConfirm: (amount: number) => void;
  onCancel: () => void;
  testId?: string;
}

export function BuyInDialog({ title, config, min, max, initial, confirmLabel, onConfirm, onCancel, testId }: BuyInDialogProps) {
  const unit = config.chip_unit;
  const [amount, setAmount] = useState(Math.min(max, Math.max(min, initial)));
  const [typed, setTyped] = useState(chipsToInput(amount, unit));
  const ref = useRef<HTMLInputElement | null>(null);
  useEffect(() => ref.current?.focus(), []);
  const set = (chips: number) => {
    const c = Math.min(max, Math.max(min, Math.round(chips)));
    setAmount(c);
    setTyped(chipsToInput(c, unit));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const chips = parseChips(typed, unit) ?? amount;
    onConfirm(Math.min(max, Math.max(min, chips)));
  };
  return (
    <div className="modal-backdrop" onClick={onCancel}>
      <form className="modal" onSubmit={submit} onClick={(e) => e.stopPropagation()} data-testid={testId ?? "buyin-dialog"} aria-label={title} role="dialog">
        <h3>{title}</h3>
        <p className="muted">
          Between {formatChips(min, unit)} and {formatChips(max, unit)} (
          {min < config.big_blind ? `up to ${formatBB(max, config.big_blind)}` : `${formatBB(min, config.big_blind)} – ${formatBB(max, config.big_blind)}`})
        </p>
        {min < max && (
          <input type="range" min={min} max={max} value={amount} onChange={(e) => set(Number(e.target.value))} aria-label="Amount" />
        )}
        <div className="modal__row">
          <input
            ref={ref}
            className="input"
            inputMode="decimal"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onBlur={() => set(parseChips(typed, unit) ?? amount)}
            aria-label="Amount in chips"
            data-testid="buyin-amount"
          />
          <button type="button" className="btn btn--chip" onClick={() => set(min)}>
            Min
          </button>
          <button type="button" className="btn btn--chip" onClick={() => set(max)}>
            Max
          </button>
        </div>
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" data-testid="buyin-confirm">
            {confirmLabel}
          </button>
        </div>
      </form>
    </div>
  );
}
