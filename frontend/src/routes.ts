/**
 * The app's pages as react-router paths. HashRouter keeps them after the '#', so a
 * bookmark survives a reload whatever serves index.html:
 *   #/                    lobby
 *   #/tables/ID           a table (?watch=1 to spectate, ?join=1 to pick a seat;
 *                         ?invite=TOKEN opens a private table: its invite link)
 *   #/hands               your past hands (?table=ID: one table's)
 *   #/hands/ID            one hand in the replayer
 *   #/players/ID          a player's profile: statistics and results graph
 *   #/tournaments         the tournaments tab (registering, running, finished)
 *   #/tournaments/ID      one tournament: structure, prizes, players, tables
 * The route table itself is in App.tsx; these build the `to` of links and navigations.
 */
export const ROUTES = {
  lobby: "/",
  table: "/tables/:tableId",
  hands: "/hands",
  hand: "/hands/:handId",
  player: "/players/:playerId",
  tournaments: "/tournaments",
  tournament: "/tournaments/:tournamentId",
} as const;

const id = encodeURIComponent;

export const paths = {
  lobby: (): string => "/",
  table: (tableId: string, mode: "watch" | "join" | null = null, invite: string | null = null): string =>
    `/tables/${id(tableId)}${mode ? `?${mode}=1` : ""}${invite ? `${mode ? "&" : "?"}invite=${id(invite)}` : ""}`,
  hands: (tableId: string | null = null): string => (tableId ? `/hands?table=${id(tableId)}` : "/hands"),
  hand: (handId: string): string => `/hands/${id(handId)}`,
  player: (playerId: string): string => `/players/${id(playerId)}`,
  tournaments: (): string => "/tournaments",
  tournament: (tournamentId: string): string => `/tournaments/${id(tournamentId)}`,
};
