/** The table page's hooks: the decision, the side panel, the seat flow, notice flashes, cache refresh. */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChatMessage, ClientCommand, ConnectionStatus, SeatView, StatsCounted, TableView } from "../protocol";
import { leftWithStack } from "../components/SeatControls";
import { legal, makeView, seat } from "../test/fixtures";
import { HANDS_KEY } from "./useHands";
import { PENDING_MS, isMyTurn, useDecision } from "./useDecision";
import { AI_FLASH_MS, useNoticeFlashes } from "./useNoticeFlashes";
import { firstEmptySeat, rebuyRange, useSeatFlow } from "./useSeatFlow";
import { useSidePanel } from "./useSidePanel";
import type { TableNotice } from "./useTable";
import { useTableQueryRefresh } from "./useTableQueryRefresh";

/** A send that records what it was given and answers a ref (or null: not sent). */
function recorder(answer: () => string | null = () => "r1") {
  const sent: ClientCommand[] = [];
  const send = (command: ClientCommand) => {
    sent.push(command);
    return answer();
  };
  return { sent, send };
}

const myTurn = makeView(); // preflop, Alice (seat 1, the viewer) to act
const othersTurn = makeView({ actor: 2, legal_actions: null });

describe("useDecision", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("knows your turn", () => {
    expect(isMyTurn(myTurn)).toBe(true);
    expect(isMyTurn(othersTurn)).toBe(false);
    expect(isMyTurn(makeView({ hand_in_progress: false }))).toBe(false);
    expect(isMyTurn(null)).toBe(false);
  });

  it("waits for an action's answer until a new state, an error, or the wait runs out", () => {
    const { sent, send } = recorder();
    const { result, rerender } = renderHook(({ seq, toasts }) => useDecision(myTurn, seq, toasts, send), { initialProps: { seq: 1, toasts: 0 } });
    act(() => result.current.onAct("raise", 300));
    expect(sent).toEqual([{ type: "act", action: "raise", amount: 300, hand_no: 3 }]);
    expect(result.current.pending).toBe(true);
    rerender({ seq: 2, toasts: 0 });
    expect(result.current.pending).toBe(false);

    act(() => result.current.onAct("call"));
    expect(sent[1]).toEqual({ type: "act", action: "call", hand_no: 3 });
    rerender({ seq: 2, toasts: 1 });
    expect(result.current.pending).toBe(false);

    act(() => result.current.onAct("fold"));
    act(() => vi.advanceTimersByTime(PENDING_MS - 1));
    expect(result.current.pending).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.pending).toBe(false);
  });

  it("does not wait for an action that was not sent", () => {
    const { send } = recorder(() => null);
    const { result } = renderHook(() => useDecision(myTurn, 1, 0, send));
    act(() => result.current.onAct("fold"));
    expect(result.current.pending).toBe(false);
  });

  it("fires a pre-action when your turn comes, once", () => {
    const { sent, send } = recorder();
    const { result, rerender } = renderHook(({ view }) => useDecision(view, 1, 0, send), { initialProps: { view: othersTurn } });
    act(() => result.current.setPreAction("check_fold"));
    expect(sent).toEqual([]);
    // Facing a bet: check/fold folds.
    rerender({ view: makeView({ legal_actions: legal({ can_check: false }) }) });
    expect(sent).toEqual([{ type: "act", action: "fold", hand_no: 3 }]);
    expect(result.current.preAction).toBeNull();
    expect(result.current.pending).toBe(true);
  });

  it("drops a pre-action with a new hand", () => {
    const { sent, send } = recorder();
    const { result, rerender } = renderHook(({ view }) => useDecision(view, 1, 0, send), { initialProps: { view: othersTurn } });
    act(() => result.current.setPreAction("call_any"));
    rerender({ view: makeView({ actor: 2, legal_actions: null, hand_no: 4 }) });
    expect(result.current.preAction).toBeNull();
    rerender({ view: makeView({ hand_no: 4 }) });
    expect(sent).toEqual([]);
  });
});

function chatLine(seq: number, history = false): ChatMessage {
  return { at: 1000 + seq, history, name: "Ada", player_id: "p-2", seat: 2, seq, text: `hi ${seq}` };
}

describe("useSidePanel", () => {
  it("counts chat lines that come while the chat is closed, and reads them when it opens", () => {
    const { result, rerender } = renderHook(({ chat }) => useSidePanel(null, false, chat), { initialProps: { chat: [] as ChatMessage[] } });
    expect(result.current.tab).toBe("log");
    rerender({ chat: [chatLine(1)] });
    rerender({ chat: [chatLine(1), chatLine(2)] });
    expect(result.current.unreadChat).toBe(2);
    act(() => result.current.setTab("chat"));
    expect(result.current.unreadChat).toBe(0);
    rerender({ chat: [chatLine(1), chatLine(2), chatLine(3)] });
    expect(result.current.unreadChat).toBe(0);
    // Switching away is not a new line.
    act(() => result.current.setTab("log"));
    expect(result.current.unreadChat).toBe(0);
  });

  it("does not count lines sent again on joining", () => {
    const { result, rerender } = renderHook(({ chat }) => useSidePanel(null, false, chat), { initialProps: { chat: [] as ChatMessage[] } });
    rerender({ chat: [chatLine(1, true), chatLine(2, true)] });
    expect(result.current.unreadChat).toBe(0);
  });

  it("opens the advice tab when advice is asked for", () => {
    const { result, rerender } = renderHook(({ loading }) => useSidePanel(null, loading, []), { initialProps: { loading: false } });
    expect(result.current.tab).toBe("log");
    rerender({ loading: true });
    expect(result.current.tab).toBe("advice");
  });
});

interface FlowProps {
  view: TableView | null;
  me: SeatView | null;
  status: ConnectionStatus;
  join: boolean;
  watch: boolean;
}

describe("useSeatFlow", () => {
  const watching = makeView({ viewer_seat: null, seats: makeView().seats.slice(1) }); // seat 1 is free
  const busted = seat({ seat: 1, name: "Alice", player_id: "alice", stack: 0, state: "sitting_out" });

  it("finds the first empty seat and the rebuy's range", () => {
    expect(firstEmptySeat(watching)).toBe(1);
    expect(firstEmptySeat(makeView({ seats: [seat({ seat: 1, name: "A" }), seat({ seat: 3, name: "B" })] }))).toBe(2);
    const full = makeView({ config: { ...makeView().config, seats: 4 } });
    expect(firstEmptySeat(full)).toBeNull();
    expect(rebuyRange(myTurn, busted)).toEqual({ min: 4000, max: 10000 });
    expect(rebuyRange(myTurn, seat({ seat: 1, name: "Alice", stack: 7000 }))).toEqual({ min: 1, max: 3000 });
    expect(rebuyRange(myTurn, null)).toEqual({ min: 0, max: 0 });
  });

  it("offers the first empty seat once on a join link, and sits there", () => {
    const { sent, send } = recorder();
    const initialProps: FlowProps = { view: null, me: null, status: "connecting", join: true, watch: false };
    const { result, rerender } = renderHook((p: FlowProps) => useSeatFlow({ ...p, send }), { initialProps });
    expect(result.current.buyInSeat).toBeNull();
    rerender({ ...initialProps, view: watching, status: "open" });
    expect(result.current.buyInSeat).toBe(1);
    act(() => result.current.cancelBuyIn());
    rerender({ ...initialProps, view: makeView({ ...watching, hand_no: 4 }), status: "open" });
    expect(result.current.buyInSeat).toBeNull(); // offered once only
    act(() => result.current.offerSeat(5));
    act(() => result.current.sit(4000));
    expect(sent).toEqual([{ type: "sit", seat: 5, buy_in: 4000 }]);
    expect(result.current.buyInSeat).toBeNull();
  });

  it("offers no seat to a watcher", () => {
    const { send } = recorder();
    const { result } = renderHook(() => useSeatFlow({ view: watching, me: null, status: "open", join: true, watch: true, send }));
    expect(result.current.buyInSeat).toBeNull();
  });

  it("brings a busted player back with a rebuy", () => {
    const { sent, send } = recorder();
    const { result } = renderHook(() => useSeatFlow({ view: myTurn, me: busted, status: "open", join: false, watch: false, send }));
    act(() => result.current.openRebuy());
    expect(result.current.rebuyOpen).toBe(true);
    act(() => result.current.rebuy(5000));
    expect(sent).toEqual([{ type: "rebuy", amount: 5000 }, { type: "sit_back" }]);
    expect(result.current.rebuyOpen).toBe(false);
  });

  it("tops up a playing seat without sitting back", () => {
    const { sent, send } = recorder();
    const me = seat({ seat: 1, name: "Alice", stack: 7000 });
    const { result } = renderHook(() => useSeatFlow({ view: myTurn, me, status: "open", join: false, watch: false, send }));
    act(() => result.current.rebuy(3000));
    expect(sent).toEqual([{ type: "rebuy", amount: 3000 }]);
  });

  it("keeps a sit-out asked for until it applies", () => {
    const { sent, send } = recorder();
    const playing = seat({ seat: 1, name: "Alice", stack: 7000 });
    const initialProps: FlowProps = { view: myTurn, me: playing, status: "open", join: false, watch: false };
    const { result, rerender } = renderHook((p: FlowProps) => useSeatFlow({ ...p, send }), { initialProps });
    act(() => result.current.sitOut());
    expect(sent).toEqual([{ type: "sit_out" }]);
    expect(result.current.sitOutRequested).toBe(true);
    rerender({ ...initialProps, view: makeView({ hand_no: 4 }), me: { ...playing } });
    expect(result.current.sitOutRequested).toBe(true);
    rerender({ ...initialProps, me: { ...playing, state: "sitting_out" } });
    expect(result.current.sitOutRequested).toBe(false);
  });

  it("does not mark a sit-out that was not sent", () => {
    const { send } = recorder(() => null);
    const me = seat({ seat: 1, name: "Alice" });
    const { result } = renderHook(() => useSeatFlow({ view: myTurn, me, status: "reconnecting", join: false, watch: false, send }));
    act(() => result.current.sitOut());
    expect(result.current.sitOutRequested).toBe(false);
  });
});

let noticeId = 0;
function notice(partial: Partial<TableNotice> & Pick<TableNotice, "by">): TableNotice {
  return { id: ++noticeId, at: Date.now(), seat: null, action: null, handNo: 3, note: "", ...partial };
}

describe("useNoticeFlashes", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("flashes the seat the AI decided for until it runs out or the seat acts again", () => {
    const ai = notice({ by: "ai", seat: 2 });
    const initialProps = { notices: [] as TableNotice[], view: othersTurn as TableView };
    const { result, rerender } = renderHook(({ notices, view }) => useNoticeFlashes(notices, view), { initialProps });
    rerender({ notices: [ai], view: myTurn });
    expect([...result.current.aiSeats]).toEqual([2]);
    act(() => vi.advanceTimersByTime(AI_FLASH_MS));
    expect(result.current.aiSeats.size).toBe(0);

    const again = notice({ by: "ai", seat: 2 });
    rerender({ notices: [ai, again], view: myTurn });
    expect(result.current.aiSeats.has(2)).toBe(true);
    rerender({ notices: [ai, again], view: othersTurn }); // seat 2 decides again
    expect(result.current.aiSeats.size).toBe(0);
  });

  it("cues a rebuy or top-up at its seat, once per notice", () => {
    const rebuy = notice({ by: "rebuy", seat: 3, rebuy: { amount: 1000, stack: 1000, topUp: false, bot: true } });
    const topUp = notice({ by: "rebuy", seat: 4, rebuy: { amount: 2500, stack: 10000, topUp: true, bot: true } });
    const { result, rerender } = renderHook(({ notices, view }) => useNoticeFlashes(notices, view), { initialProps: { notices: [rebuy], view: myTurn } });
    expect(result.current.seatCues.get(3)).toBe("+1,000 rebuy");
    rerender({ notices: [rebuy, topUp], view: myTurn });
    expect(result.current.seatCues.get(4)).toBe("+2,500 top-up");
    act(() => vi.advanceTimersByTime(3000));
    expect(result.current.seatCues.size).toBe(0);
    // A new view (the next action) does not flash the same notice again.
    rerender({ notices: [rebuy, topUp], view: othersTurn });
    expect(result.current.seatCues.size).toBe(0);
  });
});

describe("leftWithStack", () => {
  it("says the chips of your latest leaving only", () => {
    const left = (playerId: string, stack: number) => notice({ by: "left", left: { playerId, stack } });
    expect(leftWithStack([left("alice", 500), left("bob", 900), left("alice", 700), notice({ by: "ai", seat: 2 })], "alice")).toBe(700);
    expect(leftWithStack([left("bob", 900)], "alice")).toBeNull();
  });
});

describe("useTableQueryRefresh", () => {
  function setup() {
    const client = new QueryClient();
    for (const id of ["alice", "ada"]) client.setQueryData(["player-stats", id, {}], { hands: 1 });
    client.setQueryData([...HANDS_KEY, "alice", "t1", 20, 0], []);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
    return { client, wrapper, stale };
  }

  it("refreshes the HUD statistics of the players counted, only theirs", () => {
    const { wrapper, stale } = setup();
    const initialProps = { stats: null as StatsCounted | null };
    const { rerender } = renderHook(({ stats }) => useTableQueryRefresh(stats, true, 3), { wrapper, initialProps });
    expect(stale(["player-stats", "alice", {}])).toBe(false);
    rerender({ stats: { at: 1, hand_no: 3, player_ids: ["ada"] } });
    expect(stale(["player-stats", "ada", {}])).toBe(true);
    expect(stale(["player-stats", "alice", {}])).toBe(false);
  });

  it("refreshes the hand lists when hands are counted (they are filed by then)", () => {
    const { wrapper, stale } = setup();
    const initialProps = { stats: null as StatsCounted | null };
    const { rerender } = renderHook(({ stats }) => useTableQueryRefresh(stats, true, 4), { wrapper, initialProps });
    expect(stale([...HANDS_KEY, "alice", "t1", 20, 0])).toBe(false);
    rerender({ stats: { at: 1, hand_no: 3, player_ids: ["alice"] } });
    expect(stale([...HANDS_KEY, "alice", "t1", 20, 0])).toBe(true);
  });

  it("refreshes the hand lists when a hand ends", () => {
    const { wrapper, stale } = setup();
    const { rerender } = renderHook(({ live, handNo }) => useTableQueryRefresh(null, live, handNo), { wrapper, initialProps: { live: true, handNo: 3 } });
    expect(stale([...HANDS_KEY, "alice", "t1", 20, 0])).toBe(false);
    rerender({ live: false, handNo: 3 });
    expect(stale([...HANDS_KEY, "alice", "t1", 20, 0])).toBe(true);
    expect(stale(["player-stats", "alice", {}])).toBe(false);
  });
});
