/**
 * One table's live state for React: the TableClient's snapshot, plus the
 * errors, advice, chat and "AI decided" notices it reports.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import {
  CLOSE_POLICY,
  INITIAL_SNAPSHOT,
  TableClient,
  tableSocketUrl,
  type Action,
  type AdviceReport,
  type ChatMessage,
  type ClientCommand,
  type ServerError,
  type SocketFactory,
  type StatsCounted,
  type TableClientSnapshot,
  type TableView,
  type TokenSource,
} from "../protocol";

export interface Toast {
  id: number;
  code: string;
  message: string;
  at: number;
}

/** "The AI decided for X" (everyone sees it), "X timed out", or a rebuy or top-up. */
export interface TableNotice {
  id: number;
  at: number;
  seat: number | null;
  by: "ai" | "timer" | "table" | "rebuy" | "left" | "host";
  action: Action | null;
  handNo: number;
  note: string;
  /** a rebuy or top-up (a person's or a bot's): the chips added and the stack they made */
  rebuy?: { amount: number; stack: number; topUp: boolean; bot: boolean };
  /** a player left the table (`playerId`) with these chips, cashed out */
  left?: { playerId: string | null; stack: number };
  /** the host's command, a seat request or the host's role passed on (#34) */
  host?: { kind: string; playerId: string | null; amount: number | null; stack: number | null };
}

/** Chat lines sent again on joining (`history`) that this client already shows are skipped. */
export function addChat(list: ChatMessage[], message: ChatMessage): ChatMessage[] {
  const seen = message.history && list.some((m) => m.at === message.at && m.player_id === message.player_id && m.text === message.text);
  return seen ? list : [...list, message].slice(-200);
}

export interface TableState {
  client: TableClient;
  snapshot: TableClientSnapshot;
  view: TableView | null;
  toasts: Toast[];
  dismiss: (id: number) => void;
  advice: AdviceReport | null;
  adviceLoading: boolean;
  chat: ChatMessage[];
  notices: TableNotice[];
  /** the last `stats`: whose figures changed (hand_no: this table's latest hand counted, or null) */
  statsCounted: StatsCounted | null;
  send: (command: ClientCommand) => string | null;
  requestAdvice: () => void;
  letAiDecide: () => void;
  clearAdvice: () => void;
}

let noticeId = 0;

export interface UseTableOptions {
  createSocket?: SocketFactory;
  url?: string;
  /**
   * The server refused the credentials: renew them. Resolving true (the same
   * player's token was refreshed) reconnects this client; a new player makes a
   * new token source, and so a new client.
   */
  onAuthFailure?: () => void | Promise<boolean>;
  /** a private table's invite token (from its link), sent with `auth` */
  invite?: string | null;
}

export function useTable(tableId: string, token: TokenSource, options: UseTableOptions = {}): TableState {
  const { createSocket, url, onAuthFailure, invite } = options;
  const client = useMemo(
    () =>
      new TableClient({
        url: url ?? tableSocketUrl(tableId),
        token,
        follow: true, // on a cluster, sent to the table's owner (docs/cluster.md §3)
        ...(createSocket ? { createSocket } : {}),
        ...(invite ? { invite } : {}),
      }),
    [tableId, token, url, createSocket, invite],
  );

  const snapshot = useSyncExternalStore(
    useCallback((notify: () => void) => client.subscribe((e) => e.type === "snapshot" && notify()), [client]),
    client.getSnapshot,
    () => INITIAL_SNAPSHOT,
  );

  const [toasts, setToasts] = useState<Toast[]>([]);
  const [advice, setAdvice] = useState<AdviceReport | null>(null);
  const [adviceLoading, setAdviceLoading] = useState(false);
  const [chat, setChat] = useState<ChatMessage[]>([]);
  const [notices, setNotices] = useState<TableNotice[]>([]);
  const [statsCounted, setStatsCounted] = useState<StatsCounted | null>(null);
  const authFailure = useRef(onAuthFailure);
  authFailure.current = onAuthFailure;
  const renewed = useRef(false);

  const pushToast = useCallback((error: ServerError) => {
    noticeId += 1;
    const toast: Toast = { id: noticeId, code: error.code, message: error.message, at: Date.now() };
    setToasts((list) => [...list.filter((t) => t.message !== toast.message), toast].slice(-4));
    const id = toast.id;
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), 7000);
  }, []);

  useEffect(() => {
    setAdvice(null);
    setAdviceLoading(false);
    const unsubscribe = client.subscribe((event) => {
      switch (event.type) {
        case "error":
          setAdviceLoading(false);
          if ((event.error.code === `closed_${CLOSE_POLICY}` || event.error.code === "unauthorized") && !renewed.current) {
            renewed.current = true;
            void Promise.resolve(authFailure.current?.()).then((again) => {
              if (again === true) client.reconnectNow(true);
            });
          }
          pushToast(event.error);
          break;
        case "welcome":
          renewed.current = false; // signed in: a later refusal may renew again
          break;
        case "advice":
          setAdvice(event.report);
          setAdviceLoading(false);
          break;
        case "chat":
          setChat((list) => addChat(list, event.message));
          break;
        case "stats":
          setStatsCounted(event.stats);
          break;
        case "state": {
          const { previous, view, cause } = event;
          // Advice is for one decision: drop it when the hand moves on, or when our
          // turn passed (advice that "Let AI decide" applied stays until the hand ends).
          if (!previous || previous.hand_no !== view.hand_no) {
            setAdvice(null);
            setAdviceLoading(false);
          } else if (previous.actor === view.viewer_seat && view.actor !== view.viewer_seat) {
            setAdvice((current) => (current?.applied ? current : null));
            setAdviceLoading(false);
          }
          if (cause && !event.resync && (cause.by === "host" || cause.kind === "host" || cause.kind === "seat_request")) {
            // The host ran the table (or asked, or the role passed on): a line for everyone.
            noticeId += 1;
            const notice: TableNotice = {
              id: noticeId,
              at: Date.now(),
              seat: cause.seat ?? null,
              by: "host",
              action: null,
              handNo: view.hand_no,
              note: cause.note ?? "",
              host: { kind: cause.kind, playerId: cause.player_id ?? null, amount: cause.amount ?? null, stack: cause.stack ?? null },
            };
            setNotices((list) => [...list, notice].slice(-30));
          } else if (cause && !event.resync && cause.kind === "rebuy" && typeof cause.amount === "number") {
            // Chips joined the table: logged, so stacks plus pots add up from the events.
            noticeId += 1;
            const notice: TableNotice = {
              id: noticeId,
              at: Date.now(),
              seat: cause.seat ?? null,
              by: "rebuy",
              action: null,
              handNo: view.hand_no,
              note: "",
              rebuy: { amount: cause.amount, stack: cause.stack ?? 0, topUp: cause.top_up === true, bot: cause.by === "bot" },
            };
            setNotices((list) => [...list, notice].slice(-30));
          } else if (cause && !event.resync && cause.kind === "stand" && typeof cause.stack === "number") {
            // A seat was freed: everyone sees the chips its player left with.
            noticeId += 1;
            const notice: TableNotice = {
              id: noticeId,
              at: Date.now(),
              seat: cause.seat ?? null,
              by: "left",
              action: null,
              handNo: view.hand_no,
              note: "",
              left: { playerId: cause.player_id ?? null, stack: cause.stack },
            };
            setNotices((list) => [...list, notice].slice(-30));
          } else if (cause && !event.resync && (cause.by === "ai" || cause.by === "timer" || (cause.by === "table" && cause.note))) {
            noticeId += 1;
            const notice: TableNotice = {
              id: noticeId,
              at: Date.now(),
              seat: cause.seat ?? null,
              by: cause.by,
              action: cause.action ?? null,
              handNo: view.hand_no,
              note: cause.note ?? "",
            };
            setNotices((list) => [...list, notice].slice(-30));
          }
          break;
        }
        default:
          break;
      }
    });
    client.connect();
    const online = () => client.reconnectNow();
    const visible = () => {
      if (document.visibilityState === "visible" && client.getSnapshot().status === "reconnecting") client.reconnectNow();
    };
    window.addEventListener("online", online);
    document.addEventListener("visibilitychange", visible);
    return () => {
      window.removeEventListener("online", online);
      document.removeEventListener("visibilitychange", visible);
      unsubscribe();
      client.close();
    };
  }, [client, pushToast]);

  const send = useCallback((command: ClientCommand) => client.send(command), [client]);
  const requestAdvice = useCallback(() => {
    if (client.send({ type: "advice" }) !== null) setAdviceLoading(true);
  }, [client]);
  const letAiDecide = useCallback(() => {
    if (client.send({ type: "ai_decide" }) !== null) setAdviceLoading(true);
  }, [client]);
  const clearAdvice = useCallback(() => setAdvice(null), []);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);

  return {
    client,
    snapshot,
    view: snapshot.view,
    toasts,
    dismiss,
    advice,
    adviceLoading,
    chat,
    notices,
    statsCounted,
    send,
    requestAdvice,
    letAiDecide,
    clearAdvice,
  };
}
