/** The actor's countdown: the decision time, then the time bank (orange). */
import { plural } from "../lib/plural";
import type { TurnClock } from "../protocol";
import { useNow } from "../hooks/useNow";

export interface TimerState {
  phase: "main" | "bank" | "over";
  remainingMs: number;
  fraction: number;
}

export function timerState(clock: TurnClock, serverNow: number): TimerState {
  const mainEnd = clock.started_at + clock.action_timeout_ms;
  if (serverNow < mainEnd) {
    const remainingMs = mainEnd - serverNow;
    return { phase: "main", remainingMs, fraction: clock.action_timeout_ms ? remainingMs / clock.action_timeout_ms : 0 };
  }
  const bankEnd = Math.max(clock.deadline, mainEnd);
  if (serverNow < bankEnd) {
    const remainingMs = bankEnd - serverNow;
    const bank = Math.max(1, bankEnd - mainEnd);
    return { phase: "bank", remainingMs, fraction: remainingMs / bank };
  }
  return { phase: "over", remainingMs: 0, fraction: 0 };
}

export function TurnTimer({ clock, clockOffset, variant = "bar" }: { clock: TurnClock; clockOffset: number; variant?: "bar" | "badge" }) {
  const now = useNow(true, 200) + clockOffset;
  const state = timerState(clock, now);
  const seconds = Math.ceil(state.remainingMs / 1000);
  const urgent = state.phase !== "main" || seconds <= 5;
  if (variant === "badge") {
    return (
      // Over the avatar (the name stays readable): the seconds, orange once in the time bank.
      <div
        className={`turn-clock turn-clock--${state.phase}${urgent ? " turn-clock--urgent" : ""}`}
        data-testid="turn-clock"
        data-phase={state.phase}
        title={state.phase === "bank" ? `Time bank: ${plural(seconds, "second")} left` : `${plural(seconds, "second")} to act`}
      >
        {seconds}s
      </div>
    );
  }
  return (
    <div
      className={`turn-timer turn-timer--${state.phase}${urgent ? " turn-timer--urgent" : ""}`}
      data-testid="turn-timer"
      role="timer"
      aria-label={state.phase === "bank" ? `time bank, ${plural(seconds, "second")}` : `${plural(seconds, "second")} to act`}
    >
      <div className="turn-timer__bar" style={{ transform: `scaleX(${Math.max(0, Math.min(1, state.fraction))})` }} />
    </div>
  );
}
