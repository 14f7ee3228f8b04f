/** Home-game rules in the web client (#34): the run-it-twice prompt and its countdown, each
 * run's board, the rabbit hunt, the straddle choice, the rules in the create form and its request. */
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { ClientCommand, CreateTableRequest } from "../protocol";
import { makeView, NL_CONFIG, seat, tableSummary } from "../test/fixtures";
import { renderWithApp, stubFetch } from "../test/render";
import { CreateTableForm } from "./CreateTableForm";
import { HomeGameBar } from "./HomeGameBar";
import { Lobby } from "./Lobby";

const RULES = { ...NL_CONFIG, run_it_max: 2, rabbit_hunt: true, straddle: "utg" as const, bomb_pot_ante: 100 };

function renderBar(view: ReturnType<typeof makeView>, deadline: number | null = null) {
  const send = vi.fn((_command: ClientCommand) => "ref");
  render(<HomeGameBar view={view} runoutDeadline={deadline} clockOffset={0} send={send} />);
  return send;
}

describe("HomeGameBar", () => {
  it("asks an all-in player how many runs, with the countdown", () => {
    // The clock stands still: on a busy machine the render took over half a second and
    // the countdown read "9 s" (a fresh clone's run failed on it).
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(1_000_000);
      const view = makeView({ config: RULES, actor: null, legal_actions: null, runout_voters: [1, 2], runout_votes: {} });
      const send = renderBar(view, 1_000_000 + 9_500);
      expect(screen.getByTestId("runout-prompt")).toHaveTextContent("Only if everyone agrees");
      expect(screen.getByTestId("runout-countdown")).toHaveTextContent("10 s");
      expect(screen.queryByTestId("runouts-3")).toBeNull(); // the table allows two runs
      fireEvent.click(screen.getByTestId("runouts-2"));
      expect(send).toHaveBeenCalledWith({ type: "runouts", runs: 2 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows a vote already given and no buttons to players not asked", () => {
    renderBar(makeView({ config: RULES, actor: null, runout_voters: [2], runout_votes: { "1": 2 } }));
    expect(screen.queryByTestId("runouts-1")).toBeNull();
    expect(screen.getByTestId("runout-voted")).toHaveTextContent("twice");
  });

  it("shows every run's board after the hand", () => {
    const boards = [["Ah", "Kd", "2c", "7s", "9h"], ["Ah", "Kd", "2c", "Qs", "Jd"]];
    const view = makeView({
      config: RULES,
      hand_in_progress: false,
      actor: null,
      last_result: { hand_no: 3, net: {}, winnings: { "1": 200 }, shown: {}, board: boards[0]!, boards },
    });
    renderBar(view);
    expect(screen.getByTestId("run-board-1")).toHaveTextContent("Run 1");
    expect(screen.getByTestId("run-board-2")).toHaveTextContent("Run 2");
  });

  it("offers the rabbit hunt after a hand that ended early, then shows the cards", () => {
    const ended = makeView({
      config: RULES,
      hand_in_progress: false,
      actor: null,
      board: ["Ah", "Kd", "2c"],
      last_result: { hand_no: 3, net: {}, winnings: { "2": 300 }, shown: {}, board: ["Ah", "Kd", "2c"], boards: [] },
    });
    const send = renderBar(ended);
    fireEvent.click(screen.getByTestId("rabbit-hunt"));
    expect(send).toHaveBeenCalledWith({ type: "rabbit_hunt" });
  });

  it("shows the rabbit's cards to everyone, and the straddle choice", () => {
    const hunted = makeView({
      config: RULES,
      hand_in_progress: false,
      actor: null,
      seats: [seat({ seat: 1, name: "Alice", straddle: true })],
      last_result: { hand_no: 3, net: {}, winnings: { "2": 300 }, shown: {}, board: [], boards: [] },
      rabbit: ["Qs", "Jd", "Tc", "2h", "3h"],
    });
    const send = renderBar(hunted);
    expect(screen.queryByTestId("rabbit-hunt")).toBeNull();
    expect(screen.getByTestId("rabbit-cards")).toHaveTextContent("Rabbit hunt");
    const toggle = screen.getByTestId("straddle-toggle");
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    expect(send).toHaveBeenCalledWith({ type: "straddle", enabled: false });
  });
});

describe("CreateTableForm home-game rules", () => {
  it("sends the rules with the bots seated: the bots play every home-game rule", async () => {
    const onCreate = vi.fn(async (_spec: CreateTableRequest) => {});
    render(<CreateTableForm onCreate={onCreate} />);
    fireEvent.change(screen.getByTestId("hr-straddle"), { target: { value: "utg" } });
    fireEvent.change(screen.getByTestId("hr-runs"), { target: { value: "3" } });
    fireEvent.click(screen.getByTestId("hr-rabbit"));
    fireEvent.click(screen.getByTestId("ct-submit"));
    await waitFor(() => expect(onCreate).toHaveBeenCalled());
    expect(screen.queryByTestId("ct-error")).toBeNull();
    const spec = onCreate.mock.calls[0]![0];
    expect(spec).toMatchObject({ straddle: "utg", run_it_max: 3, rabbit_hunt: true });
    expect(spec.bots).toBeGreaterThan(0);
    expect(spec).not.toHaveProperty("bomb_pot_ante");
  });

  it("asks for a big-blind ante in the create request when its box is ticked", async () => {
    const api = stubFetch({
      "GET /api/tables": () => ({ json: [] }),
      "POST /api/tables": () => ({ json: tableSummary({ table_id: "t9" }) }),
    });
    vi.stubGlobal("fetch", api.fn);
    try {
      renderWithApp(<Lobby />);
      fireEvent.click(screen.getByTestId("open-create-table"));
      fireEvent.change(screen.getByTestId("ct-ante"), { target: { value: "100" } });
      fireEvent.click(screen.getByTestId("hr-bb-ante"));
      fireEvent.click(screen.getByTestId("ct-submit"));
      await waitFor(() => expect(api.calls.some((c) => c.method === "POST")).toBe(true));
      const created = api.calls.find((c) => c.method === "POST" && c.path === "/api/tables");
      expect(created?.body).toMatchObject({ ante: 100, big_blind_ante: true });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
