/**
 * A playing card drawn in SVG: rank and suit in the corners, a large pip in the
 * middle (a framed letter for court cards), four-colour or classic suits.
 * `code` null draws the back.
 */
import { memo, useId, type CSSProperties } from "react";
import { cardName, parseCard, type Suit } from "../lib/cards";
import { useCardStyle } from "../hooks/usePreferences";

/** Suit shapes in a 100x100 box. */
const SUIT_PATHS: Record<Suit, string> = {
  h: "M50 92 C 22 68 2 50 2 28 C 2 12 14 2 28 2 C 39 2 46 9 50 18 C 54 9 61 2 72 2 C 86 2 98 12 98 28 C 98 50 78 68 50 92 Z",
  d: "M50 2 L88 50 L50 98 L12 50 Z",
  s: "M50 2 C 72 24 98 40 98 62 C 98 77 87 86 74 86 C 64 86 57 81 53 74 C 54 84 58 92 67 98 L 33 98 C 42 92 46 84 47 74 C 43 81 36 86 26 86 C 13 86 2 77 2 62 C 2 40 28 24 50 2 Z",
  // clubs: the stem; the three leaves are circles (see SuitIcon)
  c: "M46 58 C 46 78 40 90 30 98 L 70 98 C 60 90 54 78 54 58 Z",
};

const CLASSIC: Record<Suit, string> = { s: "#111827", c: "#111827", h: "#c8102e", d: "#c8102e" };
const FOUR_COLOUR: Record<Suit, string> = { s: "#111827", h: "#c8102e", d: "#1d4ed8", c: "#15803d" };

export function suitColour(suit: Suit, fourColour: boolean): string {
  return (fourColour ? FOUR_COLOUR : CLASSIC)[suit];
}

export function SuitIcon({ suit, fill, x, y, size }: { suit: Suit; fill: string; x: number; y: number; size: number }) {
  const k = size / 100;
  return (
    <g transform={`translate(${x} ${y}) scale(${k})`} fill={fill}>
      <path d={SUIT_PATHS[suit]} />
      {suit === "c" && (
        <>
          <circle cx="50" cy="25" r="22" />
          <circle cx="26" cy="60" r="22" />
          <circle cx="74" cy="60" r="22" />
        </>
      )}
    </g>
  );
}

export type CardSize = "xs" | "sm" | "md" | "lg";

export interface CardProps {
  code: string | null;
  size?: CardSize;
  className?: string;
  style?: CSSProperties;
  /** dim (folded, or not part of the winning hand) */
  dim?: boolean;
  highlight?: boolean;
  testId?: string;
}

function CardBack({ uid }: { uid: string }) {
  return (
    <g>
      <defs>
        <pattern id={`${uid}-p`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="6" height="6" fill="#9b1c2c" />
          <rect width="3" height="6" fill="#b42335" />
        </pattern>
      </defs>
      <rect x="1" y="1" width="58" height="82" rx="5" fill="#fdfdfb" stroke="#1f2937" strokeWidth="0.8" />
      <rect x="4.5" y="4.5" width="51" height="75" rx="3" fill={`url(#${uid}-p)`} />
      <rect x="4.5" y="4.5" width="51" height="75" rx="3" fill="none" stroke="#fff" strokeOpacity="0.6" strokeWidth="1" />
      <circle cx="30" cy="42" r="10" fill="#7f1423" stroke="#f8e7c9" strokeWidth="1.2" />
      <text x="30" y="46.5" textAnchor="middle" fontSize="12" fontWeight="700" fill="#f8e7c9" fontFamily="Georgia, 'DejaVu Serif', serif">S</text>
    </g>
  );
}

function CardFace({ code, fourColour }: { code: string; fourColour: boolean }) {
  const card = parseCard(code);
  if (!card) return <rect x="1" y="1" width="58" height="82" rx="5" fill="#eee" />;
  const colour = suitColour(card.suit, fourColour);
  const court = card.rank === "J" || card.rank === "Q" || card.rank === "K";
  const rankSize = card.label === "10" ? 17 : 19;
  return (
    <g>
      <rect x="1" y="1" width="58" height="82" rx="5" fill="#fffefa" stroke="#9ca3af" strokeWidth="0.8" />
      {/* corner: rank over suit */}
      <text
        x={card.label === "10" ? 3 : 5}
        y="20"
        fontSize={rankSize}
        fontWeight="800"
        fill={colour}
        fontFamily="'Inter', 'Segoe UI', 'DejaVu Sans', Arial, sans-serif"
        letterSpacing={card.label === "10" ? -1.5 : 0}
      >
        {card.label}
      </text>
      <SuitIcon suit={card.suit} fill={colour} x={5} y={24} size={12} />
      {court ? (
        <g>
          <rect x="21" y="30" width="34" height="46" rx="3" fill={colour} fillOpacity="0.09" stroke={colour} strokeWidth="1.2" />
          <text x="38" y="62" textAnchor="middle" fontSize="26" fontWeight="700" fill={colour} fontFamily="Georgia, 'DejaVu Serif', serif">
            {card.rank}
          </text>
          <SuitIcon suit={card.suit} fill={colour} x={32} y={65} size={9} />
        </g>
      ) : (
        <SuitIcon suit={card.suit} fill={colour} x={22} y={34} size={card.rank === "A" ? 34 : 30} />
      )}
    </g>
  );
}

export const Card = memo(function Card({ code, size = "md", className, style, dim, highlight, testId }: CardProps) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  const { fourColour } = useCardStyle();
  const label = code ? cardName(code) : "face-down card";
  const classes = ["card", `card--${size}`, code ? "card--face" : "card--back", dim ? "card--dim" : "", highlight ? "card--hl" : "", className ?? ""]
    .filter(Boolean)
    .join(" ");
  return (
    <svg
      className={classes}
      style={style}
      viewBox="0 0 60 84"
      role="img"
      aria-label={label}
      data-testid={testId ?? "card"}
      data-card={code ?? "back"}
    >
      {code ? <CardFace code={code} fourColour={fourColour} /> : <CardBack uid={uid} />}
    </svg>
  );
});
