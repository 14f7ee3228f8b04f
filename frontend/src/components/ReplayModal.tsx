/** A past hand replayed over the table. */
import type { HandSummary } from "../protocol";
import { HandReplay } from "./HandHistory";

export function ReplayModal({ hand, onClose }: { hand: HandSummary; onClose: () => void }) {
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div className="modal modal--wide" onClick={(e) => e.stopPropagation()} role="dialog" aria-label={`Hand #${hand.hand_no}`}>
        <div className="modal__head">
          <h3>Hand #{hand.hand_no}</h3>
          <button type="button" className="btn btn--ghost btn--small" onClick={onClose} data-testid="close-replay">
            Close
          </button>
        </div>
        <HandReplay handId={hand.hand_id} />
      </div>
    </div>
  );
}
