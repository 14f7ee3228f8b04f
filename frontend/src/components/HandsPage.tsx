/** "My hands": the list of your finished hands (?table=ID: one table's), and the replayer for one. */
import { useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { paths } from "../routes";
import { downloadHandsExport } from "../api";
import { useSession } from "../hooks/useSession";
import { ExportButtons } from "./ExportButtons";
import { HandList, HandReplay } from "./HandHistory";

export function HandsPage() {
  const { handId = null } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const tableId = search.get("table");
  const { session } = useSession();
  const token = session?.token ?? null;
  // The export's days (the browser's local days): from the start of `from` to the end of `to`.
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const since = from ? new Date(`${from}T00:00:00`).toISOString() : null;
  const until = to ? dayAfter(to).toISOString() : null;
  const range = from || to ? `-${from || "start"}-to-${to || "now"}` : "";
  return (
    <div className="hands-page" data-testid="hands-page">
      <div className="lobby__head">
        <div>
          <h1>{handId ? "Hand replay" : "My hands"}</h1>
          <p className="muted">{handId ? "Step through the hand, or download it as a PHH file." : "Every hand you played, newest first."}</p>
        </div>
        {handId && (
          <Link to={paths.hands()} className="btn btn--ghost" data-testid="all-hands">
            ← All hands
          </Link>
        )}
      </div>
      <div className="panel">
        {handId ? (
          <HandReplay handId={handId} />
        ) : (
          <>
            <div className="export-range">
              <label>
                From <input type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} data-testid="export-from" />
              </label>{" "}
              <label>
                to <input type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} data-testid="export-to" />
              </label>
            </div>
            <ExportButtons
              label={tableId ? "This table's hands, for other poker software" : from || to ? "These days' hands, for other poker software" : "All my hands, for other poker software"}
              testId="hands-export"
              fetchText={(format) => downloadHandsExport(format, token, tableId, since, until)}
              filename={(_, many) => `showdown-hands${tableId ? `-${tableId}` : ""}${range}.${many}`}
            />
            <HandList tableId={tableId} onOpen={(h) => navigate(paths.hand(h.hand_id))} />
          </>
        )}
      </div>
    </div>
  );
}

/** Local midnight after the day `day` (yyyy-mm-dd): a day is not always 24 hours long. */
function dayAfter(day: string): Date {
  const end = new Date(`${day}T00:00:00`);
  end.setDate(end.getDate() + 1);
  return end;
}
