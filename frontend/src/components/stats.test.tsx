import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getTableStats, type LeaderboardPage, type PlayerStatsPage, type ResultPoint, type ResultsPage } from "../api/stats";
import { handsLabel, pct, pctLabel, ratio, signed } from "../lib/statsFormat";
import { ProfilePage } from "../pages/ProfilePage";
import { renderWithApp, stubFetch } from "../test/render";
import { Leaderboard } from "./Leaderboard";
import { chartRows } from "./ResultsChart";
import { SeatHud } from "./SeatHud";

const FIGURES = {
  vpip: 0.25,
  pfr: 0.18,
  three_bet: 0.07,
  fold_to_three_bet: 0.5,
  aggression_factor: 2.5,
  aggression_frequency: 0.41,
  cbet: 0.66,
  fold_to_cbet: null,
  wtsd: 0.3,
  wsd: 0.55,
  bb_per_100: 4.25,
  allin_ev_bb_per_100: 3.1,
};

const STATS: PlayerStatsPage = {
  player_id: "bot-1",
  name: "Loki",
  is_bot: true,
  total: { game: null, hands: 1234, counts: { won: 5200 }, figures: FIGURES },
  items: [
    {
      game: { variant: "no-limit", small_blind: 50, big_blind: 100, ante: 0, stakes: "50/100" },
      hands: 1000,
      counts: { won: 5000 },
      figures: FIGURES,
    },
    {
      game: { variant: "limit", small_blind: 10, big_blind: 20, ante: 0, stakes: "10/20" },
      hands: 234,
      counts: { won: 200 },
      figures: { ...FIGURES, vpip: 0.31 },
    },
  ],
  total_items: 2,
};

const POINT: ResultPoint = {
  hands: 100,
  first_at: "2026-01-01T00:00:00Z",
  last_at: "2026-01-01T01:00:00Z",
  won: 400,
  won_showdown: 600,
  won_no_showdown: -200,
  allin_ev: 350,
  won_bb: 4,
  won_showdown_bb: 6,
  won_no_showdown_bb: -2,
  allin_ev_bb: 3.5,
};

afterEach(() => vi.unstubAllGlobals());

describe("statistics formatting", () => {
  it("reads shares as percents, ratios to a decimal, and a dash for no chance yet", () => {
    expect(pct(0.254)).toBe("25");
    expect(pct(null)).toBe("–");
    expect(pctLabel(0.5)).toBe("50%");
    expect(pctLabel(null)).toBe("–");
    expect(ratio(2.46)).toBe("2.5");
    expect(signed(4.25)).toBe("+4.3");
    expect(signed(-1)).toBe("-1.0");
    expect(handsLabel(1)).toBe("1 hand");
    expect(handsLabel(16525)).toBe("16,525 hands");
  });
});

describe("the seat's HUD", () => {
  it("shows VPIP/PFR/AF and hands, and the fuller popover on tap", async () => {
    const api = stubFetch({ "GET /api/players/bot-1/stats": () => ({ json: STATS }) });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<SeatHud playerId="bot-1" name="Loki" />);
    const hud = await screen.findByTestId("hud-bot-1");
    const line = within(hud).getByRole("button");
    expect(line).toHaveTextContent("25/18/2.5 (1,234)");
    expect(line).toHaveAttribute("aria-expanded", "false");
    fireEvent.click(line);
    expect(line).toHaveAttribute("aria-expanded", "true");
    const popover = screen.getByTestId("hud-popover-bot-1");
    expect(popover).toHaveTextContent("Loki · 1,234 hands");
    expect(popover).toHaveTextContent("W$SD55%");
    expect(popover).toHaveTextContent("Fold to c-bet–W");
    expect(within(popover).getByRole("link")).toHaveAttribute("href", "#/players/bot-1");
  });
});

describe("the profile", () => {
  it("lists the statistics per game with a total, and asks the graph with the filters", async () => {
    const results: ResultsPage = { player_id: "bot-1", hands_per_point: 100, items: [POINT], total: 1 };
    const api = stubFetch({
      "GET /api/players/bot-1/stats": () => ({ json: STATS }),
      "GET /api/players/bot-1/results": () => ({ json: results }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<ProfilePage playerId="bot-1" />);
    const table = await screen.findByTestId("stats-table");
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(4)); // head, 2 games, all
    expect(within(table).getByText("No-Limit 50/100")).toBeInTheDocument();
    expect(within(table).getByText("Fixed-Limit 10/20")).toBeInTheDocument();
    expect(await screen.findByTestId("results-chart")).toBeInTheDocument();
    expect(screen.getByText(/A point every 100 hands of a game/)).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("profile-variant"), { target: { value: "limit" } });
    await waitFor(() =>
      expect(api.calls.some((c) => c.path.startsWith("/api/players/bot-1/results?variant=limit"))).toBe(true),
    );
    fireEvent.change(screen.getByTestId("profile-stakes"), { target: { value: "20" } });
    await waitFor(() => expect(api.calls.some((c) => c.path.includes("variant=limit&big_blind=20"))).toBe(true));
  });

  it("draws the graph in chips or big blinds from zero", () => {
    expect(chartRows([POINT], "chips")).toEqual([
      { hands: 0, won: 0, showdown: 0, nonShowdown: 0, allinEv: 0 },
      { hands: 100, won: 400, showdown: 600, nonShowdown: -200, allinEv: 350 },
    ]);
    expect(chartRows([POINT], "bb")[1]).toEqual({ hands: 100, won: 4, showdown: 6, nonShowdown: -2, allinEv: 3.5 });
  });
});

describe("the lobby's table figures", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("walks the pages of GET /api/table-stats until it has every table's", async () => {
    const row = (id: string) => ({ table_id: id, hands: 3, average_pot: 10, hands_per_hour: null, players_per_flop: null });
    const asked: string[] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL) => {
      const url = new URL(String(input), "http://x");
      asked.push(`${url.pathname}${url.search}`);
      const offset = Number(url.searchParams.get("offset"));
      const items = offset === 0 ? Array.from({ length: 100 }, (_, i) => row(`t${i}`)) : [row("t100")];
      return new Response(JSON.stringify({ items, total: 101, limit: 100, offset }), { status: 200 });
    });
    const figures = await getTableStats();
    expect(figures.map((f) => f.table_id).slice(-2)).toEqual(["t99", "t100"]);
    expect(asked).toEqual(["/api/table-stats?limit=100&offset=0", "/api/table-stats?limit=100&offset=100"]);
  });
});

describe("the leaderboard", () => {
  it("ranks players by bb/100 and switches the game type", async () => {
    const page = (variant: "limit" | "no-limit"): LeaderboardPage => ({
      variant,
      min_hands: 50,
      items: [
        { rank: 1, player_id: "p1", name: variant === "limit" ? "Limit Larry" : "Nora", is_bot: false, hands: 900, bb_per_100: 12.5 },
        { rank: 2, player_id: "bot-2", name: "Poki", is_bot: true, hands: 5000, bb_per_100: -3 },
      ],
      total: 2,
    });
    const api = stubFetch({});
    const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      if (path.startsWith("/api/leaderboard")) {
        await api.fn(input, init);
        return new Response(JSON.stringify(page(path.includes("variant=limit") ? "limit" : "no-limit")), { status: 200 });
      }
      return api.fn(input, init);
    };
    vi.stubGlobal("fetch", fn);
    renderWithApp(<Leaderboard />);
    const rows = await screen.findAllByTestId("leader-row");
    expect(rows[0]).toHaveTextContent("Nora900+12.5");
    expect(rows[1]).toHaveTextContent("Pokibot5,000-3.0");
    expect(within(rows[0]!).getByRole("link")).toHaveAttribute("href", "#/players/p1");
    fireEvent.click(screen.getByTestId("leaders-limit"));
    expect(await screen.findByText("Limit Larry")).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain("/api/leaderboard?variant=limit&min_hands=50&limit=20");
  });
});
