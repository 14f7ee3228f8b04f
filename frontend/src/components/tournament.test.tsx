import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TournamentDetail, TournamentPlayer } from "../api/tournaments";
import { decode, INITIAL_SNAPSHOT, type TournamentView } from "../protocol";
import { TournamentPage } from "../pages/TournamentPage";
import { TournamentsPage } from "../pages/TournamentsPage";
import { renderWithApp, stubFetch } from "../test/render";
import { clockText, TournamentBanner } from "./TournamentBanner";
import { TournamentRecord } from "./TournamentRecord";

const VIEW: TournamentView = {
  tournament_id: "T1",
  name: "Friday SNG",
  status: "running",
  level: 3,
  small_blind: 25,
  big_blind: 50,
  ante: 50,
  big_blind_ante: true,
  seconds_to_next: 125,
  on_break: false,
  hand_for_hand: true,
  final_table: false,
  players_left: 4,
  entrants: 6,
  paid_places: 3,
  average_stack: 2250,
  eliminations: [{ player_id: "b1", name: "Bot 1", place: 5, prize: 0 }],
  rebuy_open: false,
  add_on_open: false,
};

const DETAIL: TournamentDetail = {
  tournament_id: "T1",
  name: "Friday SNG",
  status: "registering",
  kind: "sng",
  registered: 5,
  max_players: 6,
  buy_in: 100,
  prize_pool: 500,
  structure: "turbo",
  starting_chips: 1500,
  levels: [
    { small_blind: 10, big_blind: 20, ante: 0, big_blind_ante: false },
    { small_blind: 25, big_blind: 50, ante: 50, big_blind_ante: true },
  ],
  levels_by: "time",
  level_seconds: 180,
  level_hands: 6,
  prizes: [250, 150, 100],
  players: [
    {
      player_id: "bot-1",
      name: "Bot 1",
      is_bot: true,
      chips: 0,
      table_id: null,
      place: null,
      prize: 0,
      rebuys: 0,
      add_on: false,
      awaiting_rebuy: false,
      may_rebuy: false,
      may_add_on: false,
    },
  ],
  tables: [],
  clock: null,
  moves: 0,
  hands: 0,
  rebuy_levels: 0,
  rebuy_chips: 1500,
  max_rebuys: 0,
  add_on: 0,
  rebuys: 0,
  add_ons: 0,
  rebuy_open: false,
  add_on_open: false,
};

const ALICE: TournamentPlayer = {
  player_id: "alice",
  name: "Alice",
  is_bot: false,
  chips: 1500,
  table_id: "T1-1",
  place: null,
  prize: 0,
  rebuys: 0,
  add_on: false,
  awaiting_rebuy: false,
  may_rebuy: false,
  may_add_on: false,
};

/** A running rebuy tournament (levels 1-2, add-on 2000) with Alice in it as given. */
function rebuyDetail(alice: Partial<TournamentPlayer>, more: Partial<TournamentDetail> = {}): TournamentDetail {
  return {
    ...DETAIL,
    status: "running",
    registered: 6,
    rebuy_levels: 2,
    add_on: 2000,
    rebuy_open: true,
    players: [{ ...ALICE, ...alice }, ...DETAIL.players],
    ...more,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe("the tournament clock at the table", () => {
  it("reads the state's tournament and shows level, stakes, clock and the latest knock-out", () => {
    const message = decode(
      JSON.stringify({
        type: "state",
        seq: 1,
        at: 1,
        table_id: "t",
        view: { ...minimalView() },
        tournament: VIEW,
      }),
    );
    expect(message.kind).toBe("state");
    const tournament = message.kind === "state" ? message.state.tournament : null;
    expect(tournament?.level).toBe(3);
    expect(INITIAL_SNAPSHOT.tournament).toBeNull();
    render(<TournamentBanner tournament={VIEW} />);
    expect(screen.getByTestId("tournament-level").textContent).toContain("Level 3 · 25/50 ante 50 (BB)");
    expect(screen.getByTestId("tournament-clock").textContent).toContain("next level in 2:05");
    expect(screen.getByTestId("hand-for-hand")).toBeTruthy();
    expect(screen.getByTestId("elimination-notice").textContent).toBe("Bot 1 is out in place 5");
  });

  it("says when rebuys and the add-on are open", () => {
    const { rerender } = render(<TournamentBanner tournament={VIEW} />);
    expect(screen.queryByTestId("rebuys-open")).toBeNull();
    rerender(<TournamentBanner tournament={{ ...VIEW, rebuy_open: true }} />);
    expect(screen.getByTestId("rebuys-open").textContent).toContain("rebuys open");
    rerender(<TournamentBanner tournament={{ ...VIEW, rebuy_open: true, add_on_open: true }} />);
    expect(screen.getByTestId("rebuys-open").textContent).toContain("rebuys and add-on open");
  });

  it("formats the time to the next level", () => {
    expect([clockText(0), clockText(59.6), clockText(600), clockText(null)]).toEqual(["0:00", "1:00", "10:00", "—"]);
  });
});

describe("the tournament pages", () => {
  it("lists tournaments by state", async () => {
    const api = stubFetch({
      "GET /api/tournaments": () => ({ json: [{ ...DETAIL }] }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<TournamentsPage />);
    const row = await screen.findByTestId("tournament-row");
    expect(row.textContent).toContain("Friday SNG");
    expect(row.textContent).toContain("5/6");
    expect(api.calls[0]?.path).toBe("/api/tournaments?status=registering");
    fireEvent.click(screen.getByTestId("tournaments-finished"));
    await waitFor(() => expect(api.calls.some((c) => c.path === "/api/tournaments?status=finished")).toBe(true));
  });

  it("registers, and shows the structure, the prizes and the standings", async () => {
    const api = stubFetch({
      "GET /api/tournaments/T1": () => ({ json: DETAIL }),
      "POST /api/tournaments/T1/register": () => ({
        json: {
          ...DETAIL,
          registered: 6,
          players: [
            ...DETAIL.players,
            ALICE,
          ],
        },
      }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<TournamentPage tournamentId="T1" />);
    fireEvent.click(await screen.findByTestId("register"));
    await waitFor(() => expect(within(screen.getByTestId("standings")).getAllByTestId("standing-row")).toHaveLength(2));
    expect(
      within(screen.getByTestId("prizes"))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["250", "150", "100"]);
    expect(screen.getByTestId("structure").textContent).toContain("25/50");
    expect(screen.getByTestId("start-now")).toBeTruthy(); // registered: start now, or unregister
    expect(screen.queryByTestId("rebuy-period")).toBeNull(); // a freezeout
    expect(screen.queryByTestId("rebuy")).toBeNull();
  });
});

describe("rebuys and the add-on on the tournament page", () => {
  it("creates a rebuy tournament with an add-on", async () => {
    const api = stubFetch({
      "GET /api/tournaments": () => ({ json: [] }),
      "POST /api/tournaments": () => ({ status: 201, json: { ...DETAIL, rebuy_levels: 2, add_on: 1500 } }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<TournamentsPage />);
    fireEvent.click(await screen.findByTestId("open-create-tournament"));
    expect(screen.queryByTestId("tournament-add-on")).toBeNull(); // no period yet
    fireEvent.change(screen.getByTestId("tournament-rebuy-levels"), { target: { value: "2" } });
    fireEvent.change(screen.getByTestId("tournament-add-on"), { target: { value: "1500" } });
    fireEvent.click(screen.getByTestId("create-tournament-submit"));
    await waitFor(() => expect(api.calls.some((c) => c.method === "POST")).toBe(true));
    const post = api.calls.find((c) => c.method === "POST");
    expect(post?.body).toMatchObject({ rebuy_levels: 2, add_on: 1500 });
  });

  it("shows the rebuy period and a Rebuy button while the player may rebuy", async () => {
    const api = stubFetch({
      "GET /api/tournaments/T1": () => ({ json: rebuyDetail({ chips: 900, may_rebuy: true }) }),
      "POST /api/tournaments/T1/rebuy": () => ({
        json: rebuyDetail({ chips: 2400, rebuys: 1 }, { rebuys: 1, prize_pool: 600 }),
      }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<TournamentPage tournamentId="T1" />);
    const period = await screen.findByTestId("rebuy-period");
    expect(period.textContent).toContain("Rebuys in levels 1–2: 1500 chips for 100");
    expect(period.textContent).toContain("add-on 2000 chips in level 2");
    expect(period.textContent).toContain("rebuys open");
    expect(screen.queryByTestId("add-on")).toBeNull();
    fireEvent.click(screen.getByTestId("rebuy"));
    await waitFor(() => expect(screen.queryByTestId("rebuy")).toBeNull()); // 2400: above the start
    expect(api.calls.some((c) => c.method === "POST" && c.path === "/api/tournaments/T1/rebuy")).toBe(true);
    expect(screen.getByTestId("rebuy-period").textContent).toContain("1 rebuys, 0 add-ons");
    expect(within(screen.getByTestId("standings")).getAllByTestId("standing-row")[0]?.textContent).toContain("2400 1R");
  });

  it("offers the add-on once it opens, and shows the server's refusal", async () => {
    const api = stubFetch({
      "GET /api/tournaments/T1": () => ({ json: rebuyDetail({ may_add_on: true }, { add_on_open: true }) }),
      "POST /api/tournaments/T1/add-on": () => ({ status: 409, json: { detail: "the add-on is over (it ends with the rebuy period)" } }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<TournamentPage tournamentId="T1" />);
    fireEvent.click(await screen.findByTestId("add-on"));
    expect((await screen.findByRole("alert")).textContent).toContain("the add-on is over");
    expect(screen.getByTestId("rebuy-period").textContent).toContain("add-on open");
  });

  it("tells a busted player to rebuy and offers it", async () => {
    const api = stubFetch({
      "GET /api/tournaments/T1": () => ({ json: rebuyDetail({ chips: 0, table_id: null, awaiting_rebuy: true, may_rebuy: true }) }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<TournamentPage tournamentId="T1" />);
    expect((await screen.findByTestId("awaiting-rebuy")).textContent).toContain("rebuy before the rebuy period ends");
    expect(screen.getByTestId("rebuy")).toBeTruthy();
    expect(screen.queryByTestId("my-table")).toBeNull();
  });
});

describe("a player's tournaments on the profile", () => {
  it("shows played, cashes, wins and ROI", async () => {
    const record = {
      player_id: "alice",
      played: 2,
      cashes: 1,
      wins: 1,
      buy_ins: 200,
      prizes: 300,
      roi: 0.5,
      results: [{ tournament_id: "T1", name: "Friday SNG", place: 1, prize: 300, buy_in: 100, entrants: 6 }],
    };
    vi.stubGlobal("fetch", stubFetch({ "GET /api/players/alice/tournaments": () => ({ json: record }) }).fn);
    renderWithApp(<TournamentRecord playerId="alice" />);
    expect((await screen.findByTestId("tournament-roi")).textContent).toBe("2 played · 1 in the money · 1 won · buy-ins 200 · prizes 300 · ROI 50%");
  });
});

function minimalView(): Record<string, unknown> {
  return {
    table_id: "t",
    config: { variant: "no-limit", seats: 6, small_blind: 25, big_blind: 50 },
    seats: [],
    hand_no: 0,
    hand_in_progress: false,
    board: [],
    pots: [],
  };
}
