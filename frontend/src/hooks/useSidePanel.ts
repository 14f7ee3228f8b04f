/**
 * The table's side panel: which tab is open (advice opens itself when it arrives, and
 * scrolls into view on a phone) and how many chat lines came while the chat was closed.
 */
import { useEffect, useEffectEvent, useRef, useState, type RefObject } from "react";
import type { AdviceReport, ChatMessage } from "../protocol";

export type Tab = "advice" | "log" | "chat" | "hands" | "host" | "ledger";

/** Room the advice needs in view under the panel's top (tabs, the recommendation, the
 * first values); less than this on screen and asking scrolls the panel up. */
export const ADVICE_ROOM_PX = 240;

export interface SidePanelState {
  tab: Tab;
  setTab: (tab: Tab) => void;
  unreadChat: number;
  panelRef: RefObject<HTMLElement | null>;
}

export function useSidePanel(advice: AdviceReport | null, adviceLoading: boolean, chat: readonly ChatMessage[]): SidePanelState {
  const [tab, setTab] = useState<Tab>("log");
  const [unreadChat, setUnreadChat] = useState(0);
  const panelRef = useRef<HTMLElement | null>(null);

  // The advice tab opens itself when advice arrives.
  useEffect(() => {
    if (advice || adviceLoading) setTab("advice");
  }, [advice, adviceLoading]);
  useEffect(() => {
    // On a phone the panel sits below the table: bring it up, or the tap seems to do
    // nothing. Only its tab row peeking in above the fold (or under the docked decision
    // bar) is not enough: the answer is under the tabs.
    const panel = panelRef.current;
    const asked = adviceLoading || (advice !== null && !advice.applied);
    if (asked && panel && panel.getBoundingClientRect().top > window.innerHeight - ADVICE_ROOM_PX) {
      panel.scrollIntoView?.({ behavior: "smooth", block: "start" });
    }
  }, [adviceLoading, advice]);
  // A new chat line counts as unread unless the chat tab is open; switching tabs is not
  // a new line, so the tab is read when a line comes (an effect event), not watched.
  const onChatLine = useEffectEvent(() => {
    // Lines sent again on joining (the table's last 50) are not news.
    const last = chat[chat.length - 1];
    if (tab !== "chat" && last && !last.history) setUnreadChat((n) => n + 1);
  });
  useEffect(() => {
    onChatLine();
  }, [chat.length]);
  useEffect(() => {
    if (tab === "chat") setUnreadChat(0);
  }, [tab]);
  return { tab, setTab, unreadChat, panelRef };
}
