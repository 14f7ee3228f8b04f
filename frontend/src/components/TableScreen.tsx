/** A table page: the live table, your decision bar, advice, hand log, chat, past hands. */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import { getTable } from "../api";
import type { ActionKind, HandSummary, TableDetail } from "../protocol";
import { formatChips } from "../lib/chips";
import { namer, rememberNames, type HandNames } from "../lib/seatNames";
import { Link, useNavigate } from "react-router";
import { paths } from "../routes";
import { HANDS_KEY } from "../hooks/useHands";
import { usePreferences } from "../hooks/usePreferences";
import { useSession } from "../hooks/useSession";
import { useTable } from "../hooks/useTable";
import { useTableSounds } from "../hooks/useTableSounds";
import { useFlashes } from "../hooks/useFlashes";
import { ActionBar, resolvePreAction, type PreAction } from "./ActionBar";
import { AdvicePanel } from "./AdvicePanel";
import { BuyInDialog } from "./BuyInDialog";
import { Chat } from "./Chat";
import { ConnectionBadge } from "./ConnectionBadge";
import { HandList, HandReplay } from "./HandHistory";
import { HandLog, noticeIcon, noticeText } from "./HandLog";
import { HostPanel } from "./HostPanel";
import { TournamentBanner } from "./TournamentBanner";
import { JoinRequests } from "./JoinRequests";
import { LedgerPanel } from "./LedgerPanel";
import { Icon } from "./Icon";
import { PokerTable } from "./PokerTable";
import { ShowCardsBar } from "./ShowCardsBar";
import { HomeGameBar } from "./HomeGameBar";
import { Toasts } from "./Toasts";

type Tab = "advice" | "log" | "chat" | "hands" | "host" | "ledger";

/** Room the advice needs in view under the panel's top (tabs, the recommendation, the
 * first values); less than this on screen and asking scrolls the panel up. */
const ADVICE_ROOM_PX = 240;

export interface TableScreenProps {
  tableId: string;
  watch: boolean;
  join: boolean;
  /** a private table's invite token, from its link */
  invite?: string | null;
}

export function TableScreen({ tableId, watch, join, invite = null }: TableScreenProps) {
  const { session, renew, accessToken } = useSession();
  const navigate = useNavigate();
  const playerId = session?.player_id ?? null;
  // Stable while the player is: a refreshed token does not reconnect the table.
  const tokenSource = useMemo(() => (playerId ? () => accessToken() : null), [playerId, accessToken]);
  const onAuthFailure = useCallback(async () => {
    const next = await renew();
    return next !== null && next.player_id === playerId;
  }, [renew, playerId]);
  const table = useTable(tableId, tokenSource, { onAuthFailure, invite });
  const { view, snapshot, send } = table;
  // A seat asked for at a table where the host approves seats (#34): shown until answered.
  const myRequest = snapshot.host?.seat_requests.find((r) => r.player_id === playerId) ?? null;
  const [detail, setDetail] = useState<TableDetail | null>(null);
  const [tab, setTab] = useState<Tab>("log");
  const [buyInSeat, setBuyInSeat] = useState<number | null>(null);
  const [rebuyOpen, setRebuyOpen] = useState(false);
  const [preAction, setPreAction] = useState<PreAction>(null);
  const [pending, setPending] = useState(false);
  const [replayHand, setReplayHand] = useState<HandSummary | null>(null);
  const [sitOutRequested, setSitOutRequested] = useState(false);
  const [unreadChat, setUnreadChat] = useState(0);
  const prefs = usePreferences();
  useTableSounds(view, snapshot.clock, snapshot.clockOffset, prefs.sound);
  const queries = useQueryClient();
  const { statsCounted } = table;
  useEffect(() => {
    // The server counted the table's latest hands: those players' HUD figures changed.
    // (Not at a hand's end: the server counts the hand after showing its end.)
    if (statsCounted === null) return;
    const changed = new Set(statsCounted.player_ids);
    void queries.invalidateQueries({
      predicate: (query) => query.queryKey[0] === "player-stats" && changed.has(String(query.queryKey[1])),
    });
  }, [statsCounted, queries]);

  useEffect(() => {
    let cancelled = false;
    getTable(tableId, session?.token ?? null, invite)
      .then((d) => !cancelled && setDetail(d))
      .catch(() => {
        /* the socket reports a missing table */
      });
    return () => {
      cancelled = true;
    };
  }, [tableId, session?.token, invite]);

  const me = view && view.viewer_seat !== null ? (view.seats.find((s) => s.seat === view.viewer_seat) ?? null) : null;
  const seated = me !== null;
  const tableFull = !!view && view.seats.length >= view.config.seats;
  const canSit = !watch && !seated && snapshot.status === "open" && !snapshot.tournament; // a tournament seats its players
  const adviceAllowed = detail?.advice_allowed ?? true;
  const myTurn = !!view && view.legal_actions !== null && view.actor === view.viewer_seat && view.hand_in_progress;

  // Join: offer the first empty seat once the view is here.
  const offered = useRef(false);
  useEffect(() => {
    if (!join || watch || offered.current || !view || seated || snapshot.status !== "open") return;
    offered.current = true;
    const taken = new Set(view.seats.map((s) => s.seat));
    const empty = Array.from({ length: view.config.seats }, (_, i) => i + 1).find((n) => !taken.has(n));
    if (empty !== undefined) setBuyInSeat(empty);
  }, [join, watch, view, seated, snapshot.status]);

  // A new state ends the wait for our decision's answer.
  useEffect(() => {
    setPending(false);
  }, [snapshot.seq]);
  useEffect(() => {
    if (!pending) return;
    const id = setTimeout(() => setPending(false), 4000);
    return () => clearTimeout(id);
  }, [pending]);
  useEffect(() => {
    if (table.toasts.length) setPending(false);
  }, [table.toasts.length]);

  // Pre-actions reset with each hand, and fire when our turn comes.
  const handNo = view?.hand_no ?? 0;
  useEffect(() => setPreAction(null), [handNo]);
  useEffect(() => {
    if (!view || !myTurn || !preAction || !view.legal_actions) return;
    const resolved = resolvePreAction(preAction, view.legal_actions);
    setPreAction(null);
    if (resolved) {
      setPending(true);
      send({ type: "act", action: resolved.kind, hand_no: view.hand_no });
    }
  }, [myTurn, preAction, view, send]);

  // A hand that ends is a new hand in every hand list; the sit-out request clears when it applies.
  const handLive = view?.hand_in_progress ?? false;
  useEffect(() => {
    if (!handLive) void queries.invalidateQueries({ queryKey: HANDS_KEY });
  }, [handLive, handNo, queries]);
  useEffect(() => {
    if (me?.state === "sitting_out" || !me) setSitOutRequested(false);
  }, [me?.state, me]);

  // The advice tab opens itself when advice arrives.
  const sidePanel = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (table.advice || table.adviceLoading) setTab("advice");
  }, [table.advice, table.adviceLoading]);
  useEffect(() => {
    // On a phone the panel sits below the table: bring it up, or the tap seems to do
    // nothing. Only its tab row peeking in above the fold (or under the docked decision
    // bar) is not enough: the answer is under the tabs.
    const panel = sidePanel.current;
    const asked = table.adviceLoading || (table.advice !== null && !table.advice.applied);
    if (asked && panel && panel.getBoundingClientRect().top > window.innerHeight - ADVICE_ROOM_PX) {
      panel.scrollIntoView?.({ behavior: "smooth", block: "start" });
    }
  }, [table.adviceLoading, table.advice]);
  // A new chat line counts as unread unless the chat tab is open; switching tabs is not
  // a new line, so the tab is read when a line comes (an effect event), not watched.
  const onChatLine = useEffectEvent(() => {
    // Lines sent again on joining (the table's last 50) are not news.
    const last = table.chat[table.chat.length - 1];
    if (tab !== "chat" && last && !last.history) setUnreadChat((n) => n + 1);
  });
  useEffect(() => {
    onChatLine();
  }, [table.chat.length]);

  // The standing "show when uncalled" choice, told to the table on every (re)connection.
  const welcome = snapshot.welcome;
  const isHost = welcome !== null && snapshot.host?.host_id === welcome.player_id;
  // The link's token: from this page's URL, else from the table's detail (the host's only).
  const hostInvite = invite ?? detail?.invite ?? null;
  const showUncalled = prefs.showUncalled;
  useEffect(() => {
    if (welcome && showUncalled) send({ type: "show_uncalled", enabled: true });
  }, [welcome, showUncalled, send]);
  const setShowUncalled = useCallback(
    (on: boolean) => {
      prefs.set({ showUncalled: on });
      if (!on) send({ type: "show_uncalled", enabled: false });
    },
    [prefs, send],
  );
  useEffect(() => {
    if (tab === "chat") setUnreadChat(0);
  }, [tab]);

  // Seats the AI just decided for (everyone sees it), flashed for a few seconds, and
  // not while that seat decides again (by then its player may be deciding alone).
  const aiFlashes = useFlashes<number, true>(4000);
  const lastNotice = table.notices[table.notices.length - 1];
  // A rebuy or top-up: "+1,000" flashes at the seat, so the new stack is explained.
  const cueFlashes = useFlashes<number, string>(3000);
  const { flash: flashCue } = cueFlashes;
  const { flash: flashAi, clear: clearAi } = aiFlashes;
  // Each notice flashes once, when it arrives: the view it reads for the chip unit changes
  // with every action and must not flash the same notice again (an effect event).
  const onNotice = useEffectEvent((notice: NonNullable<typeof lastNotice>) => {
    if (notice.seat === null || !view) return;
    if (notice.by === "rebuy" && notice.rebuy) {
      flashCue(notice.seat, `+${formatChips(notice.rebuy.amount, view.config.chip_unit)} ${notice.rebuy.topUp ? "top-up" : "rebuy"}`);
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
  const seatCues = cueFlashes.shown;

  const onAct = useCallback(
    (kind: ActionKind, amount?: number) => {
      if (!view) return;
      setPending(true);
      const ref = send({ type: "act", action: kind, ...(amount !== undefined ? { amount } : {}), hand_no: view.hand_no });
      if (ref === null) setPending(false);
    },
    [send, view],
  );

  // Who sat where in this hand, kept when they stand up (or their log says "Seat 2 calls").
  const handNames = useRef<HandNames | null>(null);
  handNames.current = view ? rememberNames(handNames.current, view) : handNames.current;
  const nameOf = useMemo(() => (view ? namer(view, handNames.current) : () => ""), [view]);
  // The chips you left with, said until you sit again.
  const leftWith = useMemo(() => {
    const mine = [...table.notices].reverse().find((n) => n.by === "left" && n.left?.playerId === playerId);
    return mine?.left ? mine.left.stack : null;
  }, [table.notices, playerId]);
  const latestBanner = useMemo(() => {
    const n = lastNotice;
    if (!n || Date.now() - n.at > 5000 || !view) return null;
    return noticeText(n, nameOf, view.config.chip_unit);
  }, [lastNotice, nameOf, view]);

  const title = detail?.name ?? `Table ${tableId}`;

  if (!view) {
    return (
      <div className="table-screen table-screen--loading" data-testid="table-screen">
        <div className="table-screen__top">
          <Link to={paths.lobby()} className="btn btn--ghost btn--small">
            ← Lobby
          </Link>
          <h2>{title}</h2>
          <ConnectionBadge snapshot={snapshot} onRetry={() => table.client.reconnectNow(true)} />
        </div>
        <div className="loading-felt">
          {snapshot.fatal ? (
            <div className="loading-felt__msg" role="alert" data-testid="table-fatal">
              <p>{snapshot.fatal.message}</p>
              <Link to={paths.lobby()} className="btn btn--primary">
                Back to the lobby
              </Link>
            </div>
          ) : (
            <div className="loading-felt__msg">
              <span className="spinner" aria-hidden="true" /> Taking you to the table…
            </div>
          )}
        </div>
        <Toasts toasts={table.toasts} onDismiss={table.dismiss} />
      </div>
    );
  }

  const unit = view.config.chip_unit;
  const handActive = !!me && view.hand_in_progress && me.has_cards;
  const rebuyMax = me ? view.config.max_buy_in - me.stack : 0;
  const rebuyMin = me ? (me.stack === 0 ? view.config.min_buy_in : 1) : 0;

  return (
    <div
      className={`table-screen${myTurn ? " table-screen--my-turn" : ""}${snapshot.status !== "open" ? " table-screen--offline" : ""}`}
      data-testid="table-screen"
      data-seated={seated ? "true" : "false"}
    >
      <div className="table-screen__top">
        <Link to={paths.lobby()} className="btn btn--ghost btn--small" data-testid="back-to-lobby">
          ← Lobby
        </Link>
        <div className="table-screen__title">
          <h2>{title}</h2>
          <span className="muted small">
            {view.config.variant === "limit" ? "Fixed-Limit" : "No-Limit"} · {formatChips(view.config.small_blind, unit)}/{formatChips(view.config.big_blind, unit)}
            {view.config.ante ? ` · ante ${formatChips(view.config.ante, unit)}` : ""}
            {!seated ? " · watching" : ""}
          </span>
        </div>
      <div className="seat-controls" data-testid="seat-controls">
        {!seated && watch && (
          <button
            type="button"
            className="btn btn--primary btn--small"
            onClick={() => navigate(paths.table(tableId, "join"))}
            disabled={tableFull}
            title={tableFull ? "Every seat is taken" : undefined}
            data-testid="take-seat"
          >
            {tableFull ? "Table full" : "Take a seat"}
          </button>
        )}
        {!seated && leftWith !== null && (
          <span className="muted small" data-testid="left-with">
            You left with <strong>{formatChips(leftWith, view.config.chip_unit)}</strong>
          </span>
        )}
        {!seated && !watch && !myRequest && (
          <span className="muted small" data-testid="seat-hint">
            {tableFull ? "The table is full: watch, or pick another table in the lobby." : "Click an empty seat to sit down."}
          </span>
        )}
        {!seated && myRequest && (
          <span className="tag" role="status" data-testid="seat-request-pending">
            Seat {myRequest.seat} asked for: waiting for the host to approve
          </span>
        )}
        {me && (
          <>
            <span className="seat-controls__me">
              Seat {me.seat} · <strong>{formatChips(me.stack, unit)}</strong>
            </span>
            {me.state === "sitting_out" ? (
              me.stack >= view.config.big_blind && (
                <button type="button" className="btn btn--small btn--primary" onClick={() => send({ type: "sit_back" })} data-testid="sit-back">
                  I'm back
                </button>
              )
            ) : me.waiting_for_big_blind ? (
              <span className="tag" data-testid="waiting-bb">
                Waiting for the big blind
              </span>
            ) : (
              <button
                type="button"
                className="btn btn--small btn--ghost"
                disabled={sitOutRequested}
                onClick={() => {
                  if (send({ type: "sit_out" }) !== null) setSitOutRequested(true);
                }}
                data-testid="sit-out"
              >
                {sitOutRequested ? "Sitting out next hand" : "Sit out"}
              </button>
            )}
            {/* A tournament seats its players: no chips added, no standing up (#35). */}
            {!snapshot.tournament && (
              <>
            <button
              type="button"
              className={`btn btn--small ${me.stack < view.config.big_blind ? "btn--primary" : "btn--ghost"}`}
              disabled={handActive || rebuyMax <= 0}
              onClick={() => setRebuyOpen(true)}
              title={handActive ? "Between hands" : rebuyMax <= 0 ? "You have the maximum buy-in" : "Add chips"}
              data-testid="rebuy"
            >
              {me.stack === 0 ? "Rebuy" : "Top up"}
            </button>
            <button
              type="button"
              className="btn btn--small btn--danger"
              onClick={() => {
                if (!handActive || window.confirm("Leave the table? Your hand will be folded when your turn comes.")) send({ type: "stand" });
              }}
              data-testid="stand-up"
            >
              Stand up
            </button>
              </>
            )}
          </>
        )}
      </div>
        <ConnectionBadge snapshot={snapshot} onRetry={() => table.client.reconnectNow(true)} />
      </div>

      <div className="table-screen__body">
        <div className="table-screen__main">
          {snapshot.status !== "open" && (
            <div className="offline-banner" role="status" data-testid="offline-banner">
              {snapshot.status === "closed"
                ? (snapshot.fatal?.message ?? "Disconnected.")
                : "Connection lost: reconnecting… the table will catch up as soon as it is back."}
            </div>
          )}
          {snapshot.status === "open" && snapshot.paused && (
            <div className="offline-banner" role="status" data-testid="paused-banner">
              Table paused: {snapshot.paused.message}
            </div>
          )}
          {snapshot.tournament && <TournamentBanner tournament={snapshot.tournament} />}
          {isHost && snapshot.host && <JoinRequests host={snapshot.host} unit={view.config.chip_unit} send={send} />}
          {latestBanner && (
            <div className="banner" data-testid="ai-banner" key={lastNotice?.id}>
              {lastNotice && <Icon name={noticeIcon(lastNotice)} size={15} />} {latestBanner}
            </div>
          )}
          <PokerTable
            view={view}
            clock={snapshot.clock}
            clockOffset={snapshot.clockOffset}
            canSit={canSit}
            onSit={(seat) => setBuyInSeat(seat)}
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
              onAct={onAct}
              onAiDecide={table.letAiDecide}
              onAdvice={table.requestAdvice}
              adviceAllowed={adviceAllowed}
              aiBusy={table.adviceLoading}
              pending={pending}
              preAction={preAction}
              onPreAction={setPreAction}
            />
          </div>
        </div>

        <aside className="side-panel" data-testid="side-panel" ref={sidePanel}>
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
            {tab === "chat" && <Chat messages={table.chat} onSend={(text) => send({ type: "chat", text })} canSend={snapshot.status === "open"} myId={session?.player_id ?? null} />}
            {tab === "hands" && <HandList tableId={tableId} onOpen={setReplayHand} />}
            {tab === "ledger" && (
              <LedgerPanel
                tableId={tableId}
                token={session?.token ?? null}
                unit={view.config.chip_unit}
                refreshKey={`${view.hand_no}:${view.hand_in_progress}:${view.seats.map((s) => `${s.player_id}=${s.stack}`).join(",")}`}
              />
            )}
            {tab === "host" && isHost && snapshot.host && <HostPanel host={snapshot.host} view={view} send={send} inviteLink={hostInvite ? inviteLink(tableId, hostInvite) : null} />}
          </div>
        </aside>
      </div>

      {buyInSeat !== null && (
        <BuyInDialog
          title={`Sit at seat ${buyInSeat}`}
          config={view.config}
          min={view.config.min_buy_in}
          max={view.config.max_buy_in}
          initial={view.config.max_buy_in}
          confirmLabel="Sit down"
          onCancel={() => setBuyInSeat(null)}
          onConfirm={(amount) => {
            send({ type: "sit", seat: buyInSeat, buy_in: amount });
            setBuyInSeat(null);
          }}
        />
      )}
      {rebuyOpen && me && (
        <BuyInDialog
          title={me.stack === 0 ? "Rebuy" : "Top up"}
          config={view.config}
          min={Math.min(rebuyMin, rebuyMax)}
          max={rebuyMax}
          initial={rebuyMax}
          confirmLabel="Add chips"
          testId="rebuy-dialog"
          onCancel={() => setRebuyOpen(false)}
          onConfirm={(amount) => {
            // Busted players sit out until they rebuy: a rebuy also brings them back.
            const comeBack = me.state === "sitting_out" && me.stack < view.config.big_blind;
            if (send({ type: "rebuy", amount }) !== null && comeBack) send({ type: "sit_back" });
            setRebuyOpen(false);
          }}
        />
      )}
      {replayHand && (
        <div className="modal-backdrop" onClick={() => setReplayHand(null)}>
          <div className="modal modal--wide" onClick={(e) => e.stopPropagation()} role="dialog" aria-label={`Hand #${replayHand.hand_no}`}>
            <div className="modal__head">
              <h3>Hand #{replayHand.hand_no}</h3>
              <button type="button" className="btn btn--ghost btn--small" onClick={() => setReplayHand(null)} data-testid="close-replay">
                Close
              </button>
            </div>
            <HandReplay handId={replayHand.hand_id} />
          </div>
        </div>
      )}
      <Toasts toasts={table.toasts} onDismiss={table.dismiss} />
    </div>
  );
}

/** The link a private table's host sends to friends (the app routes after the '#'). */
function inviteLink(tableId: string, invite: string): string {
  return `${window.location.origin}${window.location.pathname}#${paths.table(tableId, null, invite)}`;
}
