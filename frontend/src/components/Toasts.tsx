/** Server errors in words, and table notices ("the AI decided for Bob"). */
import type { Toast } from "../hooks/useTable";

const FRIENDLY: Record<string, string> = {
  not_your_turn: "It is not your turn.",
  not_seated: "Take a seat first.",
  rate_limited: "Slow down a little: too many messages.",
  advice_disabled: "Advice is turned off at this table.",
  ai_busy: "The AI is busy; try again in a moment.",
  advice_limited: "You have asked for a lot of advice: wait a little before the next.",
  stale: "That was for an earlier hand.",
};

export function friendlyMessage(code: string, message: string): string {
  // Rule errors carry the rule's own words; prefer them.
  if (message && !/^[a-z_]+$/.test(message)) return message.charAt(0).toUpperCase() + message.slice(1);
  return FRIENDLY[code] ?? message ?? code;
}

export function Toasts({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  if (!toasts.length) return null;
  return (
    <div className="toasts" role="alert" data-testid="errors">
      {toasts.map((t) => (
        <div key={t.id} className="toast" data-code={t.code} data-testid="error-toast">
          <span>{friendlyMessage(t.code, t.message)}</span>
          <button type="button" className="toast__close" onClick={() => onDismiss(t.id)} aria-label="Dismiss">
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
