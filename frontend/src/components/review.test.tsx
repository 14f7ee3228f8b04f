import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { HandReview, ReviewStatus } from "../api/review";
import { FOLDED_TO_A_BET } from "../test/fixtures";
import { renderWithApp, stubFetch } from "../test/render";
import { gradeWord } from "./HandReview";
import { Replayer } from "./Replayer";

const RECORD = FOLDED_TO_A_BET;

const REVIEW: HandReview = {
  hand_id: "t1-9",
  player_id: "alice",
  seat: 1,
  big_blind: 100,
  computed_at: "2026-11-23T03:00:00Z",
  total_grade_bb: 2.5,
  decisions: [
    {
      event_index: 2,
      street: "preflop",
      taken: { kind: "raise", amount: 300 },
      values: [
        { action: "fold", amount: null, value_bb: 0, stderr_bb: 0, share: 0, prize_equity: null },
        { action: "call", amount: null, value_bb: 1.2, stderr_bb: 0.3, share: 0.2, prize_equity: null },
        { action: "raise", amount: 250, value_bb: 2.1, stderr_bb: 0.25, share: 0.5, prize_equity: null },
        { action: "raise", amount: 1000, value_bb: 0.4, stderr_bb: 0.6, share: 0.3, prize_equity: null },
      ],
      best: { action: "raise", amount: 250, value_bb: 2.1, stderr_bb: 0.25, share: 0.5, prize_equity: null },
      matched: { action: "raise", amount: 250, value_bb: 2.1, stderr_bb: 0.25, share: 0.5, prize_equity: null },
      grade_bb: 0,
      equity: 0.7,
      reason: "Raise: ahead of the range.",
    },
    {
      event_index: 6,
      street: "flop",
      taken: { kind: "fold", amount: null },
      values: [
        { action: "fold", amount: null, value_bb: 0, stderr_bb: 0, share: 0, prize_equity: null },
        { action: "call", amount: null, value_bb: 2.5, stderr_bb: 0.4, share: 0.7, prize_equity: null },
      ],
      best: { action: "call", amount: null, value_bb: 2.5, stderr_bb: 0.4, share: 0.7, prize_equity: null },
      matched: { action: "fold", amount: null, value_bb: 0, stderr_bb: 0, share: 0, prize_equity: null },
      grade_bb: 2.5,
      grade_stderr_bb: 0.4,
      equity: 0.55,
      reason: "Call: the price is right.",
    },
  ],
};

const status = (partial: Partial<ReviewStatus>): ReviewStatus => ({
  hand_id: "t1-9",
  status: "working",
  done: 0,
  total: 2,
  message: "",
  review: null,
  ...partial,
});

afterEach(() => vi.unstubAllGlobals());

function renderReplayer() {
  return renderWithApp(<Replayer record={RECORD} viewerSeat={1} review={{ handId: "t1-9", token: "tok" }} />);
}

describe("the hand review in the replayer", () => {
  it("asks for the review, shows progress, then each decision's values and grade", async () => {
    let stored: ReviewStatus | null = null;
    const { fn, calls } = stubFetch({
      "GET /api/hands/t1-9/review": () =>
        stored ? { json: stored } : { status: 404, json: { detail: "no review of this hand yet: POST /api/hands/t1-9/review to ask for one" } },
      "POST /api/hands/t1-9/review": () => {
        stored = status({ done: 1 });
        return { status: 202, json: stored };
      },
    });
    vi.stubGlobal("fetch", fn);
    renderReplayer();
    fireEvent.click(await screen.findByTestId("review-start"));
    expect(await screen.findByTestId("review-progress")).toHaveTextContent("1 of 2 decisions");
    const post = calls.find((c) => c.method === "POST");
    expect(post?.headers.Authorization).toBe("Bearer tok");

    stored = status({ status: "done", done: 2, review: REVIEW });
    const summary = await screen.findByTestId("review-summary");
    expect(summary).toHaveTextContent("2.50 bb given up over 2 decisions");
    expect(screen.getAllByTestId("review-jump")).toHaveLength(2);

    fireEvent.click(screen.getAllByTestId("review-jump")[1]!); // the flop fold
    expect(screen.getByTestId("replay-caption")).toHaveTextContent(/Alice folds/i);
    const detail = screen.getByTestId("review-detail");
    expect(within(detail).getByTestId("review-grade")).toHaveTextContent("mistake: −2.50 bb (±0.40)");
    const rows = within(screen.getByTestId("review-values")).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual(["Foldyou+0.00", "Callbest+2.50±0.40"]);

    fireEvent.click(screen.getAllByTestId("review-jump")[0]!); // the preflop raise to 300
    const first = screen.getByTestId("review-detail");
    expect(first).toHaveTextContent("graded as raise to 250");
    expect(within(first).getByTestId("review-grade")).toHaveTextContent(/^best$/);
  });

  it("shows a stored review at once, and the server's refusal in words", async () => {
    const { fn } = stubFetch({
      "GET /api/hands/t1-9/review": () => ({ json: status({ status: "done", done: 2, review: REVIEW }) }),
    });
    vi.stubGlobal("fetch", fn);
    renderReplayer();
    expect(await screen.findByTestId("review-summary")).toHaveTextContent("over 2 decisions");
    expect(screen.queryByTestId("review-start")).toBeNull();
    expect(screen.queryByTestId("review-detail")).toBeNull(); // step 0 is no decision

    vi.unstubAllGlobals();
    const refused = stubFetch({
      "GET /api/hands/t1-9/review": () => ({ status: 404, json: { detail: "no review of this hand yet: POST to ask" } }),
      "POST /api/hands/t1-9/review": () => ({ status: 429, json: { detail: "too many hand reviews for you (at most 20 at once, 120 an hour): try again in 30 s" } }),
    });
    vi.stubGlobal("fetch", refused.fn);
    renderReplayer();
    fireEvent.click(await screen.findByTestId("review-start"));
    expect(await screen.findByTestId("review-error")).toHaveTextContent("too many hand reviews for you");
  });

  it("names a Fixed-Limit raise without an amount, never 'raise to 0'", async () => {
    // The advisor's values at a Limit table carry no amounts: the street fixes them.
    const limit: HandReview = {
      ...REVIEW,
      decisions: [
        {
          ...REVIEW.decisions[0]!,
          taken: { kind: "raise", amount: 300 },
          values: [
            { action: "fold", amount: null, value_bb: 0, stderr_bb: 0, share: 0, prize_equity: null },
            { action: "call", amount: null, value_bb: 1.2, stderr_bb: 0.3, share: 0.4, prize_equity: null },
            { action: "raise", amount: null, value_bb: 2.1, stderr_bb: 0.25, share: 0.6, prize_equity: null },
          ],
          best: { action: "raise", amount: null, value_bb: 2.1, stderr_bb: 0.25, share: 0.6, prize_equity: null },
          matched: { action: "raise", amount: null, value_bb: 2.1, stderr_bb: 0.25, share: 0.6, prize_equity: null },
        },
      ],
    };
    vi.stubGlobal("fetch", stubFetch({ "GET /api/hands/t1-9/review": () => ({ json: status({ status: "done", done: 1, total: 1, review: limit }) }) }).fn);
    renderReplayer();
    fireEvent.click((await screen.findAllByTestId("review-jump"))[0]!);
    const detail = screen.getByTestId("review-detail");
    expect(detail).not.toHaveTextContent(/to 0/);
    expect(detail).not.toHaveTextContent("graded as");
    const rows = within(screen.getByTestId("review-values")).getAllByRole("row");
    expect(rows.map((r) => r.textContent)).toEqual(["Fold+0.00", "Call+1.20±0.30", "Raiseyoubest+2.10±0.25"]);
  });

  it("words grades by how much they give up", () => {
    expect(gradeWord(0).word).toBe("best");
    expect(gradeWord(0.5).word).toBe("small mistake");
    expect(gradeWord(3).tone).toBe("bad");
    expect(gradeWord(null).word).toBe("not graded");
    expect(gradeWord(0.5, 0.8).word).toBe("close call"); // within the search's noise
    expect(gradeWord(2, 0.8).word).toBe("mistake");
  });
});
