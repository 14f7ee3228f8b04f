/** "My hands": the list of your finished hands (?table=ID: one table's), and the replayer for one. */
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { paths } from "../routes";
import { HandList, HandReplay } from "./HandHistory";

export function HandsPage() {
  const { handId = null } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const tableId = search.get("table");
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
        {handId ? <HandReplay handId={handId} /> : <HandList tableId={tableId} onOpen={(h) => navigate(paths.hand(h.hand_id))} />}
      </div>
    </div>
  );
}
