/**
 * Step-by-step replay of a finished hand from its record: the starting
 * stacks, then one state per event (chips moved exactly as the events say).
 */
import type { CardCode, HandEvent, HandRecord, Street } from "../protocol";

export interface ReplaySeat {
  seat: number;
  name: string;
  isBot: boolean;
  stack: number;
  bet: number;
  folded: boolean;
  allIn: boolean;
  cards: CardCode[] | null;
  shown: boolean;
  won: number;
}

export interface ReplayStep {
  index: number;
  /** the event that led to this state (null for the start) */
  event: HandEvent | null;
  street: Street;
  board: CardCode[];
  /** collected pot (not counting bets in front of seats) */
  pot: number;
  seats: ReplaySeat[];
  actor: number | null;
}

function collect(seats: ReplaySeat[]): number {
  let total = 0;
  for (const s of seats) {
    total += s.bet;
    s.bet = 0;
  }
  return total;
}

/**
 * @param viewerSeat whose hole cards are always visible (others only once shown),
 *   or "all" to show every recorded hole card (the hand is over).
 */
export function buildReplay(record: HandRecord, viewerSeat: number | "all" | null = null): ReplayStep[] {
  const seats: ReplaySeat[] = record.seats.map((s) => ({
    seat: s.seat,
    name: s.name,
    isBot: s.is_bot,
    stack: s.starting_stack,
    bet: 0,
    folded: false,
    allIn: false,
    cards: viewerSeat === "all" || viewerSeat === s.seat ? (s.hole_cards ?? null) : null,
    shown: false,
    won: 0,
  }));
  const bySeat = new Map(seats.map((s) => [s.seat, s]));
  let pot = 0;
  let board: CardCode[] = [];
  let street: Street = "preflop";
  const steps: ReplayStep[] = [];
  const snap = (index: number, event: HandEvent | null) =>
    steps.push({
      index,
      event,
      street,
      board: [...board],
      pot,
      seats: seats.map((s) => ({ ...s, cards: s.cards ? [...s.cards] : null })),
      actor: event?.seat ?? null,
    });
  snap(0, null);
  record.events.forEach((event, i) => {
    const seat = event.seat != null ? bySeat.get(event.seat) : undefined;
    const amount = event.amount ?? 0;
    switch (event.kind) {
      case "ante":
        if (seat) seat.stack -= amount;
        pot += amount;
        break;
      case "small_blind":
      case "big_blind":
      case "straddle":
      case "call":
        if (seat) {
          seat.stack -= amount;
          seat.bet += amount;
        }
        break;
      case "bet":
      case "raise":
        if (seat) {
          seat.stack -= amount - seat.bet;
          seat.bet = amount;
        }
        break;
      case "fold":
        if (seat) seat.folded = true;
        break;
      case "return":
        if (seat) {
          seat.stack += amount;
          const fromBet = Math.min(seat.bet, amount);
          seat.bet -= fromBet;
          pot -= amount - fromBet;
        }
        break;
      case "board":
        if (event.run) break; // a later run's cards: the replayer shows the first run's board
        pot += collect(seats);
        board = [...board, ...(event.cards ?? [])];
        street = event.street;
        break;
      case "show":
        pot += collect(seats);
        street = "showdown";
        if (seat) {
          seat.cards = [...(event.cards ?? seat.cards ?? [])];
          seat.shown = true;
        }
        break;
      case "muck":
        street = "showdown";
        break;
      case "win":
        pot += collect(seats);
        if (seat) {
          seat.stack += amount;
          seat.won += amount;
        }
        pot -= amount;
        break;
      default:
        break;
    }
    if (seat) seat.allIn = seat.stack === 0 && !seat.folded;
    snap(i + 1, event);
  });
  return steps;
}
