/** "My hands": the list of your finished hands, and the replayer for one. */
import { useSession } from "../hooks/useSession";
import { navigate } from "../hooks/useRoute";
import { HandList, HandReplay } from "./HandHistory";

export function HandsPage({ handId }: { handId: string | null }) {
  const { session } = useSession();
  return (
    <div className="hands-page" data-testid="hands-page">
      <div className="lobby__head">
        <div>
          <h1>{handId ? "Hand replay" : "My hands"}</h1>
          <p className="muted">{handId ? "Step through the hand, or download it as a PHH file." : "Every hand you played, newest first."}</p>
        </div>
        {handId && (
          <button type="button" className="btn btn--ghost" onClick={() => navigate({ page: "hands", tableId: null })}>
            ← All hands
          </button>
        )}
      </div>
      <div className="panel">
        {handId ? (
          <HandReplay handId={handId} token={session?.token ?? null} playerId={session?.player_id ?? null} />
        ) : (
          <HandList token={session?.token ?? null} onOpen={(h) => navigate({ page: "hand", handId: h.hand_id })} />
        )}
      </div>
    </div>
  );
}
