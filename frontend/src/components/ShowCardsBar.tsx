/**
 * Won uncalled (everyone else folded): show your cards or not, during the pause
 * before the next deal; and the standing choice to show every time. The default
 * is to muck: then your cards never leave the server.
 */
import type { TableView } from "../protocol";

/** The viewer won the last hand with nobody left to call, and nobody has shown cards. */
export function wonUncalled(view: TableView): boolean {
  const me = view.viewer_seat;
  const result = view.last_result;
  if (me === null || !result || view.hand_in_progress || result.hand_no !== view.hand_no) return false;
  if (!((result.winnings[String(me)] ?? 0) > 0)) return false;
  return !view.events.some((e) => e.kind === "muck" || (e.kind === "show" && e.seat !== me));
}

export interface ShowCardsBarProps {
  view: TableView;
  always: boolean;
  onShow: () => void;
  onAlways: (on: boolean) => void;
}

export function ShowCardsBar({ view, always, onShow, onAlways }: ShowCardsBarProps) {
  if (!wonUncalled(view)) return null;
  const me = view.viewer_seat;
  const shown = view.events.some((e) => e.kind === "show" && e.seat === me);
  return (
    <div className="show-bar" data-testid="show-bar">
      <span>{shown ? "Your cards are shown to the table." : "Everyone folded: your cards stay hidden unless you show them."}</span>
      {!shown && (
        <button type="button" className="btn btn--small btn--primary" onClick={onShow} data-testid="show-cards">
          Show cards
        </button>
      )}
      <label className="toggle show-bar__always" title="Show your cards whenever everyone folds to you">
        <input type="checkbox" checked={always} onChange={(e) => onAlways(e.target.checked)} data-testid="show-uncalled-always" />
        <span>Always show when uncalled</span>
      </label>
    </div>
  );
}
