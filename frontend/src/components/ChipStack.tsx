/** A small stack of casino chips whose height and colours grow with the amount. */
import { memo } from "react";

const COLOURS = ["#e5e7eb", "#dc2626", "#2563eb", "#16a34a", "#111827", "#7c3aed", "#f59e0b"];

export function chipColours(amount: number, bigBlind: number): string[] {
  const bb = Math.max(1, bigBlind);
  const ratio = amount / bb;
  const count = Math.max(1, Math.min(6, Math.ceil(Math.log2(ratio + 1))));
  const top = Math.min(COLOURS.length - 1, Math.max(0, Math.floor(Math.log10(ratio * 2 + 1) * 2)));
  return Array.from({ length: count }, (_, i) => COLOURS[Math.max(0, top - (i % 3))]!);
}

export const ChipStack = memo(function ChipStack({ amount, bigBlind }: { amount: number; bigBlind: number }) {
  const colours = chipColours(amount, bigBlind);
  return (
    <span className="chips" aria-hidden="true">
      {colours.map((colour, i) => (
        <span key={i} className="chip" style={{ background: colour, bottom: `${i * 3}px` }} />
      ))}
    </span>
  );
});
