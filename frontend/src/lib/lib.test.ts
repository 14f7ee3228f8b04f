import { describe, expect, it } from "vitest";
import { formatBB, formatChips, formatChipsShort, parseChips, parseUnit } from "./chips";
import { cardName, cardsText, parseCard } from "./cards";
import { seatLayout, TALL, WIDE, shapeFor } from "./layout";
import { potFractionTo, quickSizes, clampTo } from "./betting";
import { bestHand, bestHandName, describeShort } from "./handrank";
import { describeEvent, lastActionLabel } from "./events";
import { buildReplay } from "./replay";
import { stepToView } from "./replayView";
import { event, FOLDED_TO_A_BET, legal, makeView } from "../test/fixtures";
import type { HandRecord } from "../protocol";

describe("chips", () => {
  it("formats through chip_unit", () => {
    expect(formatChips(1250)).toBe("1,250");
    expect(formatChips(1250, "0.01")).toBe("12.50");
    expect(formatChips(5, "0.05")).toBe("0.25");
    expect(formatChips(3, "10")).toBe("30");
    expect(formatChips(7, "1E+1")).toBe("70");
    expect(parseUnit("0.010")).toEqual({ decimals: 2, scaled: 1 });
    expect(formatChipsShort(2_500_000)).toBe("2.5M");
    expect(formatChipsShort(125_000)).toBe("125K");
  });
  it("parses typed money back to chips", () => {
    expect(parseChips("12.50", "0.01")).toBe(1250);
    expect(parseChips("1,250")).toBe(1250);
    expect(parseChips("abc")).toBeNull();
    expect(parseChips("")).toBeNull();
  });
  it("shows big blinds", () => {
    expect(formatBB(250, 100)).toBe("2.5 bb");
    expect(formatBB(300, 100)).toBe("3 bb");
    expect(formatBB(1, 100)).toBe("0.01 bb"); // a top-up's minimum of one chip
    expect(formatBB(50, 100)).toBe("0.5 bb");
    expect(formatBB(1396, 100)).toBe("14 bb");
  });
});

describe("cards", () => {
  it("parses and names cards", () => {
    expect(parseCard("Td")).toEqual({ rank: "T", label: "10", suit: "d" });
    expect(parseCard("Xx")).toBeNull();
    expect(cardName("As")).toBe("ace of spades");
    expect(cardsText(["Ah", "Tc"])).toBe("A♥ 10♣");
  });
});

describe("seat layout", () => {
  it("puts the anchor seat at the bottom and goes clockwise", () => {
    const spots = seatLayout(6, 4);
    const at = (n: number) => spots.find((s) => s.seat === n)!;
    expect(at(4).seatPos.x).toBeCloseTo(50);
    expect(at(4).seatPos.y).toBeGreaterThan(85);
    expect(at(4).side).toBe("bottom");
    // Clockwise on screen from the bottom: the next seat is to the lower left.
    expect(at(5).seatPos.x).toBeLessThan(50);
    expect(at(1).seatPos.y).toBeLessThan(15); // opposite the anchor
  });
  it("keeps a side seat's whole pod inside the box (half of --pod-w: 7.25% wide, 12.5% tall)", () => {
    for (let n = 2; n <= 10; n += 1) {
      for (const [shape, half] of [[WIDE, 7.25], [TALL, 12.5]] as const) {
        for (const s of seatLayout(n, 1, shape)) {
          expect(s.seatPos.x - half).toBeGreaterThanOrEqual(0);
          expect(s.seatPos.x + half).toBeLessThanOrEqual(100);
        }
      }
    }
  });

  it("lays out 2 to 10 seats inside the box", () => {
    for (let n = 2; n <= 10; n += 1) {
      for (const shape of [WIDE, TALL]) {
        const spots = seatLayout(n, 1, shape);
        expect(spots).toHaveLength(n);
        for (const s of spots) {
          expect(s.seatPos.x).toBeGreaterThanOrEqual(0);
          expect(s.seatPos.x).toBeLessThanOrEqual(100);
          expect(s.betPos.y).toBeGreaterThan(0);
        }
      }
    }
    expect(shapeFor(390, 500)).toBe(TALL);
    expect(shapeFor(1000, 520)).toBe(WIDE);
  });
});

describe("bet sizing", () => {
  it("computes pot-sized raises by calling first", () => {
    const view = makeView(); // pot 150 (50 + 100 in front), facing 100
    const l = legal({ committed: 0, call_amount: 100, min_to: 200, max_to: 10000 });
    // pot after the call = 250; a pot raise is to 100 + 250
    expect(potFractionTo(view, l, 1)).toBe(350);
    expect(potFractionTo(view, l, 0.5)).toBe(225);
    const sizes = quickSizes(view, l);
    expect(sizes.map((s) => s.key)).toEqual(["min", "half", "three-quarters", "pot", "all-in"]);
    expect(sizes.find((s) => s.key === "all-in")!.to).toBe(10000);
    expect(clampTo(50, l)).toBe(200);
    expect(clampTo(1e9, l)).toBe(10000);
  });
  it("has no sizes when no raise is allowed", () => {
    expect(quickSizes(makeView(), legal({ raise_kind: null, min_to: null, max_to: null }))).toEqual([]);
  });
});

describe("hand names", () => {
  it("names the best five of seven", () => {
    expect(bestHandName(["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"])).toBe("a Royal Flush");
    expect(bestHandName(["Kd", "Kc", "3s", "Jc", "Tc", "Td", "Kh"])).toBe("a Full House, Kings full of Tens");
    expect(bestHandName(["Ah", "2d", "3c", "4s", "5h", "9c", "Jd"])).toBe("a Straight, Five high");
    expect(bestHandName(["Ah", "Ad", "Kc", "Ks", "5h", "9c", "Jd"])).toBe("Two Pair, Aces and Kings");
    expect(bestHandName(["2h", "7d", "9c", "Js", "Kh", "4c", "3d"])).toBe("King high");
    expect(bestHandName(["Ah", "Kd"])).toBeNull();
  });
  it("has a short name for each kind of hand, for a phone's winner line", () => {
    const short = (codes: string[]) => describeShort(bestHand(codes)!);
    expect(short(["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"])).toBe("Royal Flush");
    expect(short(["9h", "9d", "9c", "5s", "5h", "2c", "3d"])).toBe("9s full of 5s");
    expect(short(["Ah", "2d", "3c", "4s", "5h", "9c", "Jd"])).toBe("5-high Straight");
    expect(short(["Th", "Jd", "Qc", "Ks", "9h", "2c", "3d"])).toBe("K-high Straight");
    expect(short(["Ah", "Ad", "Kc", "Ks", "5h", "9c", "Jd"])).toBe("As and Ks");
    expect(short(["Th", "Td", "Tc", "Ts", "5h", "9c", "Jd"])).toBe("Four 10s");
    expect(short(["2h", "7d", "9c", "Js", "Kh", "4c", "3d"])).toBe("K high");
  });
});

describe("events in words", () => {
  const names = (s: number | null | undefined) => (s === 1 ? "Alice" : "Bob");
  it("describes each kind", () => {
    expect(describeEvent(event({ kind: "raise", street: "preflop", seat: 1, amount: 600 }), names)).toBe("Alice raises to 600");
    expect(describeEvent(event({ kind: "call", street: "flop", seat: 2, amount: 1250, all_in: true }), names, "0.01")).toBe("Bob calls 12.50 (all-in)");
    expect(describeEvent(event({ kind: "board", street: "flop", cards: ["Ah", "Kd", "2c"] }), names)).toBe("Flop: A♥ K♦ 2♣");
    expect(describeEvent(event({ kind: "win", street: "showdown", seat: 2, amount: 300, pot_index: 1 }), names)).toBe("Bob wins 300 from side pot 1");
    expect(describeEvent(event({ kind: "return", street: "river", seat: 1, amount: 200 }), names)).toBe("200 uncalled returned to Alice");
  });
  it("labels a seat's last action on this street only", () => {
    const events = makeView().events.concat([event({ kind: "raise", street: "preflop", seat: 4, amount: 300 })]);
    expect(lastActionLabel(events, 4, "preflop")).toBe("Raise 300");
    expect(lastActionLabel(events, 3, "preflop")).toBeNull(); // blinds are shown on the seat itself
    expect(lastActionLabel([...events, event({ kind: "board", street: "flop", cards: ["2c", "3c", "4c"] })], 4, "flop")).toBeNull();
  });
});

// Bob's cards shown and the board run out, so the replay has every street's cards.
const RECORD: HandRecord = {
  ...FOLDED_TO_A_BET,
  hand_id: "h9",
  seats: [
    { seat: 2, player_id: "b", name: "Bob", is_bot: false, starting_stack: 1000, final_stack: 1300, hole_cards: ["Ah", "Ad"] },
    { seat: 1, player_id: "a", name: "Alice", is_bot: false, starting_stack: 1000, final_stack: 700, hole_cards: ["Kh", "Kd"] },
  ],
  board: ["2c", "7d", "9h", "Js", "3c"],
};

describe("replay", () => {
  it("moves chips exactly as the events say and conserves them", () => {
    const steps = buildReplay(RECORD, "all");
    expect(steps).toHaveLength(RECORD.events.length + 1);
    for (const step of steps) {
      const total = step.pot + step.seats.reduce((sum, s) => sum + s.stack + s.bet, 0);
      expect(total).toBe(2000);
    }
    const afterRaise = steps[3]!;
    expect(afterRaise.seats.find((s) => s.seat === 1)).toMatchObject({ stack: 700, bet: 300 });
    const flop = steps[5]!;
    expect(flop.pot).toBe(600);
    expect(flop.board).toEqual(["2c", "7d", "9h"]);
    expect(flop.street).toBe("flop");
    const end = steps.at(-1)!;
    expect(end.seats.find((s) => s.seat === 2)).toMatchObject({ stack: 1300, won: 600 });
    expect(end.seats.find((s) => s.seat === 1)).toMatchObject({ stack: 700, folded: true });
  });
  it("hides cards that were not seen", () => {
    const steps = buildReplay(RECORD, 1);
    expect(steps[0]!.seats.find((s) => s.seat === 1)!.cards).toEqual(["Kh", "Kd"]);
    expect(steps[0]!.seats.find((s) => s.seat === 2)!.cards).toBeNull();
  });
  it("renders each step as a table view", () => {
    const steps = buildReplay(RECORD, "all");
    const start = stepToView(RECORD, steps, 0, 1);
    expect(start.hand_in_progress).toBe(true);
    expect(start.actor).toBeNull(); // the blinds come first
    const afterBlinds = stepToView(RECORD, steps, 2, 1);
    expect(afterBlinds.actor).toBe(1);
    expect(afterBlinds.total_pot).toBe(150);
    expect(afterBlinds.small_blind_seat).toBe(1);
    const last = stepToView(RECORD, steps, steps.length - 1, 1);
    expect(last.hand_in_progress).toBe(false);
    expect(last.last_result?.winnings).toEqual({ "2": 600 });
  });
});
