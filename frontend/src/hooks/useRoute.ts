/**
 * Hash routes, so any page survives a reload whatever serves index.html:
 *   #/                 lobby
 *   #/tables/ID        a table (add ?watch=1 to spectate, ?join=1 to pick a seat)
 *   #/hands            your past hands
 *   #/hands/ID         one hand in the replayer
 *   #/players/ID       a player's profile: statistics and results graph
 * The location comes from react-router's HashRouter (mounted by the app's root).
 */
import { useLocation } from "react-router";

export type Route =
  | { page: "lobby" }
  | { page: "table"; tableId: string; watch: boolean; join: boolean }
  | { page: "hands"; tableId: string | null }
  | { page: "hand"; handId: string }
  | { page: "player"; playerId: string };

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, "") || "/";
  const [path = "/", query = ""] = raw.split("?");
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "tables" && parts[1]) {
    return { page: "table", tableId: parts[1], watch: params.get("watch") === "1", join: params.get("join") === "1" };
  }
  if (parts[0] === "hands" && parts[1]) return { page: "hand", handId: parts[1] };
  if (parts[0] === "players" && parts[1]) return { page: "player", playerId: parts[1] };
  if (parts[0] === "hands") return { page: "hands", tableId: params.get("table") };
  return { page: "lobby" };
}

export function hrefFor(route: Route): string {
  switch (route.page) {
    case "lobby":
      return "#/";
    case "table": {
      const q = route.watch ? "?watch=1" : route.join ? "?join=1" : "";
      return `#/tables/${encodeURIComponent(route.tableId)}${q}`;
    }
    case "hands":
      return route.tableId ? `#/hands?table=${encodeURIComponent(route.tableId)}` : "#/hands";
    case "hand":
      return `#/hands/${encodeURIComponent(route.handId)}`;
    case "player":
      return `#/players/${encodeURIComponent(route.playerId)}`;
  }
}

export function navigate(route: Route, replace = false): void {
  const href = hrefFor(route);
  if (replace) window.history.replaceState(null, "", href);
  else window.history.pushState(null, "", href);
  // The router listens for popstate; pushState and replaceState fire none themselves.
  window.dispatchEvent(new PopStateEvent("popstate"));
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

export function useRoute(): Route {
  const location = useLocation();
  return parseRoute(`#${location.pathname}${location.search}`);
}
