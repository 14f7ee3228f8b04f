import { describe, expect, it } from "vitest";
import { decodeGuest, decodeHand, decodeHandPage, decodeTableDetail, decodeTables, endpoints } from "./rest";
import { decode } from "./messages";
import { makeView } from "../test/fixtures";

describe("REST decoders", () => {
  it("reads the guest token", () => {
    expect(decodeGuest({ token: "t", player_id: "g1", name: "Al", expires_at: "2026-01-01T00:00:00Z" })).toMatchObject({ token: "t", player_id: "g1", name: "Al" });
    expect(() => decodeGuest({ detail: "nope" })).toThrow(/no token/);
  });

  it("folds the flat lobby summary into a config", () => {
    const [t] = decodeTables([
      { table_id: "t7", name: "T1", variant: "limit", small_blind: 1, big_blind: 2, ante: 0, seats: 9, seats_taken: 4, bots: 3, players: 1, min_buy_in: 80, max_buy_in: 200, action_timeout: 20, time_bank: 30, advice_allowed: false, hand_no: 12, hand_in_progress: true },
    ]);
    expect(t).toMatchObject({ table_id: "t7", name: "T1", seats_taken: 4, bots: 3, advice_allowed: false });
    expect(t!.config).toMatchObject({ variant: "limit", seats: 9, small_blind: 1, big_blind: 2, min_buy_in: 80, max_buy_in: 200, chip_unit: "1" });
  });

  it("takes the detail's config from its view when present", () => {
    const view = makeView({ config: { ...makeView().config, chip_unit: "0.01" } });
    const d = decodeTableDetail({ table_id: "t1", name: "x", variant: "no-limit", small_blind: 50, big_blind: 100, seats: 6, seats_taken: 4, bots: 3, view });
    expect(d.config.chip_unit).toBe("0.01");
    expect(d.view?.seats).toHaveLength(4);
  });

  it("reads a page of hands and a hand with hidden cards", () => {
    const page = decodeHandPage({ items: [{ hand_id: "h1", table_id: "t1", hand_no: 3, net: -100, board: [] }], total: 31, limit: 20, offset: 0 });
    expect(page.total).toBe(31);
    expect(page.items[0]).toMatchObject({ hand_id: "h1", net: -100 });
    const hand = decodeHand({
      hand_id: "h1",
      record: {
        table_id: "t1",
        hand_no: 3,
        config: makeView().config,
        button: 1,
        seats: [
          { seat: 1, player_id: "a", name: "A", is_bot: false, starting_stack: 100, final_stack: 50, hole_cards: ["Ah", "Kd"] },
          { seat: 2, player_id: "b", name: "B", is_bot: true, starting_stack: 100, final_stack: 150, hole_cards: ["??", "??"] },
        ],
        events: [],
        board: [],
      },
    });
    expect(hand.hand_id).toBe("h1");
    expect(hand.seats[0]!.hole_cards).toEqual(["Ah", "Kd"]);
    expect(hand.seats[1]!.hole_cards).toBeNull();
  });

  it("builds the documented paths", () => {
    expect(endpoints.hands(20, 40)).toBe("/api/hands?limit=20&offset=40");
    expect(endpoints.handPhh("a b")).toBe("/api/hands/a%20b/phh");
  });
});

describe("decode (table socket)", () => {
  it("reads a state with its clock and cause", () => {
    const msg = decode(
      JSON.stringify({
        type: "state",
        seq: 5,
        at: 1000,
        table_id: "t1",
        view: makeView(),
        clock: { seat: 1, started_at: 1, deadline: 2, action_timeout_ms: 1, time_bank_ms: 0 },
        cause: { kind: "act", seat: 2, action: { kind: "raise", amount: 600 }, by: "ai", note: "" },
      }),
    );
    expect(msg.kind).toBe("state");
    if (msg.kind !== "state") return;
    expect(msg.state.clock?.seat).toBe(1);
    expect(msg.state.cause?.by).toBe("ai");
  });

  it("never throws on nonsense", () => {
    expect(decode("{").kind).toBe("unknown");
    expect(decode("[]").kind).toBe("unknown");
    expect(decode(JSON.stringify({ type: "state", seq: 1 })).kind).toBe("unknown");
    expect(decode(JSON.stringify({ type: "error" }))).toEqual({ kind: "error", error: { code: "error", message: "The server refused that.", ref: null } });
  });
});
