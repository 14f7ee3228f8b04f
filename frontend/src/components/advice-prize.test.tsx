/** The advice panel at a tournament: each action's prize equity (ICM) beside its chips. */
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { AdviceReport } from "../protocol";
import { AdvicePanel, prizeText } from "./AdvicePanel";

const BUBBLE: AdviceReport = {
  ref: null,
  hand_no: 12,
  seat: 1,
  source: "worker",
  applied: false,
  advice: {
    action: "fold",
    amount: null,
    values: [
      { action: "fold", amount: null, value_bb: -1, stderr_bb: null, share: null, prize_equity: 24.61 },
      { action: "call", amount: null, value_bb: 0.84, stderr_bb: null, share: null, prize_equity: 22.9 },
    ],
    equity: null,
    ehs: null,
    opponents: [],
    reason: "Push/fold equilibrium in prize equity: fold A9o against the all-in at 10.0 bb",
    close_call: null,
    prize_equity: 24.61,
  },
};

describe("AdvicePanel in a tournament", () => {
  it("shows chips and prize equity side by side, and our prize equity now", () => {
    render(<AdvicePanel report={BUBBLE} loading={false} view={null} canAsk />);
    expect(screen.getByTestId("advice-prize-equity")).toHaveTextContent("24.61");
    const table = screen.getByTestId("advice-values");
    expect(table).toHaveTextContent("prize equity (ICM)");
    const rows = within(table).getAllByRole("row");
    // Sorted by chips: the call first (+0.84 bb), yet the fold is marked, worth more money.
    expect(rows[0]).toHaveTextContent("Call");
    expect(rows[0]).toHaveTextContent("+0.84");
    expect(within(rows[0]!).getByTestId("advice-prize")).toHaveTextContent("22.90");
    expect(rows[1]).toHaveClass("is-best");
    expect(within(rows[1]!).getByTestId("advice-prize")).toHaveTextContent("24.61");
  });

  it("shows no prize column at a cash table", () => {
    const advice = {
      ...BUBBLE.advice,
      prize_equity: null,
      values: BUBBLE.advice.values.map((v) => ({ ...v, prize_equity: null })),
    };
    render(<AdvicePanel report={{ ...BUBBLE, advice }} loading={false} view={null} canAsk />);
    expect(screen.queryByTestId("advice-prize-equity")).toBeNull();
    expect(screen.queryAllByTestId("advice-prize")).toHaveLength(0);
    expect(screen.getByTestId("advice-values")).not.toHaveTextContent("ICM");
  });

  it("formats prizes", () => {
    expect(prizeText(3.456)).toBe("3.46");
    expect(prizeText(12500.4)).toBe("12,500");
  });
});
