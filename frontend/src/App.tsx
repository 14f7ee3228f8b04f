/** The app shell: header, guest sign-in, and the routed page. */
import { hrefFor, useRoute } from "./hooks/useRoute";
import { usePreferences } from "./hooks/usePreferences";
import { unlockSound } from "./lib/sounds";
import { useSession } from "./hooks/useSession";
import { AccountMenu } from "./components/AccountMenu";
import { HandsPage } from "./components/HandsPage";
import { Lobby } from "./components/Lobby";
import { SignIn } from "./components/SignIn";
import { TableScreen } from "./components/TableScreen";
import { ProfilePage } from "./pages/ProfilePage";

export function App() {
  const { session } = useSession();
  const route = useRoute();
  const prefs = usePreferences();
  const atTable = route.page === "table";
  return (
    <div className={`app${atTable ? " app--table" : ""}`}>
      <header className="app-header">
        <a className="brand" href={hrefFor({ page: "lobby" })} aria-label="Showdown lobby">
          <span className="brand__suits" aria-hidden="true">
            ♠<span className="red">♥</span>
          </span>
          <span className="brand__name">Showdown</span>
        </a>
        {session && (
          <nav className="app-nav">
            <a href={hrefFor({ page: "lobby" })} className={route.page === "lobby" ? "is-on" : ""} data-testid="nav-lobby">
              Lobby
            </a>
            <a href={hrefFor({ page: "hands", tableId: null })} className={route.page === "hands" || route.page === "hand" ? "is-on" : ""} data-testid="nav-hands">
              My hands
            </a>
            <a href={hrefFor({ page: "player", playerId: session.player_id })} className={route.page === "player" ? "is-on" : ""} data-testid="nav-profile">
              Profile
            </a>
          </nav>
        )}
        <div className="app-header__right">
          <label className="toggle" title="Four-colour deck: blue diamonds, green clubs">
            <input type="checkbox" checked={prefs.fourColour} onChange={(e) => prefs.set({ fourColour: e.target.checked })} data-testid="four-colour" />
            <span>4-colour</span>
          </label>
          <label className="toggle" title="Statistics under each seat: VPIP / PFR / aggression factor (hands)">
            <input type="checkbox" checked={prefs.hud} onChange={(e) => prefs.set({ hud: e.target.checked })} data-testid="hud-toggle" />
            <span>HUD</span>
          </label>
          <label className="toggle" title="Sounds: your turn, your time bank starting, a pot you win">
            <input
              type="checkbox"
              checked={prefs.sound}
              onChange={(e) => {
                // The click is the gesture browsers ask for before a page may play audio.
                if (e.target.checked) unlockSound();
                prefs.set({ sound: e.target.checked });
              }}
              data-testid="sound-toggle"
            />
            <span>Sound</span>
          </label>
          {session && <AccountMenu />}
        </div>
      </header>
      <main className="app-main">
        {!session ? (
          <SignIn />
        ) : route.page === "table" ? (
          <TableScreen key={route.tableId} tableId={route.tableId} watch={route.watch} join={route.join} />
        ) : route.page === "hands" ? (
          <HandsPage handId={null} />
        ) : route.page === "hand" ? (
          <HandsPage handId={route.handId} />
        ) : route.page === "player" ? (
          <ProfilePage key={route.playerId} playerId={route.playerId} />
        ) : (
          <Lobby />
        )}
      </main>
    </div>
  );
}
