import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { PreferencesProvider } from "../hooks/usePreferences";
import { SESSION_KEY, SessionProvider } from "../hooks/useSession";
import { CreateTableForm } from "./CreateTableForm";
import { TableScreen } from "./TableScreen";
import { FakeSocket } from "../test/fakeSocket";
import { event, makeView, stateMessage, tableSummary } from "../test/fixtures";
import { renderWithApp, stubFetch } from "../test/render";
import { makeQueryClient, RouterAndCache } from "../providers";
import { BOT_STYLES, type CreateTableRequest } from "../protocol";

const SUMMARY = tableSummary({ table_id: "t7", seats_taken: 3, bots: 3 });

function renderApp() {
  return render(
    <RouterAndCache client={makeQueryClient(false)}>
      <PreferencesProvider>
        <SessionProvider>
          <App />
        </SessionProvider>
      </PreferencesProvider>
    </RouterAndCache>,
  );
}

describe("sign-in and lobby", () => {
  beforeEach(() => {
    window.location.hash = "#/";
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("signs in as a guest and keeps the session across a reload", async () => {
    const api = stubFetch({
      "POST /api/auth/guest": (body) => ({ json: { token: "tok-1", player_id: "g1", name: (body as { name: string }).name, expires_at: "2030-01-01T00:00:00Z" } }),
      "GET /api/tables": () => ({ json: [SUMMARY] }),
    });
    vi.stubGlobal("fetch", api.fn);
    const first = renderApp();
    fireEvent.change(screen.getByTestId("signin-name"), { target: { value: "Alice" } });
    fireEvent.click(screen.getByTestId("signin-submit"));
    expect(await screen.findByTestId("player-name")).toHaveTextContent("Alice");
    expect(JSON.parse(window.localStorage.getItem(SESSION_KEY)!)).toMatchObject({ token: "tok-1", name: "Alice" });
    const row = await screen.findByTestId("table-row");
    expect(row).toHaveTextContent("Friday");
    expect(row).toHaveTextContent("50/100");
    expect(within(row).getByTestId("table-seats")).toHaveTextContent("3/6");
    first.unmount();
    // "Reload": a fresh app reads the stored session.
    renderApp();
    expect(screen.getByTestId("player-name")).toHaveTextContent("Alice");
    expect(screen.queryByTestId("signin-form")).toBeNull();
    expect(await screen.findByTestId("table-row")).toHaveTextContent("Friday");
  });

  it("says so when a session at a table cannot be renewed, instead of signing in a stranger", async () => {
    window.localStorage.setItem(
      SESSION_KEY,
      JSON.stringify({ token: "old", refresh_token: "r-old", player_id: "g1", name: "Ana", expires_at: "2030-01-01T00:00:00Z" }),
    );
    const api = stubFetch({
      "POST /api/auth/refresh": () => ({ status: 401, json: { detail: "the refresh token is not valid" } }),
      "POST /api/auth/guest": () => ({ json: { token: "new", player_id: "g2", name: "Ana", expires_at: "2030-01-01T00:00:00Z" } }),
    });
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => (String(input).startsWith("/api/tables/") ? new Promise<Response>(() => {}) : api.fn(input, init)));
    FakeSocket.instances = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    window.location.hash = "#/tables/t1";
    renderApp();
    const socket = FakeSocket.instances[FakeSocket.instances.length - 1]!;
    act(() => {
      socket.open();
      socket.receive({ type: "error", code: "unauthorized", message: "the token has expired" });
    });
    expect(await screen.findByTestId("session-ended")).toHaveTextContent("could not be renewed");
    expect(screen.queryByTestId("player-name")).toBeNull(); // the header no longer says "Ana"
    expect(api.calls.map((c) => c.path).filter((p) => p.startsWith("/api/auth"))).toEqual(["/api/auth/refresh"]); // no new guest
  });

  it("shows sign-in errors in words", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({ "POST /api/auth/guest": () => ({ status: 422, json: { detail: [{ loc: ["body", "name"], msg: "String should have at most 24 characters" }] } }) }).fn,
    );
    renderApp();
    fireEvent.change(screen.getByTestId("signin-name"), { target: { value: "x" } });
    fireEvent.click(screen.getByTestId("signin-submit"));
    expect(await screen.findByTestId("signin-error")).toHaveTextContent("name: String should have at most 24 characters");
  });

  it("joins or watches a table from the lobby", async () => {
    vi.stubGlobal("fetch", stubFetch({ "GET /api/tables": () => ({ json: [SUMMARY] }) }).fn);
    renderWithApp(<App />);
    fireEvent.click(await screen.findByTestId("watch-table"));
    expect(window.location.hash).toBe("#/tables/t7?watch=1");
    window.location.hash = "#/";
  });

  it("says how many of a table's seats sit out", async () => {
    const full = tableSummary({ table_id: "t8", seats: 2, seats_taken: 2, bots: 1, sitting_out: 1 });
    vi.stubGlobal("fetch", stubFetch({ "GET /api/tables": () => ({ json: [SUMMARY, full] }) }).fn);
    renderWithApp(<App />);
    const rows = await screen.findAllByTestId("table-row");
    expect(within(rows[0]!).queryByTestId("table-sitting-out")).toBeNull();
    expect(within(rows[1]!).getByTestId("table-seats")).toHaveTextContent("2/2 (1 out)");
  });

  it("shows each table's average pot, hands per hour and players per flop", async () => {
    const figures = [{ table_id: "t7", hands: 40, average_pot: 1234.4, hands_per_hour: 61.6, players_per_flop: 2.46 }];
    vi.stubGlobal(
      "fetch",
      stubFetch({ "GET /api/tables": () => ({ json: [SUMMARY] }), "GET /api/table-stats": () => ({ json: { items: figures, total: 1, limit: 100, offset: 0 } }) }).fn,
    );
    renderWithApp(<App />);
    await waitFor(() => expect(screen.getByTestId("table-avg-pot")).toHaveTextContent("1,234"));
    expect(screen.getByTestId("table-hands-hour")).toHaveTextContent("62");
    expect(screen.getByTestId("table-players-flop")).toHaveTextContent("2.5");
  });
});

describe("CreateTableForm", () => {
  it("sends the table spec with bots and their styles", async () => {
    const onCreate = vi.fn(async (_spec: CreateTableRequest) => {});
    render(<CreateTableForm onCreate={onCreate} />);
    fireEvent.change(screen.getByTestId("ct-name"), { target: { value: "Night" } });
    fireEvent.click(screen.getByTestId("ct-variant-limit"));
    fireEvent.change(screen.getByTestId("ct-sb"), { target: { value: "10" } });
    fireEvent.change(screen.getByTestId("ct-bb"), { target: { value: "20" } });
    fireEvent.change(screen.getByTestId("ct-seats"), { target: { value: "9" } });
    fireEvent.change(screen.getByTestId("ct-bot-count"), { target: { value: "2" } });
    fireEvent.change(screen.getByTestId("ct-bot-style-1"), { target: { value: "poki" } });
    fireEvent.change(screen.getByTestId("ct-timeout"), { target: { value: "15" } });
    fireEvent.click(screen.getByTestId("ct-advice"));
    fireEvent.click(screen.getByTestId("ct-private"));
    fireEvent.click(screen.getByTestId("ct-submit"));
    await waitFor(() => expect(onCreate).toHaveBeenCalled());
    expect(onCreate.mock.calls[0]![0]).toEqual({
      name: "Night",
      variant: "limit",
      small_blind: 10,
      big_blind: 20,
      ante: 0,
      seats: 9,
      min_buy_in: 0,
      max_buy_in: 0,
      action_timeout: 15,
      time_bank: 30,
      bots: 2,
      bot_styles: ["rational", "poki"],
      advice_allowed: false,
      private: true,
      small_bet: 20,
      big_bet: 40,
      raise_cap: 4,
    });
  });

  it("refuses impossible stakes before asking the server", async () => {
    const onCreate = vi.fn(async () => {});
    render(<CreateTableForm onCreate={onCreate} />);
    fireEvent.change(screen.getByTestId("ct-sb"), { target: { value: "500" } });
    fireEvent.click(screen.getByTestId("ct-submit"));
    expect(await screen.findByTestId("ct-error")).toHaveTextContent("small blind cannot exceed the big blind");
    expect(onCreate).not.toHaveBeenCalled();
  });

  it("describes every bot style, mcts too", () => {
    render(<CreateTableForm onCreate={vi.fn()} />);
    for (const style of BOT_STYLES) {
      fireEvent.change(screen.getByTestId("ct-bot-style-0"), { target: { value: style } });
      expect(screen.getByTestId("ct-bot-help-0").textContent, style).not.toBe("");
    }
    fireEvent.change(screen.getByTestId("ct-bot-style-0"), { target: { value: "mcts" } });
    expect(screen.getByTestId("ct-bot-help-0")).toHaveTextContent("searches");
  });

  it("keeps a seat free for a human", () => {
    render(<CreateTableForm onCreate={vi.fn()} />);
    fireEvent.change(screen.getByTestId("ct-seats"), { target: { value: "2" } });
    const options = within(screen.getByTestId("ct-bot-count")).getAllByRole("option");
    expect(options.map((o) => o.textContent)).toEqual(["0", "1"]);
  });
});

describe("TableScreen over a (fake) table socket", () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    // The table's REST detail (name, advice setting) stays pending: these tests are about the socket.
    vi.stubGlobal("fetch", () => new Promise<Response>(() => {}));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const socket = () => FakeSocket.instances[FakeSocket.instances.length - 1]!;

  function connect(view = makeView(), seq = 5) {
    act(() => {
      socket().open();
      socket().receive({ type: "welcome", table_id: "t1", player_id: "alice", name: "Alice", seat: view.viewer_seat, seq, resync: false, missed: null });
      socket().receive(stateMessage(seq, view));
    });
  }

  it("plays a decision and sends it with the hand number", async () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    expect(socket().url).toMatch(/\/ws\/tables\/t1\?follow=1$/); // never a token in the URL
    connect();
    expect(screen.getByTestId("connection")).toHaveAttribute("data-status", "open");
    fireEvent.click(screen.getByTestId("act-call"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "act", action: "call", hand_no: 3 });
    expect(screen.getByTestId("act-call")).toBeDisabled(); // until the next state
    act(() => socket().receive(stateMessage(6, makeView({ actor: 2, legal_actions: null }))));
    expect(screen.queryByTestId("action-bar")).toBeNull();
    expect(screen.getByTestId("pre-actions")).toBeInTheDocument();
  });

  it("fires a pre-action when the turn comes", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect(makeView({ actor: 2, legal_actions: null }));
    fireEvent.click(screen.getByTestId("pre-call_any"));
    act(() => socket().receive(stateMessage(6, makeView())));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "act", action: "call" });
  });

  it("brings the advice panel into view on a phone, where it sits below the table", () => {
    const scrolled = vi.fn();
    const place = vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      return { top: this.dataset.testid === "side-panel" ? window.innerHeight + 200 : 0 } as DOMRect;
    });
    HTMLElement.prototype.scrollIntoView = scrolled;
    try {
      renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
      connect();
      fireEvent.click(screen.getByTestId("ask-advice"));
      expect(socket().sentMessages().at(-1)).toMatchObject({ type: "advice" });
      expect(scrolled).toHaveBeenCalledTimes(1);
    } finally {
      place.mockRestore();
      delete (HTMLElement.prototype as Partial<HTMLElement>).scrollIntoView;
    }
  });

  it("brings the advice up on a phone when only the panel's tabs peek in above the fold", () => {
    const scrolled = vi.fn();
    const place = vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      return { top: this.dataset.testid === "side-panel" ? window.innerHeight - 60 : 0 } as DOMRect;
    });
    HTMLElement.prototype.scrollIntoView = scrolled;
    try {
      renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
      connect();
      fireEvent.click(screen.getByTestId("ask-advice"));
      expect(scrolled).toHaveBeenCalled();
    } finally {
      place.mockRestore();
      delete (HTMLElement.prototype as Partial<HTMLElement>).scrollIntoView;
    }
  });

  it("leaves the page where it is when the advice panel is in view", () => {
    const scrolled = vi.fn();
    const place = vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      return { top: this.dataset.testid === "side-panel" ? 80 : 0 } as DOMRect;
    });
    HTMLElement.prototype.scrollIntoView = scrolled;
    try {
      renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
      connect();
      fireEvent.click(screen.getByTestId("ask-advice"));
      expect(scrolled).not.toHaveBeenCalled();
    } finally {
      place.mockRestore();
      delete (HTMLElement.prototype as Partial<HTMLElement>).scrollIntoView;
    }
  });

  it("asks the AI to decide and shows everyone's notice", async () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect();
    fireEvent.click(screen.getByTestId("let-ai-decide"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "ai_decide" });
    act(() => {
      socket().receive({
        type: "advice",
        hand_no: 3,
        seat: 1,
        source: "worker",
        applied: true,
        advice: { action: "call", values: [{ action: "call", value_bb: 0.4 }], equity: 0.48, opponents: [], reason: "Priced in." },
      });
      socket().receive(
        stateMessage(6, makeView({ actor: 2, legal_actions: null }), {
          cause: { kind: "act", seat: 1, player_id: "alice", action: { kind: "call", amount: null }, by: "ai", note: "AI (worker)" },
        }),
      );
    });
    expect(screen.getByTestId("ai-banner")).toHaveTextContent("AI decided for Alice: call");
    expect(screen.getByTestId("ai-decided-1")).toBeInTheDocument();
    expect(screen.getByTestId("advice-panel")).toHaveAttribute("data-applied", "true");
    expect(screen.getByTestId("advice-reason")).toHaveTextContent("Priced in.");
  });

  it("takes the 'AI decided' badge down after a few seconds, whatever else happens meanwhile", () => {
    vi.useFakeTimers();
    try {
      renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
      connect();
      const aiCall = { kind: "act", seat: 1, player_id: "alice", action: { kind: "call", amount: null }, by: "ai", note: "AI (worker)" };
      act(() => socket().receive(stateMessage(6, makeView({ actor: 2, legal_actions: null }), { cause: aiCall })));
      expect(screen.getByTestId("ai-decided-1")).toBeInTheDocument();
      // Another notice a second later (a bot timed out) must not keep the badge up.
      act(() => vi.advanceTimersByTime(1000));
      const timedOut = { kind: "act", seat: 2, player_id: "b2", action: { kind: "fold", amount: null }, by: "timer", note: "time ran out" };
      act(() => socket().receive(stateMessage(7, makeView({ actor: 3, legal_actions: null }), { cause: timedOut })));
      act(() => vi.advanceTimersByTime(3100));
      expect(screen.queryByTestId("ai-decided-1")).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("drops the 'AI decided' badge when that seat decides again", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect();
    const aiCall = { kind: "act", seat: 1, player_id: "alice", action: { kind: "call", amount: null }, by: "ai", note: "AI (worker)" };
    act(() => socket().receive(stateMessage(6, makeView({ actor: 2, legal_actions: null }), { cause: aiCall })));
    expect(screen.getByTestId("ai-decided-1")).toBeInTheDocument();
    act(() => socket().receive(stateMessage(7, makeView({ actor: 1 }))));
    expect(screen.queryByTestId("ai-decided-1")).toBeNull();
  });

  it("names a player who stood up in the hand's log, and says the chips they left with", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    const called = [...makeView().events, event({ kind: "call", street: "preflop", seat: 2, amount: 100 })];
    connect(makeView({ events: called }));
    // Ada (seat 2) stands up: her seat leaves the view, her call stays hers.
    const without = makeView().seats.filter((s) => s.seat !== 2);
    act(() =>
      socket().receive(stateMessage(6, makeView({ events: called, seats: without }), { cause: { kind: "stand", seat: 2, player_id: "p-2", by: "table", note: "left at the hand's end", stack: 9000 } })),
    );
    const log = screen.getByTestId("hand-log");
    expect(log).toHaveTextContent("Ada calls 100");
    expect(log).not.toHaveTextContent("Seat 2");
    expect(log).toHaveTextContent("Ada left the table with 9,000");
    // Alice stands between hands: she is told what she left with.
    const alone = without.filter((s) => s.seat !== 1);
    act(() =>
      socket().receive(
        stateMessage(7, makeView({ events: called, seats: alone, viewer_seat: null, legal_actions: null, hand_in_progress: false, actor: null }), {
          cause: { kind: "stand", seat: 1, player_id: "alice", by: "player", note: "", stack: 10050 },
        }),
      ),
    );
    expect(screen.getByTestId("left-with")).toHaveTextContent("You left with 10,050");
    expect(screen.getByTestId("hand-log")).toHaveTextContent("Alice left the table with 10,050");
  });

  it("writes the host's commands in the hand log for everyone (#34)", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    const between = { hand_in_progress: false, actor: null, legal_actions: null };
    connect(makeView(between));
    act(() => socket().receive(stateMessage(6, makeView(between), { cause: { kind: "pause", by: "host", note: "" } })));
    act(() =>
      socket().receive(stateMessage(7, makeView(between), { cause: { kind: "adjust", seat: 2, player_id: "p-2", by: "host", note: "", amount: -100, stack: 9900 } })),
    );
    const without = makeView(between).seats.filter((s) => s.seat !== 2);
    act(() =>
      socket().receive(
        stateMessage(8, makeView({ ...between, seats: without }), { cause: { kind: "remove", seat: 2, player_id: "p-2", by: "host", note: "removed by the host", stack: 9900 } }),
      ),
    );
    act(() => socket().receive(stateMessage(9, makeView({ ...between, seats: without }), { cause: { kind: "settings", by: "host", note: "blinds 100/200 from the next hand" } })));
    const log = screen.getByTestId("hand-log");
    expect(log).toHaveTextContent("The host paused the game");
    expect(log).toHaveTextContent("The host adjusted Ada's stack by -100 (stack 9,900)");
    expect(log).toHaveTextContent("The host removed Ada, who left with 9,900");
    expect(log).toHaveTextContent("The host changed the table: blinds 100/200 from the next hand");
  });

  it("gives the host, and only the host, a panel of the host's commands (#34)", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    const between = { hand_in_progress: false, actor: null, legal_actions: null };
    connect(makeView(between));
    expect(screen.queryByTestId("tab-host")).toBeNull(); // no host state yet: nobody's panel
    const host = { host_id: "alice", paused: false, approve_seats: true, seat_requests: [{ player_id: "carol", name: "Carol", seat: 4, buy_in: 5000 }] };
    act(() => socket().receive(stateMessage(6, makeView(between), { host })));
    fireEvent.click(screen.getByTestId("tab-host"));
    expect(screen.getByTestId("host-requests")).toHaveTextContent("Carol asks for seat 4 with 5,000");
    fireEvent.click(screen.getByTestId("approve-carol"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "approve", player_id: "carol" });
    fireEvent.click(screen.getByTestId("host-pause"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "pause" });
    fireEvent.click(screen.getByTestId("host-remove-2"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "remove", seat: 2 });
    expect(screen.queryByTestId("invite-link")).toBeNull(); // a public table: no link
    // The role handed on: the panel goes.
    act(() => socket().receive(stateMessage(7, makeView(between), { host: { ...host, host_id: "p-2", seat_requests: [] } })));
    expect(screen.queryByTestId("tab-host")).toBeNull();
    expect(screen.queryByTestId("host-panel")).toBeNull();
  });

  it("prompts the host over the table for a seat request, and tells the asker it waits (#34)", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    const watching = { hand_in_progress: false, actor: null, legal_actions: null, viewer_seat: null, seats: makeView().seats.filter((s) => s.seat !== 1) };
    connect(makeView(watching));
    const asked = { host_id: "p-2", paused: false, approve_seats: true, seat_requests: [{ player_id: "alice", name: "Alice", seat: 1, buy_in: 5000 }] };
    act(() => socket().receive(stateMessage(6, makeView(watching), { host: asked })));
    expect(screen.getByTestId("seat-request-pending")).toHaveTextContent("Seat 1 asked for: waiting for the host to approve");
    expect(screen.queryByTestId("seat-hint")).toBeNull();
    expect(screen.queryByTestId("join-requests")).toBeNull(); // not the host: no prompt
    // Alice hosts now and Carol asks: the prompt is over the table, whatever tab is open.
    const hosting = { ...asked, host_id: "alice", seat_requests: [{ player_id: "carol", name: "Carol", seat: 4, buy_in: 5000 }] };
    act(() => socket().receive(stateMessage(7, makeView(watching), { host: hosting })));
    expect(screen.queryByTestId("seat-request-pending")).toBeNull();
    expect(screen.getByTestId("join-requests")).toHaveTextContent("Carol asks to sit in seat 4 with 5,000");
    fireEvent.click(screen.getByTestId("prompt-reject-carol"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "reject", player_id: "carol" });
  });

  it("opens a private table with its link's invite and shows the host the link (#34)", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} invite="inv-9" />);
    const between = { hand_in_progress: false, actor: null, legal_actions: null };
    connect(makeView(between));
    expect(socket().url).not.toContain("inv-9");
    expect(socket().sentMessages()[0]).toMatchObject({ type: "auth", invite: "inv-9" });
    const host = { host_id: "alice", paused: false, approve_seats: false, seat_requests: [] };
    act(() => socket().receive(stateMessage(6, makeView(between), { host })));
    fireEvent.click(screen.getByTestId("tab-host"));
    expect((screen.getByTestId("invite-link") as HTMLInputElement).value).toMatch(/#\/tables\/t1\?invite=inv-9$/);
  });

  it("keeps the host's new invite link across a tab switch, and offers it on a revoked private table (#34)", async () => {
    const api = stubFetch({
      "GET /api/tables/t1": () => ({ json: { ...SUMMARY, table_id: "t1", private: true, invite: null, view: makeView() } }),
      "POST /api/tables/t1/invite": () => ({ json: { table_id: "t1", invite: "fresh" } }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    const between = { hand_in_progress: false, actor: null, legal_actions: null };
    connect(makeView(between));
    act(() => socket().receive(stateMessage(6, makeView(between), { host: { host_id: "alice", paused: false, approve_seats: false, seat_requests: [] } })));
    fireEvent.click(screen.getByTestId("tab-host"));
    // The detail says private, with no link (revoked): the host may make one.
    expect(await screen.findByTestId("invite-none")).toBeInTheDocument();
    fireEvent.click(screen.getByTestId("host-invite-new"));
    await waitFor(() => expect((screen.getByTestId("invite-link") as HTMLInputElement).value).toMatch(/invite=fresh$/));
    fireEvent.click(screen.getByTestId("tab-log"));
    fireEvent.click(screen.getByTestId("tab-host"));
    expect((screen.getByTestId("invite-link") as HTMLInputElement).value).toMatch(/invite=fresh$/);
  });

  it("shows server errors in words", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect();
    act(() => socket().receive({ type: "error", code: "illegal_action", message: "the minimum raise is to 400", ref: "c1" }));
    expect(screen.getByTestId("error-toast")).toHaveTextContent("The minimum raise is to 400");
  });

  it("offers a seat when joining, and sits with the chosen buy-in", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join />);
    connect(makeView({ viewer_seat: null, legal_actions: null }));
    const dialog = screen.getByTestId("buyin-dialog");
    expect(dialog).toHaveTextContent("Sit at seat 5");
    fireEvent.change(screen.getByTestId("buyin-amount"), { target: { value: "5000" } });
    fireEvent.click(screen.getByTestId("buyin-confirm"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "sit", seat: 5, buy_in: 5000 });
  });

  it("watches without a decision bar", () => {
    renderWithApp(<TableScreen tableId="t1" watch join={false} />);
    connect(makeView({ viewer_seat: null, legal_actions: null, seats: makeView().seats.map((s) => ({ ...s, hole_cards: null })) }));
    expect(screen.getByTestId("table-screen")).toHaveAttribute("data-seated", "false");
    expect(screen.queryByTestId("action-bar")).toBeNull();
    expect(screen.queryByTestId("sit-5")).toBeNull();
    expect(screen.getByTestId("take-seat")).toBeInTheDocument();
  });

  it("says a full table is full instead of offering a seat", () => {
    const base = makeView();
    const full = { ...base.config, seats: base.seats.length };
    const spectator = { viewer_seat: null, legal_actions: null, seats: base.seats.map((s) => ({ ...s, hole_cards: null })) };
    const watching = renderWithApp(<TableScreen tableId="t1" watch join={false} />);
    connect(makeView({ ...spectator, config: full }));
    expect(screen.getByTestId("take-seat")).toBeDisabled();
    expect(screen.getByTestId("take-seat")).toHaveTextContent("Table full");
    watching.unmount();
    renderWithApp(<TableScreen tableId="t1" watch={false} join />);
    connect(makeView({ ...spectator, config: full }));
    expect(screen.getByTestId("seat-hint")).toHaveTextContent("The table is full");
  });

  it("shows the reconnect and resyncs from the last seq", () => {
    vi.useFakeTimers();
    try {
      renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
      connect(makeView(), 17);
      act(() => socket().drop(1006));
      expect(screen.getByTestId("connection")).toHaveAttribute("data-status", "reconnecting");
      act(() => {
        vi.advanceTimersByTime(1000);
      });
      expect(FakeSocket.instances).toHaveLength(2);
      expect(socket().url).toContain("last_seq=17");
      connect(makeView({ hand_no: 4 }), 19);
      expect(screen.getByTestId("connection")).toHaveAttribute("data-status", "open");
      expect(screen.getByTestId("poker-table")).toHaveAttribute("data-hand", "4");
    } finally {
      vi.useRealTimers();
    }
  });

  it("titles the table from its REST detail", async () => {
    vi.stubGlobal("fetch", stubFetch({ "GET /api/tables/t1": () => ({ json: { ...SUMMARY, table_id: "t1", name: "Friday", view: makeView() } }) }).fn);
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect();
    expect(await screen.findByRole("heading", { name: "Friday" })).toBeInTheDocument();
  });

  it("says when the table does not exist", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    act(() => socket().drop(4004, "no table 't1'"));
    expect(screen.getByTestId("table-fatal")).toHaveTextContent("no table 't1'");
  });

  it("sends chat and shows the table's lines", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect();
    fireEvent.click(screen.getByTestId("tab-chat"));
    fireEvent.change(screen.getByTestId("chat-input"), { target: { value: "gl all" } });
    fireEvent.click(screen.getByTestId("chat-send"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "chat", text: "gl all" });
    act(() => socket().receive({ type: "chat", seq: 9, at: 1, player_id: "bob", name: "Bob", seat: 2, text: "ty" }));
    expect(screen.getByTestId("chat")).toHaveTextContent("Bob ty");
  });

  it("sits out, comes back, tops up and stands up", () => {
    vi.spyOn(window, "confirm").mockReturnValue(true);
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect(makeView({ hand_in_progress: false, actor: null, legal_actions: null, seats: makeView().seats.map((s) => ({ ...s, has_cards: false, state: "waiting" as const, stack: s.seat === 1 ? 6000 : s.stack })) }));
    fireEvent.click(screen.getByTestId("sit-out"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "sit_out" });
    fireEvent.click(screen.getByTestId("rebuy"));
    // A top-up may add a single chip: the range in big blinds says "up to", not "0.0 bb".
    expect(screen.getByTestId("rebuy-dialog")).toHaveTextContent("Between 1 and 4,000 (up to 40 bb)");
    fireEvent.click(within(screen.getByTestId("rebuy-dialog")).getByTestId("buyin-confirm"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "rebuy", amount: 4000 });
    fireEvent.click(screen.getByTestId("stand-up"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "stand" });
    act(() =>
      socket().receive(stateMessage(9, makeView({ hand_in_progress: false, actor: null, legal_actions: null, seats: makeView().seats.map((s) => ({ ...s, has_cards: false, state: s.seat === 1 ? ("sitting_out" as const) : ("waiting" as const) })) }))),
    );
    fireEvent.click(screen.getByTestId("sit-back"));
    expect(socket().sentMessages().at(-1)).toMatchObject({ type: "sit_back" });
  });
});
