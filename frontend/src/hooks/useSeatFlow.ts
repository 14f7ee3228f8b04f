/**
 * Taking and keeping a seat: the seat whose buy-in is being asked (the first empty one is
 * offered on a join link), the rebuy dialog, and a sit-out asked for until it applies.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { ClientCommand, ConnectionStatus, SeatView, TableView } from "../protocol";

export interface SeatFlowInput {
  view: TableView | null;
  /** your seat, or null */
  me: SeatView | null;
  status: ConnectionStatus;
  /** came by a join link: offer a seat */
  join: boolean;
  watch: boolean;
  send: (command: ClientCommand) => string | null;
}

export interface SeatFlow {
  /** the seat whose buy-in dialog is open */
  buyInSeat: number | null;
  offerSeat: (seat: number) => void;
  cancelBuyIn: () => void;
  sit: (amount: number) => void;
  rebuyOpen: boolean;
  openRebuy: () => void;
  closeRebuy: () => void;
  rebuy: (amount: number) => void;
  /** a sit-out asked for, applying at the next hand */
  sitOutRequested: boolean;
  sitOut: () => void;
}

/** The lowest-numbered seat nobody holds, or null at a full table. */
export function firstEmptySeat(view: TableView): number | null {
  const taken = new Set(view.seats.map((s) => s.seat));
  return Array.from({ length: view.config.seats }, (_, i) => i + 1).find((n) => !taken.has(n)) ?? null;
}

export function useSeatFlow({ view, me, status, join, watch, send }: SeatFlowInput): SeatFlow {
  const [buyInSeat, setBuyInSeat] = useState<number | null>(null);
  const [rebuyOpen, setRebuyOpen] = useState(false);
  const [sitOutRequested, setSitOutRequested] = useState(false);
  const seated = me !== null;

  // Join: offer the first empty seat once the view is here.
  const offered = useRef(false);
  useEffect(() => {
    if (!join || watch || offered.current || !view || seated || status !== "open") return;
    offered.current = true;
    const empty = firstEmptySeat(view);
    if (empty !== null) setBuyInSeat(empty);
  }, [join, watch, view, seated, status]);

  // The sit-out request clears when it applies (or the seat is gone).
  useEffect(() => {
    if (me?.state === "sitting_out" || !me) setSitOutRequested(false);
  }, [me?.state, me]);

  const sit = useCallback(
    (amount: number) => {
      if (buyInSeat !== null) send({ type: "sit", seat: buyInSeat, buy_in: amount });
      setBuyInSeat(null);
    },
    [buyInSeat, send],
  );
  const rebuy = useCallback(
    (amount: number) => {
      // Busted players sit out until they rebuy: a rebuy also brings them back.
      const comeBack = !!me && !!view && me.state === "sitting_out" && me.stack < view.config.big_blind;
      if (send({ type: "rebuy", amount }) !== null && comeBack) send({ type: "sit_back" });
      setRebuyOpen(false);
    },
    [me, view, send],
  );
  const sitOut = useCallback(() => {
    if (send({ type: "sit_out" }) !== null) setSitOutRequested(true);
  }, [send]);
  return {
    buyInSeat,
    offerSeat: setBuyInSeat,
    cancelBuyIn: useCallback(() => setBuyInSeat(null), []),
    sit,
    rebuyOpen,
    openRebuy: useCallback(() => setRebuyOpen(true), []),
    closeRebuy: useCallback(() => setRebuyOpen(false), []),
    rebuy,
    sitOutRequested,
    sitOut,
  };
}

/** The chips a rebuy or top-up may add: up to the maximum buy-in; a busted seat buys the minimum. */
export function rebuyRange(view: TableView, me: SeatView | null): { min: number; max: number } {
  if (!me) return { min: 0, max: 0 };
  const max = view.config.max_buy_in - me.stack;
  const min = me.stack === 0 ? view.config.min_buy_in : 1;
  return { min, max };
}
