import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ownerSocketUrl, TableClient, type TableClientEvent } from "./client";
import { fakeSockets } from "../test/fakeSocket";
import { makeView, stateMessage } from "../test/fixtures";

const URL_ = "ws://game.test/ws/tables/t1";

function setup(options: Partial<ConstructorParameters<typeof TableClient>[0]> = {}) {
  const net = fakeSockets();
  const events: TableClientEvent[] = [];
  const client = new TableClient({
    url: URL_,
    token: "tok",
    createSocket: net.factory,
    random: () => 1, // no jitter: delays are exactly initial * factor^n
    backoff: { initialMs: 500, maxMs: 4000, factor: 2 },
    pingIntervalMs: 0,
    ...options,
  });
  client.subscribe((e) => events.push(e));
  const errors = () => events.filter((e) => e.type === "error").map((e) => (e as { error: { code: string; message: string } }).error);
  const states = () => events.filter((e) => e.type === "state") as Extract<TableClientEvent, { type: "state" }>[];
  return { client, net, events, errors, states };
}

describe("TableClient", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends the token in the first message, never in the URL, and no last_seq the first time", () => {
    const { client, net } = setup();
    client.connect();
    expect(net.sockets).toHaveLength(1);
    expect(net.last().url).toBe(URL_);
    expect(net.last().url).not.toContain("tok");
    expect(client.getSnapshot().status).toBe("connecting");
    net.last().open();
    expect(net.last().sentMessages()).toEqual([{ type: "auth", token: "tok", last_seq: null }]);
    expect(client.getSnapshot().status).toBe("open");
  });

  it("sends a private table's invite with the token, never in the URL (#34)", () => {
    const { client, net } = setup({ invite: "inv-123" });
    client.connect();
    expect(net.last().url).not.toContain("inv-123");
    net.last().open();
    expect(net.last().sentMessages()).toEqual([{ type: "auth", token: "tok", last_seq: null, invite: "inv-123" }]);
  });

  it("asks for a current token on every connection, and waits for one being refreshed", async () => {
    const tokens = ["first"];
    let release: (token: string) => void = () => {};
    const { client, net } = setup({
      token: () => tokens.shift() ?? new Promise<string>((resolve) => (release = resolve)),
    });
    client.connect();
    net.last().open();
    expect(net.last().sentMessages()).toEqual([{ type: "auth", token: "first", last_seq: null }]);
    net.last().receive(stateMessage(8, makeView()));
    net.last().drop(1006);
    vi.advanceTimersByTime(500);
    net.last().open();
    // The token is being refreshed: nothing is sent, and no command may go first.
    expect(net.last().sent).toEqual([]);
    expect(client.getSnapshot().status).not.toBe("open");
    expect(client.send({ type: "stand" })).toBeNull();
    release("second");
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe("open"));
    expect(net.last().sentMessages()).toEqual([{ type: "auth", token: "second", last_seq: 8 }]);
    expect(net.last().url).not.toContain("second");
  });

  it("applies states in seq order and drops duplicates and stale ones", () => {
    const { client, net, states } = setup();
    client.connect();
    net.last().open();
    net.last().receive({ type: "welcome", table_id: "t1", player_id: "alice", name: "Alice", seat: 1, seq: 10, resync: false, missed: null });
    net.last().receive(stateMessage(10, makeView({ hand_no: 1 })));
    net.last().receive(stateMessage(11, makeView({ hand_no: 2 })));
    net.last().receive(stateMessage(11, makeView({ hand_no: 99 }))); // duplicate
    net.last().receive(stateMessage(9, makeView({ hand_no: 98 }))); // stale
    expect(states().map((s) => s.view.hand_no)).toEqual([1, 2]);
    expect(client.getSnapshot().seq).toBe(11);
    expect(client.getSnapshot().view?.hand_no).toBe(2);
    expect(client.getSnapshot().welcome?.seat).toBe(1);
  });

  it("reconnects after a drop with backoff, sending last_seq, and takes the resync state", () => {
    const { client, net, states } = setup();
    client.connect();
    net.last().open();
    net.last().receive(stateMessage(41, makeView({ hand_no: 7 })));
    net.last().drop(1006);
    expect(client.getSnapshot().status).toBe("reconnecting");
    expect(client.getSnapshot().attempts).toBe(1);
    expect(net.sockets).toHaveLength(1);
    vi.advanceTimersByTime(499);
    expect(net.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(net.sockets).toHaveLength(2);
    expect(net.last().params().get("last_seq")).toBe("41");
    expect(net.last().params().has("token")).toBe(false);
    net.last().open();
    expect(net.last().sentMessages()).toEqual([{ type: "auth", token: "tok", last_seq: 41 }]);
    expect(client.getSnapshot().attempts).toBe(0);
    net.last().receive({ type: "welcome", table_id: "t1", player_id: "alice", name: "Alice", seat: 1, seq: 45, resync: true, missed: 4 });
    net.last().receive(stateMessage(45, makeView({ hand_no: 8 })));
    expect(states().at(-1)?.resync).toBe(true);
    expect(client.getSnapshot().view?.hand_no).toBe(8);
    expect(client.getSnapshot().seq).toBe(45);
  });

  it("accepts the resync snapshot even when its seq is not newer", () => {
    const { client, net } = setup();
    client.connect();
    net.last().open();
    net.last().receive(stateMessage(20, makeView({ hand_no: 5 })));
    net.last().drop();
    vi.advanceTimersByTime(500);
    net.last().open();
    net.last().receive(stateMessage(20, makeView({ hand_no: 6 })));
    expect(client.getSnapshot().view?.hand_no).toBe(6);
    // ...but after it, the normal ordering applies again.
    net.last().receive(stateMessage(20, makeView({ hand_no: 77 })));
    expect(client.getSnapshot().view?.hand_no).toBe(6);
  });

  it("backs off exponentially up to the cap while the server stays away", () => {
    const { client, net } = setup();
    client.connect();
    const delays: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      net.last().drop();
      const { retryAt } = client.getSnapshot();
      delays.push((retryAt ?? 0) - Date.now());
      vi.advanceTimersByTime(delays[delays.length - 1]!);
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    expect(net.sockets).toHaveLength(7);
  });

  it("adds jitter below the nominal delay", () => {
    const { client, net } = setup({ random: () => 0 });
    client.connect();
    net.last().drop();
    expect((client.getSnapshot().retryAt ?? 0) - Date.now()).toBe(250);
  });

  it.each([
    [4004, /does not exist/],
    [4000, /another tab/],
    [1008, /refused/],
  ])("stops for good on close code %i and says why", (code, message) => {
    const { client, net, errors } = setup();
    client.connect();
    net.last().open();
    net.last().drop(code);
    expect(client.getSnapshot().status).toBe("closed");
    expect(client.getSnapshot().fatal?.message).toMatch(message);
    expect(errors().at(-1)?.message).toMatch(message);
    vi.advanceTimersByTime(60_000);
    expect(net.sockets).toHaveLength(1);
    // The player may take the table back explicitly.
    client.reconnectNow(true);
    expect(net.sockets).toHaveLength(2);
    expect(client.getSnapshot().fatal).toBeNull();
  });

  it("uses the server's reason for a fatal close when it gives one", () => {
    const { client, net } = setup();
    client.connect();
    net.last().drop(4004, "no table 't9'");
    expect(client.getSnapshot().fatal?.message).toBe("no table 't9'");
  });

  it("sends commands with a ref only while open, and says so otherwise", () => {
    const { client, net, errors } = setup();
    client.connect();
    expect(client.send({ type: "stand" })).toBeNull();
    expect(errors().at(-1)?.code).toBe("not_connected");
    net.last().open();
    const ref = client.send({ type: "act", action: "raise", amount: 600, hand_no: 3 });
    expect(ref).toMatch(/^c/);
    expect(net.last().sentMessages().slice(1)).toEqual([{ type: "act", action: "raise", amount: 600, hand_no: 3, ref }]);
  });

  it("never queues commands across a reconnect", () => {
    const { client, net } = setup();
    client.connect();
    net.last().open();
    net.last().drop();
    expect(client.send({ type: "act", action: "fold" })).toBeNull();
    vi.advanceTimersByTime(500);
    net.last().open();
    expect(net.last().sentMessages().map((m) => m.type)).toEqual(["auth"]);
  });

  it("reports errors, advice and chat", () => {
    const { client, net, events } = setup();
    client.connect();
    net.last().open();
    net.last().receive({ type: "error", code: "illegal_action", message: "the minimum raise is to 400", ref: "c1" });
    net.last().receive({
      type: "advice",
      ref: "c2",
      hand_no: 3,
      seat: 1,
      source: "worker",
      applied: true,
      advice: { action: "raise", amount: 600, values: [{ action: "fold", value_bb: 0 }], equity: 0.61, opponents: [], reason: "value" },
    });
    net.last().receive({ type: "chat", seq: 12, at: 1, player_id: "bob", name: "Bob", seat: 2, text: "gl" });
    net.last().receive("not json");
    net.last().receive({ type: "something_new", x: 1 });
    const kinds = events.filter((e) => e.type !== "snapshot").map((e) => e.type);
    expect(kinds).toEqual(["error", "advice", "chat"]);
    const advice = events.find((e) => e.type === "advice") as Extract<TableClientEvent, { type: "advice" }>;
    expect(advice.report.applied).toBe(true);
    expect(advice.report.advice.equity).toBe(0.61);
  });

  it("reports the server's word that the statistics counted more hands, and drops a malformed one", () => {
    const { client, net, events } = setup();
    client.connect();
    net.last().open();
    net.last().receive({ type: "stats", hand_no: 4, player_ids: "p-2" });
    net.last().receive({ type: "stats", hand_no: "4", player_ids: ["p-2"], at: 9 });
    net.last().receive({ type: "stats", player_ids: ["p-2"], at: 9 });
    net.last().receive({ type: "stats", hand_no: 4, player_ids: ["p-2", 7, "p-3"], at: 9 });
    // A seated player's hands at another table were counted: no hand of this table.
    net.last().receive({ type: "stats", hand_no: null, player_ids: ["p-3"], at: 10 });
    const stats = events.filter((e) => e.type === "stats");
    expect(stats).toEqual([
      { type: "stats", stats: { hand_no: 4, player_ids: ["p-2", "p-3"], at: 9 } },
      { type: "stats", stats: { hand_no: null, player_ids: ["p-3"], at: 10 } },
    ]);
  });

  it("keeps a paused table's notice until it resumes", () => {
    const { client, net } = setup();
    client.connect();
    net.last().open();
    const message = "The database is not confirming writes: the table waits until it does.";
    net.last().receive({ type: "notice", paused: true, reason: "database", message, at: 5 });
    expect(client.getSnapshot().paused).toEqual({ paused: true, reason: "database", message, at: 5 });
    net.last().receive({ type: "notice", paused: false, reason: null, message: "back", at: 6 });
    expect(client.getSnapshot().paused).toBeNull();
  });

  it("pings, and drops a socket that went silent", () => {
    const { client, net } = setup({ pingIntervalMs: 1000, silenceTimeoutMs: 2500 });
    client.connect();
    net.last().open();
    vi.advanceTimersByTime(1000);
    expect(net.last().sentMessages().slice(1)).toEqual([{ type: "ping" }]);
    net.last().receive({ type: "pong", at: 1 });
    vi.advanceTimersByTime(2000);
    expect(net.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1000); // 3 s without a word
    expect(client.getSnapshot().status).toBe("reconnecting");
    vi.advanceTimersByTime(500);
    expect(net.sockets).toHaveLength(2);
  });

  it("flags a stall after two silent pings, and clears it when the server speaks", () => {
    const { client, net } = setup({ pingIntervalMs: 1000, silenceTimeoutMs: 10_000 });
    client.connect();
    net.last().open();
    vi.advanceTimersByTime(1000);
    expect(client.getSnapshot().stalled).toBe(false);
    vi.advanceTimersByTime(1000); // 2 s without a word: two pings unanswered
    expect(client.getSnapshot().stalled).toBe(true);
    expect(client.getSnapshot().status).toBe("open");
    net.last().receive({ type: "pong", at: 1 });
    expect(client.getSnapshot().stalled).toBe(false);
  });

  it("pings every two seconds by default and shows a stall within four", () => {
    const { client, net } = setup({ pingIntervalMs: undefined });
    client.connect();
    net.last().open();
    vi.advanceTimersByTime(2000);
    expect(net.last().sentMessages().slice(1)).toEqual([{ type: "ping" }]);
    vi.advanceTimersByTime(1999);
    expect(client.getSnapshot().stalled).toBe(false);
    vi.advanceTimersByTime(1);
    expect(client.getSnapshot().stalled).toBe(true);
  });

  it("close() ends the connection and all retries", () => {
    const { client, net } = setup();
    client.connect();
    net.last().open();
    const first = net.last();
    client.close();
    expect(first.closedWith?.code).toBe(1000);
    expect(client.getSnapshot().status).toBe("closed");
    vi.advanceTimersByTime(60_000);
    expect(net.sockets).toHaveLength(1);
    client.reconnectNow();
    expect(net.sockets).toHaveLength(1);
  });

  it("reconnectNow skips the backoff wait", () => {
    const { client, net } = setup();
    client.connect();
    net.last().open();
    net.last().drop();
    expect(net.sockets).toHaveLength(1);
    client.reconnectNow();
    expect(net.sockets).toHaveLength(2);
    vi.advanceTimersByTime(10_000);
    expect(net.sockets).toHaveLength(2);
  });

  describe("on a cluster: following the table to its owner (4010)", () => {
    const WELCOME = { type: "welcome", table_id: "t1", player_id: "alice", name: "Alice", seat: 1, seq: 5, resync: false, missed: null };

    it("opens the same path at the owner's address at once, with the same token and last_seq", () => {
      const { client, net } = setup({ follow: true });
      client.connect();
      expect(net.last().url).toBe(`${URL_}?follow=1`);
      net.last().open();
      net.last().drop(4010, "http://10.0.0.2:8001");
      expect(net.sockets).toHaveLength(2); // no backoff wait
      expect(net.last().url).toBe("ws://10.0.0.2:8001/ws/tables/t1?follow=1");
      net.last().open();
      expect(net.last().sentMessages()).toEqual([{ type: "auth", token: "tok", last_seq: null }]);
      net.last().receive(WELCOME);
      net.last().receive(stateMessage(5, makeView({ hand_no: 3 })));
      expect(client.getSnapshot().welcome?.seat).toBe(1);
      expect(client.getSnapshot().status).toBe("open");
      // A drop later: back where the client first connected (a failover moves the table).
      net.last().drop(1006);
      vi.advanceTimersByTime(500);
      expect(net.sockets).toHaveLength(3);
      expect(net.last().url).toBe(`${URL_}?follow=1&last_seq=5`);
      net.last().open();
      net.last().drop(4010, "http://10.0.0.3:8002/");
      expect(net.last().url).toBe("ws://10.0.0.3:8002/ws/tables/t1?follow=1&last_seq=5");
      net.last().open();
      expect(net.last().sentMessages()).toEqual([{ type: "auth", token: "tok", last_seq: 5 }]);
    });

    it("follows at most twice in a row, then is relayed by the first node (no loop)", () => {
      const { client, net } = setup({ follow: true });
      client.connect();
      net.last().open();
      net.last().drop(4010, "http://n1:8001");
      net.last().open();
      net.last().drop(4010, "http://n2:8002");
      expect(net.last().url).toBe("ws://n2:8002/ws/tables/t1?follow=1");
      net.last().open();
      net.last().drop(4010, "http://n1:8001"); // misdirected twice: not followed
      expect(net.sockets).toHaveLength(3);
      expect(client.getSnapshot().status).toBe("reconnecting");
      vi.advanceTimersByTime(500);
      expect(net.sockets).toHaveLength(4);
      expect(net.last().url).toBe(URL_); // the first node, without follow: relayed
      net.last().open();
      net.last().receive(WELCOME);
      // Relayed and welcomed: the next connection follows again.
      net.last().drop(1006);
      vi.advanceTimersByTime(500);
      expect(net.last().url).toBe(`${URL_}?follow=1`);
    });

    it("is relayed next time when the owner's address cannot be opened from here", () => {
      const { client, net } = setup({ follow: true });
      client.connect();
      net.last().open();
      net.last().drop(4010, "http://n1:8001");
      // Refused before it opened (the owner gone, or its origin check): no welcome.
      net.last().drop(1006);
      vi.advanceTimersByTime(500);
      expect(net.sockets).toHaveLength(3);
      expect(net.last().url).toBe(URL_);
      net.last().open();
      net.last().drop(4010, "http://n1:8001"); // not asked to follow: not followed
      vi.advanceTimersByTime(1000);
      expect(net.sockets).toHaveLength(4);
      expect(client.getSnapshot().fatal).toBeNull();
    });

    it("is relayed next time when the page may not open the owner's address (CSP)", () => {
      const net = fakeSockets();
      const client = new TableClient({
        url: URL_,
        token: "tok",
        follow: true,
        random: () => 1,
        backoff: { initialMs: 500, maxMs: 4000, factor: 2 },
        pingIntervalMs: 0,
        createSocket: (url) => {
          if (url.startsWith("ws://n1:8001")) throw new Error("SecurityError: violates connect-src");
          return net.factory(url);
        },
      });
      client.connect();
      net.last().open();
      net.last().drop(4010, "http://n1:8001");
      expect(net.sockets).toHaveLength(1);
      vi.advanceTimersByTime(500);
      expect(net.sockets).toHaveLength(2);
      expect(net.last().url).toBe(URL_); // relayed, not sent to the owner again
      net.last().open();
      net.last().receive(WELCOME);
      expect(client.getSnapshot().welcome?.seat).toBe(1);
    });

    it("gives up a socket at the owner that never opens, and is relayed", () => {
      const { client, net } = setup({ follow: true });
      client.connect();
      net.last().open();
      net.last().drop(4010, "http://n1:8001");
      const silent = net.last(); // blocked by the page's CSP: no event at all
      vi.advanceTimersByTime(4_999);
      expect(net.sockets).toHaveLength(2);
      vi.advanceTimersByTime(1);
      expect(silent.closedWith).not.toBeNull();
      vi.advanceTimersByTime(500);
      expect(net.sockets).toHaveLength(3);
      expect(net.last().url).toBe(URL_);
      net.last().open();
      net.last().receive(WELCOME);
      expect(client.getSnapshot().status).toBe("open");
    });

    it("does not follow an address it should not go to", () => {
      for (const reason of ["", "moved", "ftp://n1:21", "javascript:alert(1)", "http://user:pw@n1:8001"]) {
        const { client, net } = setup({ follow: true });
        client.connect();
        net.last().open();
        net.last().drop(4010, reason);
        expect(net.sockets).toHaveLength(1);
        vi.advanceTimersByTime(500);
        expect(net.last().url).toBe(URL_);
        client.close();
      }
    });

    it("a client that does not follow never asks to", () => {
      const { client, net } = setup();
      client.connect();
      net.last().open();
      net.last().drop(4010, "http://n1:8001");
      expect(net.sockets).toHaveLength(1);
      vi.advanceTimersByTime(500);
      expect(net.last().url).toBe(URL_);
    });

    it("maps the owner's address to a socket URL, never down from wss", () => {
      expect(ownerSocketUrl("https://n1.example:8443", "wss://room.example/ws/tables/t%201")).toBe(
        "wss://n1.example:8443/ws/tables/t%201",
      );
      expect(ownerSocketUrl("http://n1:8001", "wss://room.example/ws/tables/t1")).toBeNull();
      expect(ownerSocketUrl("http://n1:8001/room/", "ws://room/ws/tables/t1")).toBe("ws://n1:8001/room/ws/tables/t1");
    });
  });

  it("measures the server clock offset from state messages", () => {
    const { client, net } = setup();
    client.connect();
    net.last().open();
    net.last().receive(stateMessage(1, makeView(), { at: Date.now() + 5000 }));
    expect(Math.round(client.getSnapshot().clockOffset / 100)).toBe(50);
    expect(client.serverNow() - Date.now()).toBeGreaterThanOrEqual(4900);
  });
});
