/** Who sat where in this hand, kept when they stand up (or their log says "Seat 2 calls"). */
import { useMemo, useRef } from "react";
import type { TableView } from "../protocol";
import type { NameOf } from "../lib/events";
import { namer, rememberNames, type HandNames } from "../lib/seatNames";

export function useSeatNames(view: TableView | null): NameOf {
  const handNames = useRef<HandNames | null>(null);
  handNames.current = view ? rememberNames(handNames.current, view) : handNames.current;
  return useMemo(() => (view ? namer(view, handNames.current) : () => ""), [view]);
}
