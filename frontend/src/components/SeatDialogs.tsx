/** The buy-in dialogs of the seat flow: sitting down at a seat, and a rebuy or top-up. */
import type { SeatView, TableView } from "../protocol";
import { rebuyRange, type SeatFlow } from "../hooks/useSeatFlow";
import { BuyInDialog } from "./BuyInDialog";

export function SeatDialogs({ view, me, flow }: { view: TableView; me: SeatView | null; flow: SeatFlow }) {
  const rebuy = rebuyRange(view, me);
  return (
    <>
      {flow.buyInSeat !== null && (
        <BuyInDialog
          title={`Sit at seat ${flow.buyInSeat}`}
          config={view.config}
          min={view.config.min_buy_in}
          max={view.config.max_buy_in}
          initial={view.config.max_buy_in}
          confirmLabel="Sit down"
          onCancel={flow.cancelBuyIn}
          onConfirm={flow.sit}
        />
      )}
      {flow.rebuyOpen && me && (
        <BuyInDialog
          title={me.stack === 0 ? "Rebuy" : "Top up"}
          config={view.config}
          min={Math.min(rebuy.min, rebuy.max)}
          max={rebuy.max}
          initial={rebuy.max}
          confirmLabel="Add chips"
          testId="rebuy-dialog"
          onCancel={flow.closeRebuy}
          onConfirm={flow.rebuy}
        />
      )}
    </>
  );
}
