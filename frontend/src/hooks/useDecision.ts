/**
 * Your decision at the table: whether it is your turn, the pre-action ticked ahead of it
 * (fired when the turn comes, dropped with each hand), and the wait for an action's answer.
 */
import { useCallback, useEffect, useState } from "react";
import type { ActionKind, ClientCommand, TableView } from "../protocol";
import { resolvePreAction, type PreAction } from "../components/ActionBar";

/** An action unanswered this long is taken as lost: the bar is usable again. */
export const PENDING_MS = 4000;

export function isMyTurn(view: TableView | null): boolean {
  return !!view && view.legal_actions !== null && view.actor === view.viewer_seat && view.hand_in_progress;
}

export interface Decision {
  myTurn: boolean;
  preAction: PreAction;
  setPreAction: (next: PreAction) => void;
  /** an action sent and not yet answered */
  pending: boolean;
  onAct: (kind: ActionKind, amount?: number) => void;
}

export function useDecision(
  view: TableView | null,
  seq: number | null,
  toastCount: number,
  send: (command: ClientCommand) => string | null,
): Decision {
  const [preAction, setPreAction] = useState<PreAction>(null);
  const [pending, setPending] = useState(false);
  const myTurn = isMyTurn(view);

  // A new state (or an error) ends the wait for our decision's answer.
  useEffect(() => {
    setPending(false);
  }, [seq]);
  useEffect(() => {
    if (!pending) return;
    const id = setTimeout(() => setPending(false), PENDING_MS);
    return () => clearTimeout(id);
  }, [pending]);
  useEffect(() => {
    if (toastCount) setPending(false);
  }, [toastCount]);

  // Pre-actions reset with each hand, and fire when our turn comes.
  const handNo = view?.hand_no ?? 0;
  useEffect(() => setPreAction(null), [handNo]);
  useEffect(() => {
    if (!view || !myTurn || !preAction || !view.legal_actions) return;
    const resolved = resolvePreAction(preAction, view.legal_actions);
    setPreAction(null);
    if (resolved) {
      setPending(true);
      send({ type: "act", action: resolved.kind, hand_no: view.hand_no });
    }
  }, [myTurn, preAction, view, send]);

  const onAct = useCallback(
    (kind: ActionKind, amount?: number) => {
      if (!view) return;
      setPending(true);
      const ref = send({ type: "act", action: kind, ...(amount !== undefined ? { amount } : {}), hand_no: view.hand_no });
      if (ref === null) setPending(false);
    },
    [send, view],
  );
  return { myTurn, preAction, setPreAction, pending, onAct };
}
