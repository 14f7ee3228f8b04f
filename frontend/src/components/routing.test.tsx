/** The pages are react-router routes and their data comes through the react-query cache. */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { makeQueryClient } from "../providers";
import { FOLDED_TO_A_BET, tableSummary } from "../test/fixtures";
import { renderWithApp, stubFetch } from "../test/render";
import { Lobby } from "./Lobby";

const TABLE = tableSummary();

const HANDS = {
  items: [{ hand_id: "t1-9", table_id: "t1", table_name: "Friday", hand_no: 9, played_at: "2026-11-23T01:00:00Z", variant: "no-limit", small_blind: 50, big_blind: 100, seat: 1, net: -300, board: ["2c", "7d", "9h"], players: 2, hole_cards: ["Kh", "Kd"], chip_unit: "1" }],
  total: 1,
  limit: 20,
  offset: 0,
};

const RECORD = FOLDED_TO_A_BET;

function api() {
  const stub = stubFetch({
    "GET /api/tables": () => ({ json: [TABLE] }),
    "GET /api/table-stats": () => ({ json: { items: [], total: 0, limit: 100, offset: 0 } }),
    "GET /api/leaderboard": () => ({ json: { variant: "no-limit", min_hands: 100, items: [], total: 0, limit: 20, offset: 0 } }),
    "GET /api/hands": () => ({ json: HANDS }),
    "GET /api/hands/t1-9": () => ({ json: RECORD }),
    "GET /api/hands/t1-9/review": () => ({ status: 404, json: { detail: "no review of this hand yet" } }),
  });
  vi.stubGlobal("fetch", stub.fn);
  const count = (method: string, path: string) => stub.calls.filter((c) => c.method === method && c.path.split("?")[0] === path).length;
  return { stub, count };
}

describe("routes", () => {
  beforeEach(() => {
    window.location.hash = "#/";
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    window.location.hash = "#/";
  });

  it("changes the page through the header's links, and opens a hand at #/hands/ID from the cache", async () => {
    const { count } = api();
    renderWithApp(<App />);
    await screen.findByTestId("lobby");
    expect(screen.getByTestId("nav-lobby")).toHaveClass("is-on");

    fireEvent.click(screen.getByTestId("nav-hands"));
    fireEvent.click(await screen.findByTestId("hand-item"));
    expect(window.location.hash).toBe("#/hands/t1-9");
    expect(await screen.findByTestId("replayer")).toBeInTheDocument();
    expect(screen.getByTestId("nav-hands")).toHaveClass("is-on");
    expect(screen.getByTestId("nav-lobby")).not.toHaveClass("is-on");

    // Back to the list and into the hand again: both answers come from the cache.
    fireEvent.click(screen.getByTestId("all-hands"));
    expect(window.location.hash).toBe("#/hands");
    fireEvent.click(screen.getByTestId("hand-item")); // at once: no "Loading hands…"
    expect(screen.getByTestId("replayer")).toBeInTheDocument();
    expect(count("GET", "/api/hands")).toBe(1);
    expect(count("GET", "/api/hands/t1-9")).toBe(1);

    fireEvent.click(screen.getByTestId("nav-profile"));
    expect(window.location.hash).toBe("#/players/alice");
    expect(await screen.findByTestId("profile")).toBeInTheDocument();
  });

  it("reads the page's parameters from the address: #/hands?table=ID lists that table's hands", async () => {
    const { stub } = api();
    window.location.hash = "#/hands?table=t1";
    renderWithApp(<App />);
    await screen.findByTestId("hand-item");
    expect(stub.calls.find((c) => c.path.startsWith("/api/hands?"))!.path).toBe("/api/hands?limit=20&offset=0&table_id=t1");
  });

  it("sends an unknown address to the lobby", async () => {
    api();
    window.location.hash = "#/nowhere/at/all";
    renderWithApp(<App />);
    await screen.findByTestId("lobby");
    await waitFor(() => expect(window.location.hash).toBe("#/"));
  });
});

describe("the lobby's table list", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is served from the cache when the lobby is shown again", async () => {
    const { count } = api();
    const client = makeQueryClient(false);
    const first = renderWithApp(<Lobby />, undefined, undefined, client);
    expect(await screen.findByTestId("table-row")).toHaveTextContent("Friday");
    first.unmount();
    renderWithApp(<Lobby />, undefined, undefined, client);
    expect(screen.getByTestId("table-row")).toHaveTextContent("Friday"); // no "Loading tables…"
    expect(count("GET", "/api/tables")).toBe(1);
  });

  it("is polled by the cache, and a failed poll keeps the list with the error", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let fail = false;
      const stub = stubFetch({
        "GET /api/tables": () => (fail ? { status: 503, json: { detail: "down for a moment" } } : { json: [TABLE] }),
        "GET /api/table-stats": () => ({ json: { items: [], total: 0, limit: 100, offset: 0 } }),
        "GET /api/leaderboard": () => ({ json: { variant: "no-limit", min_hands: 100, items: [], total: 0, limit: 20, offset: 0 } }),
      });
      vi.stubGlobal("fetch", stub.fn);
      renderWithApp(<Lobby />);
      await screen.findByTestId("table-row");
      fail = true;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5_100); // the next poll, 5 s on
      });
      expect(await screen.findByTestId("lobby-error")).toHaveTextContent("down for a moment");
      expect(screen.getByTestId("table-row")).toBeInTheDocument();
      expect(stub.calls.filter((c) => c.path === "/api/tables").length).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
