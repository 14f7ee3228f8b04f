/**
 * The player's room, issue 14: keeping one's name with a password, saying what
 * signing out does, rebuys as events, show or muck when winning uncalled, the
 * chat history a table sends on joining, and HUD figures fetched once counted.
 */
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { PreferencesProvider, PREFS_KEY } from "../hooks/usePreferences";
import { NAME_KEY, SESSION_KEY, SessionProvider } from "../hooks/useSession";
import { makeQueryClient, RouterAndCache } from "../providers";
import { FakeSocket } from "../test/fakeSocket";
import { event, makeView, stateMessage } from "../test/fixtures";
import { renderWithApp, stubFetch } from "../test/render";
import { wonUncalled } from "./ShowCardsBar";
import { TableScreen } from "./TableScreen";

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

const LOGIN = { token: "tok-2", player_id: "g1", name: "Alice", expires_at: "2030-01-01T00:00:00Z", refresh_token: "r.1" };

describe("identity: a password keeps the name", () => {
  beforeEach(() => {
    window.location.hash = "#/";
    window.localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("a protected name asks for its password, and signing in with it brings the same player back", async () => {
    const api = stubFetch({
      "POST /api/auth/guest": () => ({ status: 409, json: { detail: "the name Alice is protected by a password: sign in with it, or choose another name" } }),
      "POST /api/auth/login": (body) => {
        const b = body as { name: string; password: string };
        return b.password === "correct horse" ? { json: LOGIN } : { status: 401, json: { detail: "wrong password for Alice" } };
      },
      "GET /api/tables": () => ({ json: [] }),
      "GET /api/me": () => ({ json: { player_id: "g1", name: "Alice", has_password: true } }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderApp();
    fireEvent.change(screen.getByTestId("signin-name"), { target: { value: "Alice" } });
    fireEvent.click(screen.getByTestId("signin-submit"));
    expect(await screen.findByTestId("signin-error")).toHaveTextContent("protected by a password");
    fireEvent.change(screen.getByTestId("signin-password"), { target: { value: "not it" } });
    fireEvent.click(screen.getByTestId("signin-submit"));
    expect(await screen.findByTestId("signin-error")).toHaveTextContent("wrong password for Alice");
    fireEvent.change(screen.getByTestId("signin-password"), { target: { value: "correct horse" } });
    fireEvent.click(screen.getByTestId("signin-submit"));
    expect(await screen.findByTestId("player-name")).toHaveTextContent("Alice");
    expect(JSON.parse(window.localStorage.getItem(SESSION_KEY)!)).toMatchObject({ player_id: "g1", token: "tok-2" });
    expect(api.calls.find((c) => c.path === "/api/auth/login")?.body).toEqual({ name: "Alice", password: "not it" });
    // Protected: signing out needs no warning.
    await waitFor(() => expect(api.calls.some((c) => c.path === "/api/me")).toBe(true));
    expect(screen.queryByTestId("guest-tag")).toBeNull();
  });

  it("a guest is told what signing out does, and may set a password first", async () => {
    let hasPassword = false;
    const api = stubFetch({
      "GET /api/tables": () => ({ json: [] }),
      "GET /api/me": () => ({ json: { player_id: "g1", name: "Alice", has_password: hasPassword } }),
      "POST /api/auth/password": (body) => {
        hasPassword = true;
        expect(body).toEqual({ password: "correct horse" });
        return { json: { player_id: "g1", name: "Alice", has_password: true } };
      },
      "POST /api/auth/logout": () => ({ status: 204, text: "" }),
    });
    vi.stubGlobal("fetch", api.fn);
    window.localStorage.setItem(SESSION_KEY, JSON.stringify(LOGIN));
    window.localStorage.setItem(NAME_KEY, JSON.stringify("Alice"));
    renderApp();
    expect(await screen.findByTestId("guest-tag")).toHaveTextContent("guest");
    fireEvent.click(screen.getByTestId("sign-out"));
    const dialog = screen.getByTestId("account-dialog");
    expect(within(dialog).getByTestId("account-status")).toHaveTextContent(
      "If you sign out, you will not be able to come back as Alice unless you set a password",
    );
    expect(window.localStorage.getItem(SESSION_KEY)).not.toBeNull(); // not signed out yet
    fireEvent.change(within(dialog).getByTestId("password-new"), { target: { value: "short" } });
    fireEvent.change(within(dialog).getByTestId("password-again"), { target: { value: "short" } });
    fireEvent.click(within(dialog).getByTestId("password-submit"));
    expect(await within(dialog).findByTestId("password-error")).toHaveTextContent("At least 8 characters");
    fireEvent.change(within(dialog).getByTestId("password-new"), { target: { value: "correct horse" } });
    fireEvent.change(within(dialog).getByTestId("password-again"), { target: { value: "correct horse" } });
    fireEvent.click(within(dialog).getByTestId("password-submit"));
    expect(await within(dialog).findByTestId("password-done")).toBeInTheDocument();
    expect(within(dialog).getByTestId("account-status")).toHaveTextContent("protected by a password");
    fireEvent.click(within(dialog).getByTestId("sign-out-confirm"));
    expect(await screen.findByTestId("signin-form")).toBeInTheDocument();
    expect(window.localStorage.getItem(SESSION_KEY)).toBeNull();
    // This browser knows the name is protected now: the form asks for its password.
    expect(screen.getByTestId("signin-password")).toBeInTheDocument();
    expect(screen.getByTestId("signin-submit")).toHaveTextContent("Sign in");
  });
});

describe("signing out everywhere", () => {
  beforeEach(() => {
    window.location.hash = "#/";
    window.localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("a protected player ends every session from the account dialog", async () => {
    const api = stubFetch({
      "GET /api/tables": () => ({ json: [] }),
      "GET /api/me": () => ({ json: { player_id: "g1", name: "Alice", has_password: true } }),
      "POST /api/auth/logout-all": () => ({ status: 204, text: "" }),
    });
    vi.stubGlobal("fetch", api.fn);
    window.localStorage.setItem(SESSION_KEY, JSON.stringify(LOGIN));
    renderApp();
    await waitFor(() => expect(api.calls.some((c) => c.path === "/api/me")).toBe(true));
    fireEvent.click(screen.getByTestId("account-open"));
    const dialog = screen.getByTestId("account-dialog");
    fireEvent.click(await within(dialog).findByTestId("sign-out-everywhere"));
    expect(await screen.findByTestId("signin-form")).toBeInTheDocument();
    expect(window.localStorage.getItem(SESSION_KEY)).toBeNull();
    await waitFor(() => expect(api.calls.some((c) => c.path === "/api/auth/logout-all")).toBe(true));
    const call = api.calls.find((c) => c.path === "/api/auth/logout-all")!;
    expect(call.method).toBe("POST");
    expect(JSON.stringify(call.headers)).toContain("tok-2");
    expect(api.calls.some((c) => c.path === "/api/auth/logout")).toBe(false);
  });

  it("a guest without a password is not offered it", async () => {
    const api = stubFetch({
      "GET /api/tables": () => ({ json: [] }),
      "GET /api/me": () => ({ json: { player_id: "g1", name: "Alice", has_password: false } }),
    });
    vi.stubGlobal("fetch", api.fn);
    window.localStorage.setItem(SESSION_KEY, JSON.stringify(LOGIN));
    renderApp();
    expect(await screen.findByTestId("guest-tag")).toBeInTheDocument();
    fireEvent.click(screen.getByTestId("account-open"));
    expect(within(screen.getByTestId("account-dialog")).queryByTestId("sign-out-everywhere")).toBeNull();
  });
});

describe("table events over a (fake) table socket", () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    window.localStorage.clear();
    vi.stubGlobal("WebSocket", FakeSocket);
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
  /** Hand 3 is over: everyone folded to Alice (seat 1), her cards not shown. */
  const uncalled = () =>
    makeView({
      hand_in_progress: false,
      actor: null,
      legal_actions: null,
      events: [
        event({ kind: "small_blind", street: "preflop", seat: 2, amount: 50 }),
        event({ kind: "big_blind", street: "preflop", seat: 3, amount: 100 }),
        event({ kind: "raise", street: "preflop", seat: 1, amount: 300 }),
        event({ kind: "fold", street: "preflop", seat: 2 }),
        event({ kind: "fold", street: "preflop", seat: 3 }),
        event({ kind: "fold", street: "preflop", seat: 4 }),
        event({ kind: "return", street: "preflop", seat: 1, amount: 200 }),
        event({ kind: "win", street: "showdown", seat: 1, amount: 250 }),
      ],
      seats: makeView().seats.map((s) => ({ ...s, has_cards: false, state: "waiting" as const, bet: 0 })),
      last_result: { hand_no: 3, net: { "1": 150, "2": -50, "3": -100 }, winnings: { "1": 250 }, shown: {}, board: [] , boards: []},
    });

  it("logs a bot's rebuy in the hand log and flashes it at the seat", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    const broke = uncalled();
    connect(broke);
    const rebought = { ...broke, seats: broke.seats.map((s) => (s.seat === 2 ? { ...s, stack: 10000 } : s)) };
    act(() =>
      socket().receive(
        stateMessage(6, rebought, { cause: { kind: "rebuy", seat: 2, player_id: "p-2", action: null, by: "bot", note: "", amount: 10000, stack: 10000, top_up: false } }),
      ),
    );
    expect(screen.getByTestId("cue-2")).toHaveTextContent("+10,000 rebuy");
    expect(screen.getByTestId("hand-log")).toHaveTextContent("Ada rebuys 10,000 (stack 10,000)");
    act(() =>
      socket().receive(
        stateMessage(7, rebought, { cause: { kind: "rebuy", seat: 1, player_id: "alice", action: null, by: "player", note: "", amount: 500, stack: 10500, top_up: true } }),
      ),
    );
    expect(screen.getByTestId("hand-log")).toHaveTextContent("Alice tops up 500 (stack 10,500)");
    expect(screen.getByTestId("cue-1")).toHaveTextContent("+500 top-up");
    // The next hand still says what came in before it.
    act(() => socket().receive(stateMessage(8, makeView({ hand_no: 4 }), { cause: { kind: "hand_start", seat: null, player_id: null, action: null, by: "table", note: "" } })));
    expect(screen.getByTestId("before-hand")).toHaveTextContent("Before this hand");
    expect(screen.getByTestId("before-hand")).toHaveTextContent("Ada rebuys 10,000 (stack 10,000)");
  });

  it("offers to show cards won uncalled, and remembers 'always show'", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect(uncalled());
    const bar = screen.getByTestId("show-bar");
    expect(bar).toHaveTextContent("your cards stay hidden unless you show them");
    fireEvent.click(within(bar).getByTestId("show-cards"));
    expect(socket().sentMessages().at(-1)).toEqual(expect.objectContaining({ type: "show" }));
    const shown = uncalled();
    act(() =>
      socket().receive(
        stateMessage(6, { ...shown, events: [...shown.events, event({ kind: "show", street: "showdown", seat: 1, cards: ["Ah", "Kd"] })] }, { cause: { kind: "show", seat: 1, player_id: "alice", action: null, by: "player", note: "" } }),
      ),
    );
    expect(screen.getByTestId("show-bar")).toHaveTextContent("Your cards are shown to the table.");
    expect(screen.queryByTestId("show-cards")).toBeNull();
    fireEvent.click(screen.getByTestId("show-uncalled-always"));
    expect(JSON.parse(window.localStorage.getItem(PREFS_KEY)!)).toMatchObject({ showUncalled: true });
    expect(socket().sentMessages().at(-1)).toEqual(expect.objectContaining({ type: "show_uncalled", enabled: true }));
    // A new hand: no bar. Someone else's win: no bar either.
    act(() => socket().receive(stateMessage(7, makeView({ hand_no: 4 }))));
    expect(screen.queryByTestId("show-bar")).toBeNull();
  });

  it("tells each table it joins about 'always show'", () => {
    window.localStorage.setItem(PREFS_KEY, JSON.stringify({ showUncalled: true }));
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect();
    expect(socket().sentMessages()).toContainEqual(expect.objectContaining({ type: "show_uncalled", enabled: true }));
  });

  it("fetches a seat's HUD figures again once the server has counted its hands, not at the hand's end", async () => {
    const page = (id: string) => () => ({ json: { player_id: id, name: id, is_bot: true, total: { game: null, hands: 7, counts: {}, figures: {} }, items: [], total_items: 0 } });
    const api = stubFetch(Object.fromEntries(["alice", "p-2", "p-3", "p-4"].map((id) => [`GET /api/players/${id}/stats`, page(id)])));
    vi.stubGlobal("fetch", api.fn);
    const fetched = (id: string) => api.calls.filter((c) => c.path.startsWith(`/api/players/${id}/stats`)).length;
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect();
    await waitFor(() => expect(["alice", "p-2", "p-3", "p-4"].map(fetched)).toEqual([1, 1, 1, 1]));
    // Hand 3 ends: the server has not counted it yet, so the figures would be stale.
    act(() => socket().receive(stateMessage(6, uncalled())));
    // Counted, with Ada's and Bert's hands in it: theirs are fetched again, Cleo's not.
    act(() => socket().receive({ type: "stats", hand_no: 3, player_ids: ["p-2", "p-3"], at: 7 }));
    await waitFor(() => expect(["p-2", "p-3"].map(fetched)).toEqual([2, 2]));
    expect(["alice", "p-4"].map(fetched)).toEqual([1, 1]);
  });

  it("shows the table's earlier chat once, apart from what is said now", () => {
    renderWithApp(<TableScreen tableId="t1" watch={false} join={false} />);
    connect();
    const line = { type: "chat", seq: 2, at: 100, player_id: "bob", name: "Bob", seat: 2, text: "nice hand", history: true };
    act(() => {
      socket().receive(line);
      socket().receive({ ...line, at: 101, text: "gl" });
    });
    expect(screen.getByTestId("tab-chat")).toHaveTextContent(/^Chat$/); // history is not unread news
    act(() => socket().receive({ ...line, at: 102, text: "hi all", history: false }));
    expect(screen.getByTestId("tab-chat")).toHaveTextContent("Chat (1)");
    act(() => socket().receive(line)); // sent again after a reconnect: shown once
    fireEvent.click(screen.getByTestId("tab-chat"));
    const lines = screen.getAllByTestId("chat-line");
    expect(lines.map((l) => l.textContent)).toEqual(["Bob nice hand", "Bob gl", "Bob hi all"]);
    expect(lines.map((l) => l.dataset.history ?? "")).toEqual(["true", "true", ""]);
    expect(screen.getByTestId("chat-earlier")).toHaveTextContent("Earlier at this table");
  });
});

it("offers no choice after a real showdown, nor to a spectator", () => {
  const showdown = makeView({
    hand_in_progress: false,
    actor: null,
    legal_actions: null,
    events: [event({ kind: "show", street: "showdown", seat: 2, cards: ["2c", "2d"] }), event({ kind: "show", street: "showdown", seat: 1, cards: ["Ah", "Kd"] })],
    last_result: { hand_no: 3, net: { "1": 100 }, winnings: { "1": 200 }, shown: { "2": ["2c", "2d"], "1": ["Ah", "Kd"] }, board: [] , boards: []},
  });
  expect(wonUncalled(showdown)).toBe(false); // a real showdown: nothing to choose
  expect(wonUncalled({ ...showdown, viewer_seat: null })).toBe(false);
});
