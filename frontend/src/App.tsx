/** The app shell: header, guest sign-in, and the routed page (react-router, see routes.ts). */
import { Link, Navigate, NavLink, Route, Routes, useMatch, useParams, useSearchParams } from "react-router";
import { usePreferences } from "./hooks/usePreferences";
import { unlockSound } from "./lib/sounds";
import { useSession } from "./hooks/useSession";
import { AccountMenu } from "./components/AccountMenu";
import { HandsPage } from "./components/HandsPage";
import { Lobby } from "./components/Lobby";
import { SignIn } from "./components/SignIn";
import { TableScreen } from "./components/TableScreen";
import { ProfilePage } from "./pages/ProfilePage";
import { TournamentPage } from "./pages/TournamentPage";
import { TournamentsPage } from "./pages/TournamentsPage";
import { paths, ROUTES } from "./routes";

const navClass = ({ isActive }: { isActive: boolean }) => (isActive ? "is-on" : "");

function TableRoute() {
  const { tableId = "" } = useParams();
  const [search] = useSearchParams();
  // A new table is a new screen: its socket, hand log and dialogs start afresh.
  return <TableScreen key={tableId} tableId={tableId} watch={search.get("watch") === "1"} join={search.get("join") === "1"} invite={search.get("invite")} />;
}

function ProfileRoute() {
  const { playerId = "" } = useParams();
  return <ProfilePage key={playerId} playerId={playerId} />;
}

function TournamentRoute() {
  const { tournamentId = "" } = useParams();
  return <TournamentPage key={tournamentId} tournamentId={tournamentId} />;
}

/** The pages; an unknown address goes to the lobby. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path={ROUTES.lobby} element={<Lobby />} />
      <Route path={ROUTES.table} element={<TableRoute />} />
      <Route path={ROUTES.hands} element={<HandsPage />} />
      <Route path={ROUTES.hand} element={<HandsPage />} />
      <Route path={ROUTES.player} element={<ProfileRoute />} />
      <Route path={ROUTES.tournaments} element={<TournamentsPage />} />
      <Route path={ROUTES.tournament} element={<TournamentRoute />} />
      <Route path="*" element={<Navigate to={paths.lobby()} replace />} />
    </Routes>
  );
}

export function App() {
  const { session } = useSession();
  const atTable = useMatch(ROUTES.table) !== null;
  const prefs = usePreferences();
  return (
    <div className={`app${atTable ? " app--table" : ""}`}>
      <header className="app-header">
        <Link className="brand" to={paths.lobby()} aria-label="Showdown lobby">
          <span className="brand__suits" aria-hidden="true">
            ♠<span className="red">♥</span>
          </span>
          <span className="brand__name">Showdown</span>
        </Link>
        {session && (
          <nav className="app-nav">
            <NavLink to={paths.lobby()} end className={navClass} data-testid="nav-lobby">
              Lobby
            </NavLink>
            <NavLink to={paths.tournaments()} className={navClass} data-testid="nav-tournaments">
              Tournaments
            </NavLink>
            <NavLink to={paths.hands()} className={navClass} data-testid="nav-hands">
              My hands
            </NavLink>
            <NavLink to={paths.player(session.player_id)} className={navClass} data-testid="nav-profile">
              Profile
            </NavLink>
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
      <main className="app-main">{session ? <AppRoutes /> : <SignIn />}</main>
    </div>
  );
}
