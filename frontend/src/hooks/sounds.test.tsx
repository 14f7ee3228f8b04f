import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TableView, TurnClock } from "../protocol";
import { CUES, SOUND_EVENT, type SoundCue } from "../lib/sounds";
import { makeView } from "../test/fixtures";
import { bankStartsIn, cuesFor, useTableSounds } from "./useTableSounds";

const myTurn = makeView(); // preflop, Alice (seat 1, the viewer) to act
const othersTurn = makeView({ actor: 2, legal_actions: null });
function ended(winnings: Record<string, number>, handNo = 3): TableView {
  return makeView({
    hand_in_progress: false,
    actor: null,
    legal_actions: null,
    last_result: { hand_no: handNo, net: {}, winnings, shown: {}, board: [] , boards: []},
  });
}

describe("the table's sound cues", () => {
  it("plays your turn once per decision", () => {
    expect(cuesFor(othersTurn, myTurn)).toEqual(["turn"]);
    expect(cuesFor(null, myTurn)).toEqual(["turn"]);
    expect(cuesFor(myTurn, myTurn)).toEqual([]);
    expect(cuesFor(myTurn, othersTurn)).toEqual([]);
    const nextStreet = makeView({ street: "flop", events: [...myTurn.events, ...myTurn.events] });
    expect(cuesFor(myTurn, nextStreet)).toEqual(["turn"]);
    expect(cuesFor(null, makeView({ viewer_seat: null }))).toEqual([]);
  });

  it("plays a win only for a pot you won, once", () => {
    expect(cuesFor(myTurn, ended({ "1": 300 }))).toEqual(["win"]);
    expect(cuesFor(ended({ "1": 300 }), ended({ "1": 300 }))).toEqual([]);
    expect(cuesFor(myTurn, ended({ "2": 300 }))).toEqual([]);
    // Joining a table whose last result you won is not a win now.
    expect(cuesFor(null, ended({ "1": 300 }))).toEqual([]);
  });

  it("times the time bank from the end of your decision time", () => {
    const clock: TurnClock = { seat: 1, started_at: 10_000, action_timeout_ms: 20_000, deadline: 60_000, time_bank_ms: 30_000 };
    expect(bankStartsIn(clock, 1, 12_000)).toBe(18_000);
    expect(bankStartsIn(clock, 2, 12_000)).toBeNull(); // someone else's clock
    expect(bankStartsIn(clock, 1, 31_000)).toBeNull(); // already in the bank
    expect(bankStartsIn({ ...clock, deadline: 30_000, time_bank_ms: 0 }, 1, 12_000)).toBeNull(); // no bank
  });

  it("synthesises every cue (no sound files)", () => {
    for (const tones of Object.values(CUES)) {
      expect(tones.length).toBeGreaterThan(0);
      for (const t of tones) expect(t.freq).toBeGreaterThan(100);
    }
  });
});

describe("useTableSounds", () => {
  let heard: SoundCue[];
  const listen = (e: Event) => heard.push((e as CustomEvent<SoundCue>).detail);
  beforeEach(() => {
    heard = [];
    window.addEventListener(SOUND_EVENT, listen);
    vi.useFakeTimers();
  });
  afterEach(() => {
    window.removeEventListener(SOUND_EVENT, listen);
    vi.useRealTimers();
  });

  it("is silent while sound is off", () => {
    const { rerender } = renderHook(({ view }) => useTableSounds(view, null, 0, false), { initialProps: { view: othersTurn } });
    rerender({ view: myTurn });
    rerender({ view: ended({ "1": 300 }) });
    expect(heard).toEqual([]);
  });

  it("plays your turn, the time bank and a win when on", () => {
    const now = Date.now();
    const clock: TurnClock = { seat: 1, started_at: now, action_timeout_ms: 5_000, deadline: now + 15_000, time_bank_ms: 10_000 };
    const { rerender } = renderHook(({ view, clock }) => useTableSounds(view, clock, 0, true), {
      initialProps: { view: othersTurn, clock: null as TurnClock | null },
    });
    rerender({ view: myTurn, clock });
    expect(heard).toEqual(["turn"]);
    act(() => void vi.advanceTimersByTime(4_900));
    expect(heard).toEqual(["turn"]);
    act(() => void vi.advanceTimersByTime(200));
    expect(heard).toEqual(["turn", "bank"]);
    rerender({ view: ended({ "1": 300 }), clock: null });
    expect(heard).toEqual(["turn", "bank", "win"]);
  });
});
