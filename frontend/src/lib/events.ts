/** Hand events in words, for the hand log and the replayer. */
import type { Action, HandEvent, Street } from "../protocol";
import { cardsText } from "./cards";
import { formatChips } from "./chips";

export type NameOf = (seat: number | null | undefined) => string;

export const STREET_LABEL: Record<Street, string> = {
  preflop: "Preflop",
  flop: "Flop",
  turn: "Turn",
  river: "River",
  showdown: "Showdown",
};

export function describeEvent(event: HandEvent, nameOf: NameOf, unit: string | number = 1): string {
  const who = nameOf(event.seat);
  const amount = event.amount ?? 0;
  const chips = formatChips(amount, unit);
  const allIn = event.all_in ? " (all-in)" : "";
  switch (event.kind) {
    case "ante":
      return `${who} posts an ante of ${chips}${allIn}`;
    case "small_blind":
      return `${who} posts the small blind ${chips}${allIn}`;
    case "big_blind":
      return `${who} posts the big blind ${chips}${allIn}`;
    case "straddle":
      return `${who} straddles ${chips}${allIn}`;
    case "runouts":
      return `Everyone all-in agreed: the board is run ${amount === 2 ? "twice" : `${amount} times`}`;
    case "fold":
      return `${who} folds`;
    case "check":
      return `${who} checks`;
    case "call":
      return `${who} calls ${chips}${allIn}`;
    case "bet":
      return `${who} bets ${chips}${allIn}`;
    case "raise":
      return `${who} raises to ${chips}${allIn}`;
    case "board":
      return `${event.run ? `Run ${event.run + 1}, ` : ""}${STREET_LABEL[event.street]}: ${cardsText(event.cards)}`;
    case "return":
      return `${chips} uncalled returned to ${who}`;
    case "show":
      return `${who} shows ${cardsText(event.cards)}`;
    case "muck":
      return `${who} mucks`;
    case "win": {
      const pot = event.pot_index ? `side pot ${event.pot_index}` : "the pot";
      const run = event.run != null ? ` (run ${event.run + 1})` : "";
      return `${who} wins ${chips} from ${pot}${run}`;
    }
    default:
      return String((event as HandEvent).kind);
  }
}

export function describeAction(action: Action, unit: string | number = 1): string {
  switch (action.kind) {
    case "fold":
      return "fold";
    case "check":
      return "check";
    case "call":
      return action.amount ? `call ${formatChips(action.amount, unit)}` : "call";
    // No amount: a Fixed-Limit bet or raise, whose size the street fixes (the advisor's
    // values for Limit carry none): "raise", never "raise to 0".
    case "bet":
      return action.amount ? `bet ${formatChips(action.amount, unit)}` : "bet";
    case "raise":
      return action.amount ? `raise to ${formatChips(action.amount, unit)}` : "raise";
    default:
      return String(action.kind);
  }
}

/** Short label for a seat's last action, shown on the seat ("Raise 600"). */
export function lastActionLabel(events: readonly HandEvent[], seat: number, street: Street | null, unit: string | number = 1): string | null {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const e = events[i]!;
    if (e.kind === "board") return null; // a new street started since
    if (e.seat !== seat) continue;
    if (street && e.street !== street && e.kind !== "fold") return null;
    switch (e.kind) {
      case "fold":
        return "Fold";
      case "check":
        return "Check";
      case "call":
        return e.all_in ? "All-in" : "Call";
      case "bet":
        return e.all_in ? "All-in" : `Bet ${formatChips(e.amount ?? 0, unit)}`;
      case "raise":
        return e.all_in ? "All-in" : `Raise ${formatChips(e.amount ?? 0, unit)}`;
      default:
        return null;
    }
  }
  return null;
}
