import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "../test/render";
import { endpoints } from "../protocol/rest";
import { HandList } from "./HandHistory";

const PAGE = {
  items: [
    {
      hand_id: "t1-7",
      table_id: "t1",
      table_name: "Friday",
      hand_no: 7,
      played_at: "2026-11-23T01:00:00Z",
      variant: "no-limit",
      small_blind: 50,
      big_blind: 100,
      seat: 1,
      net: 1,
      board: ["Kd", "Kc", "3s"],
      players: 1,
      hole_cards: ["Ah", "Kh"],
      chip_unit: "1",
    },
  ],
  total: 1,
  limit: 20,
  offset: 0,
};

describe("HandList", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows each hand's table and your own cards, and asks the server for one table's", async () => {
    const stub = stubFetch({ "GET /api/hands": () => ({ json: PAGE }) });
    vi.stubGlobal("fetch", stub.fn);
    renderWithApp(<HandList tableId="t1" onOpen={() => {}} />);
    const item = await screen.findByTestId("hand-item");
    expect(within(item).getByTestId("hand-table-name")).toHaveTextContent("Friday");
    expect(within(item).getByTestId("hand-meta")).toHaveTextContent(/Friday · 1 player(?!s)/);
    const cards = within(item).getByTestId("hand-my-cards").querySelectorAll("[data-card]");
    expect([...cards].map((c) => c.getAttribute("data-card"))).toEqual(["Ah", "Kh"]);
    expect(stub.calls[0]!.path).toBe("/api/hands?limit=20&offset=0&table_id=t1");
  });

  it("builds the table filter into the path", () => {
    expect(endpoints.hands(20, 0, "t 1")).toBe("/api/hands?limit=20&offset=0&table_id=t%201");
    expect(endpoints.hands(20, 40)).toBe("/api/hands?limit=20&offset=40");
  });
});
