/**
 * Names the best five-card hand in up to seven cards ("Two Pair, Kings and Sevens"),
 * for the showdown summary. The server decides who wins; this only labels it.
 */
import { parseCard } from "./cards";

const RANKS = "23456789TJQKA";
const PLURAL: Record<string, string> = {
  "2": "Twos", "3": "Threes", "4": "Fours", "5": "Fives", "6": "Sixes", "7": "Sevens", "8": "Eights",
  "9": "Nines", T: "Tens", J: "Jacks", Q: "Queens", K: "Kings", A: "Aces",
};
const SINGULAR: Record<string, string> = {
  "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight",
  "9": "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace",
};

export type Category =
  | "high card" | "pair" | "two pair" | "three of a kind" | "straight"
  | "flush" | "full house" | "four of a kind" | "straight flush";

const ORDER: Category[] = [
  "high card", "pair", "two pair", "three of a kind", "straight",
  "flush", "full house", "four of a kind", "straight flush",
];

export interface Ranked {
  category: Category;
  /** comparable score: category then kickers */
  score: number[];
  /** rank characters that define the hand, most important first */
  ranks: string[];
  /** the five cards */
  cards: string[];
}

function straightHigh(values: number[]): number | null {
  const set = new Set(values);
  if (set.has(12)) set.add(-1); // the wheel: A-2-3-4-5
  for (let high = 12; high >= 3; high -= 1) {
    let ok = true;
    for (let k = 0; k < 5; k += 1) if (!set.has(high - k)) { ok = false; break; }
    if (ok) return high;
  }
  return null;
}

interface C {
  v: number;
  s: string;
  code: string;
}

function rankFive(cards: C[]): Ranked {
  const values = cards.map((c) => c.v).sort((a, b) => b - a);
  const flush = cards.every((c) => c.s === cards[0]!.s);
  const sh = straightHigh(values);
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const shape = groups.map((g) => g[1]).join("");
  const grouped = groups.map((g) => g[0]);
  let category: Category;
  let key: number[];
  if (flush && sh !== null) { category = "straight flush"; key = [sh]; }
  else if (shape === "41") { category = "four of a kind"; key = grouped; }
  else if (shape === "32") { category = "full house"; key = grouped; }
  else if (flush) { category = "flush"; key = values; }
  else if (sh !== null) { category = "straight"; key = [sh]; }
  else if (shape === "311") { category = "three of a kind"; key = grouped; }
  else if (shape === "221") { category = "two pair"; key = grouped; }
  else if (shape === "2111") { category = "pair"; key = grouped; }
  else { category = "high card"; key = values; }
  return { category, score: [ORDER.indexOf(category), ...key], ranks: key.map((v) => RANKS[v] ?? "?"), cards: cards.map((c) => c.code) };
}

function better(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const x = a[i] ?? -1;
    const y = b[i] ?? -1;
    if (x !== y) return x > y;
  }
  return false;
}

export function bestHand(codes: readonly string[]): Ranked | null {
  const cards: C[] = [];
  for (const code of codes) {
    const c = parseCard(code);
    if (c) cards.push({ v: RANKS.indexOf(c.rank), s: c.suit, code });
  }
  if (cards.length < 5) return null;
  let best: Ranked | null = null;
  const n = cards.length;
  for (let a = 0; a < n; a += 1)
    for (let b = a + 1; b < n; b += 1)
      for (let c = b + 1; c < n; c += 1)
        for (let d = c + 1; d < n; d += 1)
          for (let e = d + 1; e < n; e += 1) {
            const r = rankFive([cards[a]!, cards[b]!, cards[c]!, cards[d]!, cards[e]!]);
            if (!best || better(r.score, best.score)) best = r;
          }
  return best;
}

export function describeRanked(r: Ranked): string {
  const [a = "?", b = "?"] = r.ranks;
  switch (r.category) {
    case "straight flush":
      return a === "A" ? "a Royal Flush" : `a Straight Flush, ${SINGULAR[a]} high`;
    case "four of a kind":
      return `Four of a Kind, ${PLURAL[a]}`;
    case "full house":
      return `a Full House, ${PLURAL[a]} full of ${PLURAL[b]}`;
    case "flush":
      return `a Flush, ${SINGULAR[a]} high`;
    case "straight":
      return `a Straight, ${SINGULAR[a]} high`;
    case "three of a kind":
      return `Three of a Kind, ${PLURAL[a]}`;
    case "two pair":
      return `Two Pair, ${PLURAL[a]} and ${PLURAL[b]}`;
    case "pair":
      return `a Pair of ${PLURAL[a]}`;
    default:
      return `${SINGULAR[a]} high`;
  }
}

/** The rank as the short name writes it: digits and letters ("10" for a ten). */
const SHORT = (rank: string) => (rank === "T" ? "10" : rank);

/** A short name for a narrow line (a phone's winner line): "9s full of 5s", where
 * describeRanked's "a Full House, Nines full of Fives" was cut to "Nines full of Fi…". */
export function describeShort(r: Ranked): string {
  const [a = "?", b = "?"] = r.ranks.map(SHORT);
  switch (r.category) {
    case "straight flush":
      return a === "A" ? "Royal Flush" : `${a}-high Straight Flush`;
    case "four of a kind":
      return `Four ${a}s`;
    case "full house":
      return `${a}s full of ${b}s`;
    case "flush":
      return `${a}-high Flush`;
    case "straight":
      return `${a}-high Straight`;
    case "three of a kind":
      return `Three ${a}s`;
    case "two pair":
      return `${a}s and ${b}s`;
    case "pair":
      return `Pair of ${a}s`;
    default:
      return `${a} high`;
  }
}

/** Your hand as it stands, for the line under your cards: "Two Pair, Kings and Sevens". */
export function handNameFor(hole: readonly string[], board: readonly string[]): string | null {
  if (hole.length !== 2) return null;
  if (board.length < 3) {
    // Before the flop only a pocket pair has a name.
    const [a, b] = hole;
    return a && b && a[0] === b[0] ? `Pair of ${PLURAL[a[0]!]}` : null;
  }
  const r = bestHand([...hole, ...board]);
  return r ? describeRanked(r).replace(/^an? /, "") : null;
}

export function bestHandName(codes: readonly string[]): string | null {
  const r = bestHand(codes);
  return r ? describeRanked(r) : null;
}
