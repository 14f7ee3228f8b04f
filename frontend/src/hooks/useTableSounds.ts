/** When the table plays its sounds: your turn, your time bank starting, a pot you won. */
import { useEffect, useRef } from "react";
import type { TableView, TurnClock } from "../protocol";
import { playCue, unlockSound, type SoundCue } from "../lib/sounds";

/** A key for the decision the viewer faces (null when it is not their turn). */
function decisionKey(view: TableView | null): string | null {
  if (!view || !view.hand_in_progress || view.viewer_seat === null) return null;
  if (view.actor !== view.viewer_seat || view.legal_actions === null) return null;
  return `${view.hand_no}:${view.street ?? ""}:${view.events.length}`;
}

/** The cues a new view calls for, after the previous one: a new decision, a pot won. */
export function cuesFor(prev: TableView | null, next: TableView): SoundCue[] {
  const cues: SoundCue[] = [];
  const decision = decisionKey(next);
  if (decision !== null && decision !== decisionKey(prev)) cues.push("turn");
  const result = next.hand_in_progress ? null : next.last_result;
  const seat = next.viewer_seat;
  if (prev && result && seat !== null && result.hand_no !== prev.last_result?.hand_no && (result.winnings[String(seat)] ?? 0) > 0) {
    cues.push("win");
  }
  return cues;
}

/**
 * Milliseconds until the viewer's time bank starts on this clock (its decision
 * time runs out), or null: not their clock, no time bank, or already started.
 */
export function bankStartsIn(clock: TurnClock | null, viewerSeat: number | null, serverNow: number): number | null {
  if (!clock || viewerSeat === null || clock.seat !== viewerSeat) return null;
  const mainEnd = clock.started_at + clock.action_timeout_ms;
  if (clock.deadline <= mainEnd) return null;
  const wait = mainEnd - serverNow;
  return wait >= 0 ? wait : null;
}

export function useTableSounds(view: TableView | null, clock: TurnClock | null, clockOffset: number, enabled: boolean): void {
  const previous = useRef<TableView | null>(null);
  useEffect(() => {
    // Sound switched on in an earlier visit: audio may start from the page's first tap.
    if (!enabled) return;
    const unlock = () => unlockSound();
    window.addEventListener("pointerdown", unlock, { once: true });
    return () => window.removeEventListener("pointerdown", unlock);
  }, [enabled]);
  useEffect(() => {
    const prev = previous.current;
    previous.current = view;
    if (!enabled || !view) return;
    for (const cue of cuesFor(prev, view)) playCue(cue);
  }, [view, enabled]);

  const viewerSeat = view?.viewer_seat ?? null;
  useEffect(() => {
    if (!enabled) return;
    const wait = bankStartsIn(clock, viewerSeat, Date.now() + clockOffset);
    if (wait === null) return;
    const id = setTimeout(() => playCue("bank"), wait);
    return () => clearTimeout(id);
  }, [clock, viewerSeat, clockOffset, enabled]);
}
