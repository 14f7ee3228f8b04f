import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Card } from "./Card";
import { PokerTable } from "./PokerTable";
import { ActionBar, resolvePreAction, type ActionBarProps } from "./ActionBar";
import { AdvicePanel } from "./AdvicePanel";
import { HandLog } from "./HandLog";
import { timerState } from "./TurnTimer";
import { handNameFor } from "../lib/handrank";
import { ConnectionBadge } from "./ConnectionBadge";
import { INITIAL_SNAPSHOT } from "../protocol/client";
import { LIMIT_CONFIG, legal, makeView, seat, event, read } from "../test/fixtures";
import type { AdviceReport, TableView } from "../protocol";

function renderTable(view: TableView, extra: Partial<Parameters<typeof PokerTable>[0]> = {}) {
  return render(<PokerTable view={view} clock={null} clockOffset={0} canSit={false} onSit={() => {}} {...extra} />);
}

describe("Card", () => {
  it("draws a face with its name, or the back", () => {
    render(
      <>
        <Card code="Td" />
        <Card code={null} />
      </>,
    );
    expect(screen.getByRole("img", { name: "ten of diamonds" })).toHaveAttribute("data-card", "Td");
    expect(screen.getByRole("img", { name: "face-down card" })).toHaveAttribute("data-card", "back");
  });
});

describe("PokerTable", () => {
  it("shows my cards face up, the others face down, bets, blinds, button and pot", () => {
    renderTable(makeView());
    const me = screen.getByTestId("seat-1");
    expect(me).toHaveAttribute("data-me", "true");
    expect(within(me).getAllByRole("img").map((c) => c.getAttribute("data-card"))).toEqual(["Ah", "Kd"]);
    const bert = screen.getByTestId("seat-3");
    expect(within(bert).getAllByRole("img").map((c) => c.getAttribute("data-card"))).toEqual(["back", "back"]);
    expect(within(bert).getByText("BB")).toBeInTheDocument();
    expect(screen.getByTestId("bet-3")).toHaveTextContent("100");
    expect(screen.getByTestId("bet-2")).toHaveTextContent("50");
    expect(screen.getByTestId("pot-total")).toHaveTextContent("150");
    expect(screen.getByTestId("dealer-button")).toBeInTheDocument();
    // Empty seats 5 and 6 are drawn but not offered to a seated player.
    expect(screen.getByTestId("empty-seat-5")).toBeInTheDocument();
    expect(screen.queryByTestId("sit-5")).toBeNull();
  });

  it("puts the viewer's seat at the bottom", () => {
    renderTable(makeView({ viewer_seat: 3 }));
    const top = Number.parseFloat(screen.getByTestId("seat-3").style.top);
    expect(top).toBeGreaterThan(85);
  });

  it("offers empty seats to someone who is not seated", () => {
    const onSit = vi.fn();
    renderTable(makeView({ viewer_seat: null, legal_actions: null }), { canSit: true, onSit });
    fireEvent.click(screen.getByTestId("sit-6"));
    expect(onSit).toHaveBeenCalledWith(6);
  });

  it("lists side pots and formats chips with chip_unit", () => {
    const view = makeView({
      config: { ...makeView().config, chip_unit: "0.01" },
      pots: [
        { amount: 3000, seats: [1, 2, 3] },
        { amount: 1200, seats: [1, 2] },
      ],
      total_pot: 4200,
    });
    renderTable(view);
    expect(screen.getByTestId("pot-total")).toHaveTextContent("42.00");
    expect(screen.getByTestId("side-pots")).toHaveTextContent("Main: 30.00");
    expect(screen.getByTestId("side-pots")).toHaveTextContent("Side 1: 12.00");
  });

  it("names my hand under my cards, and nothing once I folded", () => {
    const base = makeView();
    const mine = base.seats.map((s) => (s.seat === 1 ? { ...s, hole_cards: ["Kh", "7d"] } : s));
    renderTable(makeView({ seats: mine, board: ["Kc", "7s", "2d"] }));
    expect(screen.getByTestId("my-hand-name")).toHaveTextContent("Two Pair, Kings and Sevens");
  });

  it("names a pocket pair before the flop", () => {
    expect(handNameFor(["Qh", "Qd"], [])).toBe("Pair of Queens");
    expect(handNameFor(["Qh", "Jd"], [])).toBeNull();
    expect(handNameFor(["Ah", "Kh"], ["Qh", "Jh", "Th"])).toBe("Royal Flush");
  });

  it("says the table waits for players when the only person sat out", () => {
    const seats = makeView().seats.map((s) => ({ ...s, has_cards: false, state: s.seat === 1 ? ("sitting_out" as const) : ("waiting" as const), is_bot: s.seat !== 1 }));
    renderTable(makeView({ hand_in_progress: false, actor: null, legal_actions: null, seats }));
    expect(screen.getByTestId("waiting-for-players")).toHaveTextContent("Waiting for players");
  });

  it("does not wait when a person plays", () => {
    const seats = makeView().seats.map((s) => ({ ...s, has_cards: false, state: "waiting" as const, is_bot: s.seat !== 1 }));
    renderTable(makeView({ hand_in_progress: false, actor: null, legal_actions: null, seats }));
    expect(screen.queryByTestId("waiting-for-players")).toBeNull();
  });

  it("keeps my folded cards dimmed once the hand is over", () => {
    const view = makeView({ hand_in_progress: false, legal_actions: null, actor: null, events: [event({ kind: "fold", street: "preflop", seat: 1 })] });
    renderTable(view);
    expect(screen.getByTestId("my-cards")).toHaveClass("seat__cards--folded");
  });

  it("shows my cards at full brightness when I did not fold", () => {
    renderTable(makeView({ hand_in_progress: false, legal_actions: null, actor: null, events: [event({ kind: "fold", street: "preflop", seat: 2 })] }));
    expect(screen.getByTestId("my-cards")).not.toHaveClass("seat__cards--folded");
  });

  it("shows the winner and shown cards after the hand", () => {
    const view = makeView({
      hand_in_progress: false,
      actor: null,
      legal_actions: null,
      board: ["Kd", "Kc", "3s", "Jc", "Tc"],
      seats: [
        seat({ seat: 1, name: "Alice", player_id: "alice", hole_cards: ["Ah", "2d"], has_cards: false, state: "waiting" }),
        seat({ seat: 2, name: "Ada", hole_cards: ["Td", "Kh"], has_cards: false, state: "waiting", stack: 12000 }),
      ],
      last_result: { hand_no: 3, net: { "2": 2000, "1": -2000 }, winnings: { "2": 4000 }, shown: { "2": ["Td", "Kh"] }, board: ["Kd", "Kc", "3s", "Jc", "Tc"], boards: [] },
    });
    renderTable(view);
    expect(screen.getByTestId("hand-result")).toHaveTextContent("Ada wins 4,000 with a Full House, Kings full of Tens");
    // A phone's narrow line shows the short name (the stylesheet picks one of the two):
    // the full one was cut to "Kings full of Te…".
    const result = screen.getByTestId("hand-result");
    expect(result.querySelector(".pot__hand-full")?.textContent).toBe("a Full House, Kings full of Tens");
    expect(result.querySelector(".pot__hand-short")?.textContent).toBe("Ks full of 10s");
    expect(screen.getByTestId("won-2")).toHaveTextContent("+4,000");
    expect(within(screen.getByTestId("seat-2")).getAllByRole("img").map((c) => c.getAttribute("data-card"))).toEqual(["Td", "Kh"]);
    expect(screen.getAllByTestId("board-card")).toHaveLength(5);
    // The winning five are highlighted, the rest of the board dimmed.
    const lit = (el: Element) => el.classList.contains("card--hl");
    const board = screen.getAllByTestId("board-card");
    expect(board.filter(lit).map((c) => c.getAttribute("data-card"))).toEqual(["Kd", "Kc", "Tc"]);
    expect(board.filter((c) => c.classList.contains("card--dim")).map((c) => c.getAttribute("data-card"))).toEqual(["3s", "Jc"]);
    expect(within(screen.getByTestId("seat-2")).getAllByRole("img").every(lit)).toBe(true);
  });

  it("sums up three or more winners in two lines, each seat's share on its own label", () => {
    const board = ["Ah", "Kd", "7c", "7s", "2h"];
    const view = makeView({
      hand_in_progress: false,
      actor: null,
      legal_actions: null,
      board,
      seats: [
        seat({ seat: 1, name: "Alice", player_id: "alice", hole_cards: ["Qh", "Qd"], has_cards: false, state: "waiting" }),
        seat({ seat: 2, name: "Ada", hole_cards: ["Qs", "Qc"], has_cards: false, state: "waiting" }),
        seat({ seat: 3, name: "Bob", hole_cards: ["Kh", "Kc"], has_cards: false, state: "waiting" }),
      ],
      last_result: {
        hand_no: 3,
        net: { "1": 500, "2": 500, "3": 1000 },
        winnings: { "1": 1000, "2": 1000, "3": 1500 },
        shown: { "1": ["Qh", "Qd"], "2": ["Qs", "Qc"], "3": ["Kh", "Kc"] },
        board,
        boards: [],
      },
    });
    renderTable(view);
    const result = screen.getByTestId("hand-result");
    expect(result).toHaveAttribute("data-winners", "3");
    expect(result.children).toHaveLength(2);
    expect(result.children[0]).toHaveTextContent("3,500 to Alice, Ada and Bob");
    expect(result.children[1]).toHaveTextContent("with Two Pair, Queens and Sevens · a Full House, Kings full of Sevens");
    expect(result).toHaveAttribute("title", expect.stringContaining("Bob wins 1,500 with a Full House, Kings full of Sevens"));
    expect(screen.getByTestId("won-3")).toHaveTextContent("+1,500");
  });

  it("says a seat sitting out is sitting out, not waiting for the big blind", () => {
    const view = makeView({
      hand_in_progress: false,
      actor: null,
      legal_actions: null,
      seats: [
        seat({ seat: 1, name: "Alice", player_id: "alice", state: "sitting_out", waiting_for_big_blind: true }),
        seat({ seat: 2, name: "Ada", state: "waiting", waiting_for_big_blind: true }),
      ],
    });
    renderTable(view);
    expect(within(screen.getByTestId("seat-1")).getByText("Sitting out")).toBeInTheDocument();
    expect(within(screen.getByTestId("seat-1")).queryByText("Waiting for BB")).toBeNull();
    expect(within(screen.getByTestId("seat-2")).getByText("Waiting for BB")).toBeInTheDocument();
  });

  it("flags the seat the AI decided for", () => {
    renderTable(makeView(), { aiSeats: new Set([4]) });
    expect(screen.getByTestId("ai-decided-4")).toHaveTextContent("AI decided");
  });
});

function bar(overrides: Partial<ActionBarProps> = {}, view: TableView = makeView()) {
  const props: ActionBarProps = {
    view,
    onAct: vi.fn(),
    onAiDecide: vi.fn(),
    onAdvice: vi.fn(),
    adviceAllowed: true,
    aiBusy: false,
    pending: false,
    preAction: null,
    onPreAction: vi.fn(),
    ...overrides,
  };
  render(<ActionBar {...props} />);
  return props;
}

describe("ActionBar", () => {
  it("enables only the legal actions, with the call amount", () => {
    bar();
    expect(screen.getByTestId("act-fold")).toBeEnabled();
    expect(screen.getByTestId("act-call")).toHaveTextContent("Call 100");
    expect(screen.queryByTestId("act-check")).toBeNull();
    expect(screen.getByTestId("act-raise")).toHaveTextContent("Raise to 200");
  });

  it("says the Fixed-Limit betting is capped instead of dropping the raise", () => {
    const capped = legal({ raise_kind: null, min_to: null, max_to: null, call_amount: 100, stack: 5000 });
    bar({}, makeView({ config: LIMIT_CONFIG, legal_actions: capped }));
    expect(screen.getByTestId("act-capped")).toBeDisabled();
    expect(screen.getByTestId("act-capped")).toHaveTextContent("Capped");
    expect(screen.queryByTestId("act-raise")).toBeNull();
  });

  it("is not capped when the call puts the player all in", () => {
    const short = legal({ raise_kind: null, min_to: null, max_to: null, call_amount: 100, stack: 100 });
    bar({}, makeView({ config: LIMIT_CONFIG, legal_actions: short }));
    expect(screen.queryByTestId("act-capped")).toBeNull();
  });

  it("offers check (no fold) when checking is free", () => {
    bar({}, makeView({ legal_actions: legal({ can_fold: false, can_check: true, can_call: false, call_amount: 0, raise_kind: "bet", min_to: 100 }) }));
    expect(screen.queryByTestId("act-fold")).toBeNull();
    expect(screen.getByTestId("act-check")).toBeEnabled();
    expect(screen.getByTestId("act-raise")).toHaveTextContent("Bet 100");
  });

  it("sizes No-Limit raises with quick sizes, the slider and a typed amount", () => {
    const props = bar();
    fireEvent.click(screen.getByTestId("size-pot"));
    expect(screen.getByTestId("act-raise")).toHaveAttribute("data-amount", "350");
    fireEvent.click(screen.getByTestId("act-raise"));
    expect(props.onAct).toHaveBeenLastCalledWith("raise", 350);
    fireEvent.change(screen.getByTestId("raise-slider"), { target: { value: "1234" } });
    expect(screen.getByTestId("act-raise")).toHaveAttribute("data-amount", "1234");
    const input = screen.getByTestId("raise-input");
    fireEvent.change(input, { target: { value: "99999" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(props.onAct).toHaveBeenLastCalledWith("raise", 10000); // clamped to max_to
    fireEvent.click(screen.getByTestId("size-all-in"));
    expect(screen.getByTestId("act-raise")).toHaveTextContent("All-in");
  });

  it("uses the fixed size in Limit (no slider)", () => {
    const view = makeView({ config: LIMIT_CONFIG, legal_actions: legal({ min_to: 4, max_to: 4, call_amount: 2 }) });
    const props = bar({}, view);
    expect(screen.queryByTestId("sizing")).toBeNull();
    expect(screen.getByTestId("act-raise")).toHaveTextContent("Raise to 4");
    fireEvent.click(screen.getByTestId("act-raise"));
    expect(props.onAct).toHaveBeenCalledWith("raise", 4);
  });

  it("has keyboard shortcuts", () => {
    const props = bar();
    fireEvent.keyDown(window, { key: "c" });
    expect(props.onAct).toHaveBeenLastCalledWith("call");
    fireEvent.keyDown(window, { key: "f" });
    expect(props.onAct).toHaveBeenLastCalledWith("fold");
    fireEvent.keyDown(window, { key: "4" }); // pot
    fireEvent.keyDown(window, { key: "r" });
    expect(props.onAct).toHaveBeenLastCalledWith("raise", 350);
    fireEvent.keyDown(window, { key: "l" });
    expect(props.onAiDecide).toHaveBeenCalled();
    fireEvent.keyDown(window, { key: "h" });
    expect(props.onAdvice).toHaveBeenCalled();
  });

  it("does not act twice while a decision is on its way", () => {
    const props = bar({ pending: true });
    expect(screen.getByTestId("act-call")).toBeDisabled();
    fireEvent.keyDown(window, { key: "c" });
    expect(props.onAct).not.toHaveBeenCalled();
  });

  it("offers pre-actions while another player acts", () => {
    const view = makeView({ actor: 3, legal_actions: null });
    const props = bar({}, view);
    expect(screen.queryByTestId("action-bar")).toBeNull();
    expect(screen.getByTestId("pre-actions")).toHaveTextContent("Waiting for Bert");
    fireEvent.click(screen.getByTestId("pre-call_any"));
    expect(props.onPreAction).toHaveBeenCalledWith("call_any");
  });

  it("resolves pre-actions against what is legal", () => {
    const facing = legal();
    const free = legal({ can_fold: false, can_check: true, can_call: false, call_amount: 0 });
    expect(resolvePreAction("check_fold", facing)).toEqual({ kind: "fold" });
    expect(resolvePreAction("check_fold", free)).toEqual({ kind: "check" });
    expect(resolvePreAction("check", facing)).toBeNull();
    expect(resolvePreAction("call_any", facing)).toEqual({ kind: "call" });
    expect(resolvePreAction("call_any", free)).toEqual({ kind: "check" });
  });

  it("shows nothing to a spectator", () => {
    const { container } = render(
      <ActionBar view={makeView({ viewer_seat: null, legal_actions: null })} onAct={vi.fn()} onAiDecide={vi.fn()} onAdvice={vi.fn()} adviceAllowed aiBusy={false} pending={false} preAction={null} onPreAction={vi.fn()} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

const REPORT: AdviceReport = {
  ref: null,
  hand_no: 3,
  seat: 1,
  source: "worker",
  applied: false,
  advice: {
    action: "raise",
    amount: 600,
    values: [
      { action: "fold", amount: null, value_bb: 0, stderr_bb: null, share: null, prize_equity: null },
      { action: "call", amount: null, value_bb: 1.2, stderr_bb: 0.3, share: 0.25, prize_equity: null },
      { action: "raise", amount: 600, value_bb: 2.4, stderr_bb: 0.2, share: 0.75, prize_equity: null },
    ],
    equity: 0.61,
    ehs: 0.66,
    opponents: [read({ seat: 4, label: "loose-passive", vpip: 0.45, note: "calls light" })],
    reason: "Top pair, good kicker against a calling station: value raise.",
    close_call: null,
    prize_equity: null,
  },
};

describe("AdvicePanel", () => {
  it("marks the recommended action, not the highest value, when the search chose a check over a bet within its error", () => {
    const advice = {
      ...REPORT.advice,
      action: "check" as const,
      amount: null,
      values: [
        { action: "check" as const, amount: null, value_bb: 0.1, stderr_bb: 0.2, share: 0.5, prize_equity: null },
        { action: "bet" as const, amount: null, value_bb: 0.3, stderr_bb: 0.2, share: 0.5, prize_equity: null },
      ],
    };
    render(<AdvicePanel report={{ ...REPORT, advice }} loading={false} view={makeView()} canAsk />);
    const rows = within(screen.getByTestId("advice-values")).getAllByRole("row");
    expect(rows[0]).toHaveTextContent("Bet");
    expect(rows[0]).not.toHaveClass("is-best");
    expect(rows[1]).toHaveClass("is-best");
  });

  it("names a close call between the recommendation and the runner-up, and none when clear", () => {
    const runner = { action: "call" as const, amount: null, value_bb: 2.1, stderr_bb: 0.3, share: 0.25, prize_equity: null };
    const advice = { ...REPORT.advice, close_call: runner };
    const { unmount } = render(<AdvicePanel report={{ ...REPORT, advice }} loading={false} view={makeView()} canAsk />);
    expect(screen.getByTestId("advice-close-call").textContent).toBe("Close call: Raise to 600 vs Call");
    unmount();
    render(<AdvicePanel report={REPORT} loading={false} view={makeView()} canAsk />);
    expect(screen.queryByTestId("advice-close-call")).toBeNull();
  });

  it("labels a recommended raise as a sentence: 'Raise to 16,525', in the text itself", () => {
    const advice = { ...REPORT.advice, action: "raise" as const, amount: 16525 };
    render(<AdvicePanel report={{ ...REPORT, advice }} loading={false} view={makeView()} canAsk />);
    // jsdom applies no CSS, so this is what a screen reader and a copy-paste get too.
    expect(screen.getByTestId("advice-action").textContent).toBe("Raise to 16,525");
  });

  it("shows the recommendation, values, equity, reads and the reason", () => {
    render(<AdvicePanel report={REPORT} loading={false} view={makeView()} canAsk />);
    expect(screen.getByTestId("advice-recommendation")).toHaveTextContent("Recommended");
    expect(screen.getByTestId("advice-action")).toHaveTextContent(/^Raise to 600$/);
    expect(screen.getByTestId("advice-equity")).toHaveTextContent("61%");
    const rows = within(screen.getByTestId("advice-values")).getAllByRole("row");
    expect(rows[0]).toHaveTextContent("Raise 600");
    expect(rows[0]).toHaveTextContent("+2.40");
    // One short line: "searched" spelled out wrapped the column onto three lines.
    expect(within(rows[0]!).getByTestId("advice-spread").textContent).toBe("±0.20 · 75%");
    expect(within(rows[0]!).getByTestId("advice-spread")).toHaveAttribute("title", "±0.20 bb standard error, 75% of the search");
    expect(rows[2]).toHaveTextContent("Fold");
    expect(rows[2]).not.toHaveTextContent("±");
    expect(rows[0]).toHaveClass("is-best");
    expect(screen.getByTestId("advice-reads")).toHaveTextContent("Cleo");
    expect(screen.getByTestId("advice-reads")).toHaveTextContent("loose-passive");
    expect(screen.getByTestId("advice-reads")).toHaveTextContent("VPIP 45%");
    expect(screen.getByTestId("advice-reason")).toHaveTextContent("value raise");
  });

  it("shows the opponent model's prediction and range", () => {
    const grid = Array.from({ length: 13 }, (_, r) => Array.from({ length: 13 }, (_, c) => (r === 0 && c === 0 ? 1 : 0.01)));
    const opponents = [read({ seat: 4, hands: 120, predicted: [0.2, 0.5, 0.3], range_grid: grid })];
    render(<AdvicePanel report={{ ...REPORT, advice: { ...REPORT.advice, opponents } }} loading={false} view={makeView()} canAsk />);
    expect(screen.getByTestId("advice-predicted")).toHaveTextContent("fold 20% · call 50% · raise 30%");
    expect(screen.getByTestId("advice-predicted")).toHaveTextContent("120 hands of data");
    const cells = screen.getByTestId("range-grid").children;
    expect(cells).toHaveLength(169);
    expect(cells[0]).toHaveAttribute("title", "AA: 100%");
    expect(cells[1]).toHaveAttribute("title", "AKs: 1%");
    expect(cells[13]).toHaveAttribute("title", "AKo: 1%");
  });

  it("says when the AI played the decision", () => {
    render(<AdvicePanel report={{ ...REPORT, applied: true, source: "fallback" }} loading={false} view={makeView()} canAsk />);
    expect(screen.getByTestId("advice-recommendation")).toHaveTextContent("The AI played");
    expect(screen.getByTestId("advice-panel")).toHaveTextContent("Built-in policy");
  });

  it("invites to ask, and shows the AI thinking", () => {
    const ask = vi.fn();
    const { rerender } = render(<AdvicePanel report={null} loading={false} view={makeView()} onAsk={ask} canAsk />);
    fireEvent.click(screen.getByTestId("advice-ask"));
    expect(ask).toHaveBeenCalled();
    rerender(<AdvicePanel report={null} loading view={makeView()} onAsk={ask} canAsk />);
    expect(screen.getByTestId("advice-loading")).toBeInTheDocument();
  });
});

describe("HandLog", () => {
  it("lists this hand's events by street and the AI notices", () => {
    const view = makeView({
      events: [
        ...makeView().events,
        event({ kind: "call", street: "preflop", seat: 1, amount: 100 }),
        event({ kind: "board", street: "flop", cards: ["Ah", "7c", "2d"] }),
        event({ kind: "bet", street: "flop", seat: 3, amount: 200 }),
      ],
    });
    render(<HandLog view={view} notices={[{ id: 1, at: 0, seat: 1, by: "ai", action: { kind: "call", amount: null }, handNo: 3, note: "" }]} />);
    const log = screen.getByTestId("hand-log");
    expect(log).toHaveTextContent("Ada posts the small blind 50");
    expect(log).toHaveTextContent("Flop: A♥ 7♣ 2♦");
    expect(log).toHaveTextContent("Bert bets 200");
    expect(screen.getByTestId("notice")).toHaveTextContent("AI decided for Alice: call");
  });
});

describe("turn clock", () => {
  it("counts the decision time, then the time bank", () => {
    const clock = { seat: 1, started_at: 0, deadline: 50_000, action_timeout_ms: 20_000, time_bank_ms: 30_000 };
    expect(timerState(clock, 5_000)).toMatchObject({ phase: "main", remainingMs: 15_000 });
    expect(timerState(clock, 30_000)).toMatchObject({ phase: "bank", remainingMs: 20_000 });
    expect(timerState(clock, 60_000).phase).toBe("over");
  });
});

describe("ConnectionBadge", () => {
  it("says a silent connection gets no answer instead of staying Live", () => {
    const { rerender } = render(<ConnectionBadge snapshot={{ ...INITIAL_SNAPSHOT, status: "open" }} onRetry={() => {}} />);
    expect(screen.getByTestId("connection")).toHaveTextContent("Live");
    rerender(<ConnectionBadge snapshot={{ ...INITIAL_SNAPSHOT, status: "open", stalled: true }} onRetry={() => {}} />);
    expect(screen.getByTestId("connection")).toHaveTextContent("No answer…");
    expect(screen.getByTestId("connection")).toHaveAttribute("data-stalled", "true");
  });
});
