/** A table page: the live table, your decision bar, advice, hand log, chat, past hands. */
import { useState } from "react";
import type { HandSummary } from "../protocol";
import { useDecision } from "../hooks/useDecision";
import { useNoticeFlashes } from "../hooks/useNoticeFlashes";
import { usePreferences } from "../hooks/usePreferences";
import { useSeatFlow } from "../hooks/useSeatFlow";
import { useSeatNames } from "../hooks/useSeatNames";
import { useSession } from "../hooks/useSession";
import { useShowUncalled } from "../hooks/useShowUncalled";
import { useSidePanel } from "../hooks/useSidePanel";
import { useTableConnection } from "../hooks/useTableConnection";
import { useTableDetail } from "../hooks/useTableDetail";
import { useTableQueryRefresh } from "../hooks/useTableQueryRefresh";
import { useTableSounds } from "../hooks/useTableSounds";
import { ActionBar } from "./ActionBar";
import { HomeGameBar } from "./HomeGameBar";
import { PokerTable } from "./PokerTable";
import { ReplayModal } from "./ReplayModal";
import { SeatControls } from "./SeatControls";
import { SeatDialogs } from "./SeatDialogs";
import { ShowCardsBar } from "./ShowCardsBar";
import { SidePanel } from "./SidePanel";
import { TableBanners } from "./TableBanners";
import { TableHeader } from "./TableHeader";
import { TableLoading } from "./TableLoading";
import { Toasts } from "./Toasts";

export interface TableScreenProps {
  tableId: string;
  watch: boolean;
  join: boolean;
  /** a private table's invite token, from its link */
  invite?: string | null;
}

export function TableScreen({ tableId, watch, join, invite = null }: TableScreenProps) {
  const { session } = useSession();
  const playerId = session?.player_id ?? null;
  const token = session?.token ?? null;
  const table = useTableConnection(tableId, invite);
  const { view, snapshot, send } = table;
  const prefs = usePreferences();
  useTableSounds(view, snapshot.clock, snapshot.clockOffset, prefs.sound);
  useTableQueryRefresh(table.statsCounted, view?.hand_in_progress ?? false, view?.hand_no ?? 0);
  const detail = useTableDetail(tableId, token, invite);

  const me = view && view.viewer_seat !== null ? (view.seats.find((s) => s.seat === view.viewer_seat) ?? null) : null;
  const seated = me !== null;
  const flow = useSeatFlow({ view, me, status: snapshot.status, join, watch, send });
  const decision = useDecision(view, snapshot.seq, table.toasts.length, send);
  const panel = useSidePanel(table.advice, table.adviceLoading, table.chat);
  const setShowUncalled = useShowUncalled(snapshot.welcome, send);
  const { aiSeats, seatCues } = useNoticeFlashes(table.notices, view);
  const nameOf = useSeatNames(view);
  const [replayHand, setReplayHand] = useState<HandSummary | null>(null);
  // What the host changed since the detail was read (#34): a new or revoked link, the advice rule.
  const [inviteChanged, setInviteChanged] = useState<{ invite: string | null } | null>(null);
  const [adviceChanged, setAdviceChanged] = useState<boolean | null>(null);

  const title = detail?.name ?? `Table ${tableId}`;
  const retry = () => table.client.reconnectNow(true);
  if (!view) {
    return <TableLoading title={title} snapshot={snapshot} onRetry={retry} toasts={table.toasts} onDismiss={table.dismiss} />;
  }

  const canSit = !watch && !seated && snapshot.status === "open" && !snapshot.tournament; // a tournament seats its players
  const adviceAllowed = adviceChanged ?? detail?.advice_allowed ?? true;
  const isHost = snapshot.welcome !== null && snapshot.host?.host_id === snapshot.welcome.player_id;
  // A seat asked for at a table where the host approves seats (#34): shown until answered.
  const myRequest = snapshot.host?.seat_requests.find((r) => r.player_id === playerId) ?? null;
  // The link's token: from this page's URL, else from the table's detail (the host's only).
  const hostInvite = inviteChanged ? inviteChanged.invite : (invite ?? detail?.invite ?? null);

  return (
    <div
      className={`table-screen${decision.myTurn ? " table-screen--my-turn" : ""}${snapshot.status !== "open" ? " table-screen--offline" : ""}`}
      data-testid="table-screen"
      data-seated={seated ? "true" : "false"}
    >
      <TableHeader title={title} view={view} seated={seated} snapshot={snapshot} onRetry={retry}>
        <SeatControls
          tableId={tableId}
          view={view}
          me={me}
          watch={watch}
          playerId={playerId}
          notices={table.notices}
          myRequest={myRequest}
          tournament={!!snapshot.tournament}
          flow={flow}
          send={send}
        />
      </TableHeader>

      <div className="table-screen__body">
        <div className="table-screen__main">
          <TableBanners view={view} snapshot={snapshot} isHost={isHost} notices={table.notices} nameOf={nameOf} send={send} />
          <PokerTable
            view={view}
            clock={snapshot.clock}
            clockOffset={snapshot.clockOffset}
            canSit={canSit}
            onSit={flow.offerSeat}
            aiSeats={aiSeats}
            seatCues={seatCues}
            tableName={title}
            hud={prefs.hud}
          />

          <div className="action-dock">
            <ShowCardsBar view={view} always={prefs.showUncalled} onShow={() => send({ type: "show" })} onAlways={setShowUncalled} />
            <HomeGameBar view={view} runoutDeadline={snapshot.runoutDeadline} clockOffset={snapshot.clockOffset} send={send} />
            <ActionBar
              view={view}
              onAct={decision.onAct}
              onAiDecide={table.letAiDecide}
              onAdvice={table.requestAdvice}
              adviceAllowed={adviceAllowed}
              aiBusy={table.adviceLoading}
              pending={decision.pending}
              preAction={decision.preAction}
              onPreAction={decision.setPreAction}
            />
          </div>
        </div>

        <SidePanel
          tableId={tableId}
          view={view}
          table={table}
          panel={panel}
          isHost={isHost}
          seated={seated}
          myTurn={decision.myTurn}
          adviceAllowed={adviceAllowed}
          nameOf={nameOf}
          playerId={playerId}
          token={token}
          hostInvite={hostInvite}
          privateTable={detail?.private ?? false}
          onHostInvite={(next) => setInviteChanged({ invite: next })}
          onAdviceChange={setAdviceChanged}
          onOpenHand={setReplayHand}
        />
      </div>

      <SeatDialogs view={view} me={me} flow={flow} />
      {replayHand && <ReplayModal hand={replayHand} onClose={() => setReplayHand(null)} />}
      <Toasts toasts={table.toasts} onDismiss={table.dismiss} />
    </div>
  );
}
