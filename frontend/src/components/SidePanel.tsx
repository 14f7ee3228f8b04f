/** The table's side panel: advice, hand log, chat, past hands, ledger, and the host's tab. */
import type { HandSummary, TableView } from "../protocol";
import type { NameOf } from "../lib/events";
import type { SidePanelState } from "../hooks/useSidePanel";
import type { TableState } from "../hooks/useTable";
import { AdvicePanel } from "./AdvicePanel";
import { Chat } from "./Chat";
import { HandList } from "./HandHistory";
import { HandLog } from "./HandLog";
import { HostPanel } from "./HostPanel";
import { LedgerPanel } from "./LedgerPanel";

export interface SidePanelProps {
  tableId: string;
  view: TableView;
  table: TableState;
  panel: SidePanelState;
  isHost: boolean;
  seated: boolean;
  myTurn: boolean;
  adviceAllowed: boolean;
  nameOf: NameOf;
  playerId: string | null;
  token: string | null;
  /** the private table's invite token the host shares, if any */
  hostInvite: string | null;
  /** an unlisted table (#34): the host panel offers its invite link */
  privateTable?: boolean;
  /** the host made or revoked the invite link, or set the advice rule (kept by the screen) */
  onHostInvite?: (invite: string | null) => void;
  onAdviceChange?: (allowed: boolean) => void;
  onOpenHand: (hand: HandSummary) => void;
}

export function SidePanel(props: SidePanelProps) {
  const { tableId, view, table, panel, isHost, seated, myTurn, adviceAllowed, nameOf, playerId, token, hostInvite, privateTable = false, onHostInvite, onAdviceChange, onOpenHand } = props;
  const { tab, setTab, unreadChat, panelRef } = panel;
  const { snapshot, send } = table;
  return (
    <aside className="side-panel" data-testid="side-panel" ref={panelRef}>
      <div className="tabs" role="tablist">
        {(
          [
            ["advice", "Advice"],
            ["log", "Hand log"],
            ["chat", unreadChat ? `Chat (${unreadChat})` : "Chat"],
            ["hands", "Past hands"],
            ["ledger", "Ledger"],
            ...(isHost ? ([["host", "Host"]] as const) : []),
          ] as const
        ).map(([key, label]) => (
          <button key={key} type="button" role="tab" aria-selected={tab === key} className={`tab${tab === key ? " is-on" : ""}`} onClick={() => setTab(key)} data-testid={`tab-${key}`}>
            {label}
          </button>
        ))}
      </div>
      <div className="side-panel__body" role="tabpanel">
        {tab === "advice" && (
          <AdvicePanel report={table.advice} loading={table.adviceLoading} view={view} onAsk={adviceAllowed && seated ? table.requestAdvice : undefined} canAsk={myTurn} />
        )}
        {tab === "log" && <HandLog view={view} notices={table.notices} nameOf={nameOf} />}
        {tab === "chat" && <Chat messages={table.chat} onSend={(text) => send({ type: "chat", text })} canSend={snapshot.status === "open"} myId={playerId} />}
        {tab === "hands" && <HandList tableId={tableId} onOpen={onOpenHand} />}
        {tab === "ledger" && (
          <LedgerPanel
            tableId={tableId}
            token={token}
            unit={view.config.chip_unit}
            refreshKey={`${view.hand_no}:${view.hand_in_progress}:${view.seats.map((s) => `${s.player_id}=${s.stack}`).join(",")}`}
          />
        )}
        {tab === "host" && isHost && snapshot.host && (
          <HostPanel
            host={snapshot.host}
            view={view}
            send={send}
            tableId={tableId}
            token={token}
            privateTable={privateTable}
            invite={hostInvite}
            adviceAllowed={adviceAllowed}
            onInvite={onHostInvite}
            onAdvice={onAdviceChange}
          />
        )}
      </div>
    </aside>
  );
}

