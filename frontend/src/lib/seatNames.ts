/**
 * Who sat where during a hand, remembered after they leave: a player who stands up
 * (their seat gone from the view) is still named in that hand's log, not "Seat 2".
 */
import type { TableView } from "../protocol";
import type { NameOf } from "./events";

export interface HandNames {
  handNo: number;
  names: ReadonlyMap<number, string>;
}

/** The names of this view's hand: the last ones plus whoever sits now (a new hand starts afresh). */
export function rememberNames(previous: HandNames | null, view: TableView): HandNames {
  const names = new Map(previous && previous.handNo === view.hand_no ? previous.names : []);
  for (const seat of view.seats) names.set(seat.seat, seat.name);
  return { handNo: view.hand_no, names };
}

/** A seat's name: whoever sits there now, else who sat there during the hand. */
export function namer(view: TableView, remembered: HandNames | null): NameOf {
  return (seat) => {
    if (seat == null) return "";
    const sitting = view.seats.find((s) => s.seat === seat)?.name;
    return sitting ?? remembered?.names.get(seat) ?? `Seat ${seat}`;
  };
}
