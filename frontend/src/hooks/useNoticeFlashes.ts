/**
 * Seat flashes from the table's notices: seats the AI just decided for (everyone sees it)
 * and "+1,000 rebuy" cues, so a new stack is explained.
 */
import { useEffect, useEffectEvent, useMemo } from "react";
import type { TableView } from "../protocol";
import { formatChips } from "../lib/chips";
import { useFlashes } from "./useFlashes";
import type { TableNotice } from "./useTable";

export const AI_FLASH_MS = 4000;
export const CUE_FLASH_MS = 3000;

export interface NoticeFlashes {
  aiSeats: ReadonlySet<number>;
  seatCues: ReadonlyMap<number, string>;
}

/** The cue a rebuy or top-up notice flashes at its seat. */
export function rebuyCue(rebuy: NonNullable<TableNotice["rebuy"]>, unit: string): string {
  return `+${formatChips(rebuy.amount, unit)} ${rebuy.topUp ? "top-up" : "rebuy"}`;
}

export function useNoticeFlashes(notices: readonly TableNotice[], view: TableView | null): NoticeFlashes {
  // An AI seat's flash lasts a few seconds, and not while that seat decides again (by
  // then its player may be deciding alone).
  const aiFlashes = useFlashes<number, true>(AI_FLASH_MS);
  const cueFlashes = useFlashes<number, string>(CUE_FLASH_MS);
  const { flash: flashCue } = cueFlashes;
  const { flash: flashAi, clear: clearAi } = aiFlashes;
  const lastNotice = notices[notices.length - 1];
  // Each notice flashes once, when it arrives: the view it reads for the chip unit changes
  // with every action and must not flash the same notice again (an effect event).
  const onNotice = useEffectEvent((notice: TableNotice) => {
    if (notice.seat === null || !view) return;
    if (notice.by === "rebuy" && notice.rebuy) {
      flashCue(notice.seat, rebuyCue(notice.rebuy, view.config.chip_unit));
    } else if (notice.by === "ai") {
      flashAi(notice.seat, true);
    }
  });
  useEffect(() => {
    if (lastNotice) onNotice(lastNotice);
  }, [lastNotice]);
  const actor = view?.hand_in_progress ? view.actor : null;
  useEffect(() => {
    if (actor !== null) clearAi(actor);
  }, [actor, clearAi]);
  const aiSeats = useMemo(() => new Set(aiFlashes.shown.keys()), [aiFlashes.shown]);
  return { aiSeats, seatCues: cueFlashes.shown };
}
