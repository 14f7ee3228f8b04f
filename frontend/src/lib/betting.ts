/** Bet sizing for the action bar: quick sizes, clamping, what a raise adds. */
import type { LegalActions, TableView } from "../protocol";

export interface QuickSize {
  key: string;
  label: string;
  to: number;
}

export function clampTo(amount: number, legal: LegalActions): number {
  const min = legal.min_to ?? 0;
  const max = legal.max_to ?? min;
  if (!Number.isFinite(amount)) return min;
  return Math.min(max, Math.max(min, Math.round(amount)));
}

/** The highest bet on the street (what the actor faces). */
export function currentBet(view: TableView, legal: LegalActions): number {
  const highest = Math.max(0, ...view.seats.map((s) => s.bet));
  return Math.max(highest, legal.committed + legal.call_amount);
}

/** "Raise to" for a fraction of the pot, by the usual rule: call first, then that share of the pot. */
export function potFractionTo(view: TableView, legal: LegalActions, fraction: number): number {
  const facing = currentBet(view, legal);
  const toCall = facing - legal.committed;
  const potAfterCall = view.total_pot + toCall;
  return facing + Math.round(potAfterCall * fraction);
}

export function quickSizes(view: TableView, legal: LegalActions): QuickSize[] {
  if (legal.raise_kind === null || legal.min_to === null || legal.max_to === null) return [];
  const sizes: QuickSize[] = [
    { key: "min", label: "Min", to: legal.min_to },
    { key: "half", label: "½ Pot", to: clampTo(potFractionTo(view, legal, 0.5), legal) },
    { key: "three-quarters", label: "¾ Pot", to: clampTo(potFractionTo(view, legal, 0.75), legal) },
    { key: "pot", label: "Pot", to: clampTo(potFractionTo(view, legal, 1), legal) },
    { key: "all-in", label: "All-in", to: legal.max_to },
  ];
  return sizes;
}

/** A sensible step for the slider and arrow keys: the big blind (or small bet in limit). */
export function sizeStep(view: TableView): number {
  return Math.max(1, view.config.variant === "limit" ? view.config.small_bet || view.config.big_blind : view.config.big_blind);
}

/** In Limit the bet/raise size is fixed: min_to == max_to (or take min_to). */
export function isFixedSize(view: TableView, legal: LegalActions): boolean {
  return view.config.variant === "limit" || legal.min_to === legal.max_to;
}
