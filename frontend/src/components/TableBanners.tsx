/** The lines above the felt: connection lost, table paused, the tournament, join requests, the latest notice. */
import { useMemo } from "react";
import type { ClientCommand, TableClientSnapshot, TableView } from "../protocol";
import type { NameOf } from "../lib/events";
import type { TableNotice } from "../hooks/useTable";
import { noticeIcon, noticeText } from "./HandLog";
import { Icon } from "./Icon";
import { JoinRequests } from "./JoinRequests";
import { TournamentBanner } from "./TournamentBanner";

/** How long a notice stays in the banner after it came. */
export const NOTICE_BANNER_MS = 5000;

export interface TableBannersProps {
  view: TableView;
  snapshot: TableClientSnapshot;
  isHost: boolean;
  notices: readonly TableNotice[];
  nameOf: NameOf;
  send: (command: ClientCommand) => string | null;
}

export function TableBanners({ view, snapshot, isHost, notices, nameOf, send }: TableBannersProps) {
  const lastNotice = notices[notices.length - 1];
  const latestBanner = useMemo(() => {
    const n = lastNotice;
    if (!n || Date.now() - n.at > NOTICE_BANNER_MS) return null;
    return noticeText(n, nameOf, view.config.chip_unit);
  }, [lastNotice, nameOf, view]);
  return (
    <>
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
    </>
  );
}
