/**
 * Poker night (#34) in the client: the host's missing controls (stack adjustments, ante,
 * time bank, bot styles), the seat-request prompt, the ledger with its settle-up and CSV,
 * and the export buttons (one hand, all hands).
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientCommand, HostState } from "../protocol";
import { makeView } from "../test/fixtures";
import { renderWithApp, stubFetch } from "../test/render";
import { HandsPage } from "./HandsPage";
import { HostPanel } from "./HostPanel";
import { JoinRequests } from "./JoinRequests";
import { LedgerPanel } from "./LedgerPanel";

const HOST: HostState = {
  host_id: "alice",
  paused: false,
  approve_seats: true,
  seat_requests: [{ player_id: "eve", name: "Eve", seat: 5, buy_in: 4000 }],
};

function recorder() {
  const sent: ClientCommand[] = [];
  const send = (command: ClientCommand) => {
    sent.push(command);
    return "ref";
  };
  return { sent, send };
}

describe("the host's controls", () => {
  it("adjusts a stack, sets a bot's style, the ante and the time bank", () => {
    const { sent, send } = recorder();
    render(<HostPanel host={HOST} view={makeView({ hand_in_progress: false })} send={send} />);
    fireEvent.change(screen.getByTestId("host-adjust-amount-3"), { target: { value: "-250" } });
    fireEvent.click(screen.getByTestId("host-adjust-3"));
    expect(sent.at(-1)).toEqual({ type: "adjust", seat: 3, amount: -250 });
    expect((screen.getByTestId("host-adjust-amount-3") as HTMLInputElement).value).toBe("");
    // Not a whole number of chips: nothing is sent.
    fireEvent.change(screen.getByTestId("host-adjust-amount-2"), { target: { value: "1.5" } });
    fireEvent.click(screen.getByTestId("host-adjust-2"));
    expect(sent).toHaveLength(1);
    expect(screen.queryByTestId("host-bot-style-1")).toBeNull(); // Alice is no bot
    fireEvent.change(screen.getByTestId("host-bot-style-4"), { target: { value: "calling-station" } });
    expect(sent.at(-1)).toEqual({ type: "bot_style", seat: 4, style: "calling-station" });
    fireEvent.change(screen.getByTestId("host-ante"), { target: { value: "25" } });
    fireEvent.change(screen.getByTestId("host-time-bank"), { target: { value: "45" } });
    fireEvent.click(screen.getByTestId("host-blinds"));
    expect(sent.at(-1)).toEqual({ type: "table_settings", small_blind: 50, big_blind: 100, ante: 25, time_bank: 45 });
  });

  it("turns advice off and on for the table", () => {
    const { sent, send } = recorder();
    render(<HostPanel host={HOST} view={makeView({ hand_in_progress: false })} send={send} adviceAllowed />);
    const toggle = screen.getByTestId("host-advice") as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    expect(sent.at(-1)).toEqual({ type: "table_settings", advice_allowed: false });
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    expect(sent.at(-1)).toEqual({ type: "table_settings", advice_allowed: true });
    expect(toggle.checked).toBe(true);
  });

  it("keeps the advice toggle as it was when the command cannot be sent", () => {
    render(<HostPanel host={HOST} view={makeView({ hand_in_progress: false })} send={() => null} adviceAllowed={false} />);
    const toggle = screen.getByTestId("host-advice") as HTMLInputElement;
    fireEvent.click(toggle);
    expect(toggle.checked).toBe(false);
  });

  describe("the invite link", () => {
    afterEach(() => vi.unstubAllGlobals());

    it("makes a new link and revokes it, showing the link the server answered", async () => {
      let issued = 0;
      const api = stubFetch({
        "POST /api/tables/t1/invite": () => ({ json: { table_id: "t1", invite: `new-${++issued}` } }),
        "DELETE /api/tables/t1/invite": () => ({ json: { table_id: "t1", invite: null } }),
      });
      vi.stubGlobal("fetch", api.fn);
      const told: (string | null)[] = [];
      const { send } = recorder();
      render(
        <HostPanel host={HOST} view={makeView({ hand_in_progress: false })} send={send} tableId="t1" token="tok" privateTable invite="old" onInvite={(i) => told.push(i)} />,
      );
      const link = () => (screen.getByTestId("invite-link") as HTMLInputElement).value;
      expect(link()).toMatch(/#\/tables\/t1\?invite=old$/);
      fireEvent.click(screen.getByTestId("host-invite-new"));
      await waitFor(() => expect(link()).toMatch(/#\/tables\/t1\?invite=new-1$/));
      fireEvent.click(screen.getByTestId("host-invite-revoke"));
      expect(await screen.findByTestId("invite-none")).toHaveTextContent("No invite link");
      expect(screen.queryByTestId("invite-link")).toBeNull();
      expect(screen.getByTestId("host-invite-revoke")).toBeDisabled();
      fireEvent.click(screen.getByTestId("host-invite-new"));
      await waitFor(() => expect(link()).toMatch(/invite=new-2$/));
      expect(api.calls.map((c) => `${c.method} ${c.path} ${c.headers.Authorization}`)).toEqual([
        "POST /api/tables/t1/invite Bearer tok",
        "DELETE /api/tables/t1/invite Bearer tok",
        "POST /api/tables/t1/invite Bearer tok",
      ]);
      expect(told).toEqual(["new-1", null, "new-2"]);
    });

    it("says why the server refused and keeps the link", async () => {
      vi.stubGlobal("fetch", stubFetch({ "POST /api/tables/t1/invite": () => ({ status: 403, json: { detail: "only the table's host may do this" } }) }).fn);
      const { send } = recorder();
      render(<HostPanel host={HOST} view={makeView({ hand_in_progress: false })} send={send} tableId="t1" token="tok" privateTable invite="old" />);
      fireEvent.click(screen.getByTestId("host-invite-new"));
      expect(await screen.findByTestId("host-invite-error")).toHaveTextContent("only the table's host may do this");
      expect((screen.getByTestId("invite-link") as HTMLInputElement).value).toMatch(/invite=old$/);
    });

    it("offers no link on a public table", () => {
      const { send } = recorder();
      render(<HostPanel host={HOST} view={makeView({ hand_in_progress: false })} send={send} tableId="t1" token="tok" />);
      expect(screen.queryByTestId("host-invite")).toBeNull();
    });
  });

  it("prompts for each seat request, over the table", () => {
    const { sent, send } = recorder();
    const { container, rerender } = render(<JoinRequests host={HOST} unit="1" send={send} />);
    expect(screen.getByTestId("join-requests").textContent).toContain("Eve asks to sit in seat 5 with 4,000");
    fireEvent.click(screen.getByTestId("prompt-approve-eve"));
    fireEvent.click(screen.getByTestId("prompt-reject-eve"));
    expect(sent).toEqual([
      { type: "approve", player_id: "eve" },
      { type: "reject", player_id: "eve" },
    ]);
    rerender(<JoinRequests host={{ ...HOST, seat_requests: [] }} unit="1" send={send} />);
    expect(container.textContent).toBe("");
  });
});

describe("the ledger", () => {
  let saved: { name: string; text: string }[];
  beforeEach(() => {
    saved = [];
    // jsdom has no object URLs: these two stand in for the browser's while a test saves a file.
    Object.assign(URL, { createObjectURL: () => "blob:x", revokeObjectURL: () => {} });
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, text: "" });
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    Reflect.deleteProperty(URL, "createObjectURL");
    Reflect.deleteProperty(URL, "revokeObjectURL");
  });

  it("shows each player's chips, the settle-up and downloads the CSV", async () => {
    const api = stubFetch({
      "GET /api/tables/t1/ledger": () => ({
        json: {
          table_id: "t1",
          total: 0,
          rows: [
            { player_id: "ana", name: "Ana", is_bot: false, buy_ins: 1000, rebuys: 0, adjustments: 0, cashed_out: 0, on_table: 1650, net: 650 },
            { player_id: "bo", name: "Bo", is_bot: false, buy_ins: 1000, rebuys: 500, adjustments: -50, cashed_out: 800, on_table: 0, net: -650 },
          ],
          settle_up: [{ payer: "bo", payee: "ana", amount: 650 }],
        },
      }),
      "GET /api/tables/t1/ledger.csv": () => ({ text: "name,net\nAna,650\nBo,-650\n" }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<LedgerPanel tableId="t1" token="tok" unit="1" refreshKey="1" />);
    const table = await screen.findByTestId("ledger");
    expect(within(screen.getByTestId("ledger-row-bo")).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "1,4501,000 buy-in, 500 top-ups, −50 adjusted",
      "800800 cashed out",
      "−650",
    ]);
    expect(within(screen.getByTestId("ledger-row-ana")).getAllByRole("cell")[1]!.textContent).toBe("1,6501,650 on the table");
    expect(screen.getByTestId("ledger-total").textContent).toBe("0");
    expect(screen.getByTestId("settle-up").textContent).toBe("Bo pays Ana 650");
    fireEvent.click(within(table).getByTestId("ledger-csv"));
    await waitFor(() => expect(saved).toEqual([{ name: "ledger-t1.csv", text: "" }]));
    expect(api.calls.map((c) => c.path)).toEqual(["/api/tables/t1/ledger", "/api/tables/t1/ledger.csv"]);
  });

  it("says when the ledger is not yours to see", async () => {
    vi.stubGlobal("fetch", stubFetch({}).fn);
    renderWithApp(<LedgerPanel tableId="t9" token="tok" unit="1" refreshKey="1" />);
    expect((await screen.findByTestId("ledger-error")).textContent).toContain("once they have bought in");
  });

  it("exports all my hands in each format from My hands", async () => {
    const api = stubFetch({
      "GET /api/hands": () => ({ json: { items: [], total: 0, limit: 20, offset: 0 } }),
      "GET /api/hands/export/pokerstars": () => ({ text: "PokerStars Hand #1: ..." }),
      "GET /api/hands/export/ohh": () => ({ text: '{"ohh": {}}' }),
      "GET /api/hands/export/phh": () => ({ text: "[1]\n" }),
    });
    vi.stubGlobal("fetch", api.fn);
    renderWithApp(<HandsPage />);
    for (const format of ["pokerstars", "ohh", "phh"]) {
      const button = await screen.findByTestId(`hands-export-${format}`);
      await waitFor(() => expect(button).not.toBeDisabled());
      fireEvent.click(button);
    }
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(["showdown-hands.txt", "showdown-hands.ohh", "showdown-hands.phhs"]));
    // A range of days: from the start of the first to the end of the last (local days).
    fireEvent.change(screen.getByTestId("export-from"), { target: { value: "2026-11-20" } });
    fireEvent.change(screen.getByTestId("export-to"), { target: { value: "2026-11-21" } });
    await waitFor(() => expect(screen.getByTestId("hands-export-pokerstars")).not.toBeDisabled());
    fireEvent.click(screen.getByTestId("hands-export-pokerstars"));
    await waitFor(() => expect(saved.at(-1)?.name).toBe("showdown-hands-2026-11-20-to-2026-11-21.txt"));
    const asked = new URL(api.calls.at(-1)!.path, "http://x").searchParams;
    expect(asked.get("since")).toBe(new Date("2026-11-20T00:00:00").toISOString());
    expect(asked.get("until")).toBe(new Date("2026-11-22T00:00:00").toISOString());
    expect(new Set(api.calls.filter((c) => c.path.startsWith("/api/hands/export/")).map((c) => c.headers.Authorization))).toEqual(new Set(["Bearer tok"]));
  });
});
