/** Cards as two-character codes: rank (23456789TJQKA) + suit (cdhs). */

export type Suit = "c" | "d" | "h" | "s";

export const SUIT_SYMBOL: Record<Suit, string> = { c: "♣", d: "♦", h: "♥", s: "♠" };
export const SUIT_NAME: Record<Suit, string> = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const RANK_NAME: Record<string, string> = {
  "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
  "9": "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};

export interface ParsedCard {
  rank: string;
  /** "10" for T */
  label: string;
  suit: Suit;
}

export function parseCard(code: string): ParsedCard | null {
  if (code.length !== 2) return null;
  const rank = code[0]!.toUpperCase();
  const suit = code[1]!.toLowerCase();
  if (!"23456789TJQKA".includes(rank) || !"cdhs".includes(suit)) return null;
  return { rank, label: rank === "T" ? "10" : rank, suit: suit as Suit };
}

export function cardName(code: string): string {
  const c = parseCard(code);
  return c ? `${RANK_NAME[c.rank]} of ${SUIT_NAME[c.suit]}` : "card";
}

/** "A♥ K♠" */
export function cardsText(codes: readonly string[] | null | undefined): string {
  return (codes ?? [])
    .map((code) => {
      const c = parseCard(code);
      return c ? `${c.label}${SUIT_SYMBOL[c.suit]}` : code;
    })
    .join(" ");
}
