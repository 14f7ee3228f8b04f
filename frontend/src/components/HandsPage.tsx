/** "My hands": the list of your finished hands (?table=ID: one table's), and the replayer for one. */
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
            <ExportButtons
              label={tableId ? "This table's hands, for other poker software" : "All my hands, for other poker software"}
              testId="hands-export"
              fetchText={(format) => downloadHandsExport(format, token, tableId)}
              filename={(_, many) => `showdown-hands${tableId ? `-${tableId}` : ""}.${many}`}
            />
            <HandList tableId={tableId} onOpen={(h) => navigate(paths.hand(h.hand_id))} />
          </>
        )}
      </div>
    </div>
  );
}
