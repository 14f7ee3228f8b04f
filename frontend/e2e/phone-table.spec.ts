/**
 * Issue #34 on a phone (390x844), what only a browser's layout can show: asking for
 * advice brings its answer into view (not only the panel's tab row peeking in above the
 * decision bar); the advice's spread column stays on one line; a winner line under the
 * board is not cut short ("Nines full of Fi…": a phone names the hand short).
 *
 * The table socket passes through a route that keeps the server's last state, so the
 * advice values and the result measured can be sent as the server would send them:
 * the same widths every run, whatever the AI worker and the cards do.
 */
import { expect, test, type BrowserContext, type Page, type WebSocketRoute } from "@playwright/test";
import { createTable, shot, signIn, sitDown, waitForTurn } from "./helpers";

const PHONE = { width: 390, height: 844 };

interface StateMessage {
  type: "state";
  seq: number;
  view: { hand_no: number; viewer_seat: number | null; seats: { seat: number; name: string }[] } & Record<string, unknown>;
  [key: string]: unknown;
}

test.describe.serial("a phone at a heads-up table", () => {
  test.setTimeout(180_000);
  let context: BrowserContext;
  let page: Page;
  let socket: WebSocketRoute | null = null;
  let last: StateMessage | null = null;

  test.beforeAll(async ({ browser }) => {
    context = await browser.newContext({ viewport: PHONE });
    page = await context.newPage();
    await page.routeWebSocket(/\/ws\/tables\//, (ws) => {
      const server = ws.connectToServer();
      socket = ws;
      ws.onMessage((m) => server.send(m));
      server.onMessage((m) => {
        const message = JSON.parse(String(m)) as { type?: string };
        if (message.type === "state") last = message as StateMessage;
        ws.send(m);
      });
    });
  });
  test.afterAll(async () => {
    await context.close();
  });

  test("asking for advice brings the answer into view, its spread on one line", async () => {
    await signIn(page, "Phone Pia");
    await createTable(page, { name: "Phone table", bots: ["calling-station"], seats: 2 });
    await sitDown(page);
    await waitForTurn(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.getByTestId("side-panel")).not.toBeInViewport({ ratio: 0.5 });
    await page.getByTestId("ask-advice").click();
    const answer = page.getByTestId("advice-recommendation");
    await expect(answer).toBeVisible({ timeout: 30_000 });
    // The answer itself, whole, not merely the panel's first pixels.
    await expect(answer).toBeInViewport({ ratio: 1 });
    // An answer with every column filled, as a worker sends it.
    const state = last as unknown as StateMessage;
    const values = [
      { action: "raise", amount: 16525, value_bb: 12.34, stderr_bb: 0.21, share: 0.62 },
      { action: "call", amount: null, value_bb: -0.5, stderr_bb: 0.33, share: 0.31 },
      { action: "fold", amount: null, value_bb: 0, stderr_bb: 0, share: 0.07 },
    ];
    const advice = { action: "raise", amount: 16525, values, equity: 0.61, opponents: [], reason: "A value raise." };
    const route = socket as unknown as WebSocketRoute;
    route.send(JSON.stringify({ type: "advice", ref: null, hand_no: state.view.hand_no, seat: state.view.viewer_seat, advice, source: "worker", applied: false }));
    await expect(page.getByTestId("advice-values")).toBeVisible();
    const cells = await page.getByTestId("advice-spread").evaluateAll((tds) =>
      tds.map((td) => ({ text: td.textContent ?? "", height: td.getBoundingClientRect().height, line: parseFloat(getComputedStyle(td).lineHeight) })),
    );
    expect(cells.map((c) => c.text)).toEqual(["±0.21 · 62%", "7%", "±0.33 · 31%"]); // best first
    for (const cell of cells) expect(cell.height, `"${cell.text}" on one line`).toBeLessThan(cell.line * 1.5 + 8);
    await shot(page, "phone-advice-answer");
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  test("a winner line under the board is not cut short", async () => {
    const state = last as unknown as StateMessage;
    const bot = state.view.seats.find((s) => s.seat !== state.view.viewer_seat)!;
    const board = ["9c", "5s", "5h", "2d", "Kc"];
    const view = {
      ...state.view,
      hand_in_progress: false,
      actor: null,
      legal_actions: null,
      street: null,
      board,
      pots: [],
      total_pot: 0,
      last_result: { hand_no: state.view.hand_no, net: { [bot.seat]: 1000 }, winnings: { [bot.seat]: 2000 }, shown: { [bot.seat]: ["9h", "9d"] }, board },
    };
    const route = socket as unknown as WebSocketRoute;
    route.send(JSON.stringify({ ...state, seq: state.seq + 1, cause: null, clock: null, view }));
    const result = page.getByTestId("hand-result");
    await expect(result).toContainText("9s full of 5s");
    const lines = await result.evaluate((el) =>
      [...el.querySelectorAll<HTMLElement>(":scope > div, .pot__hand")].map((line) => ({ text: line.innerText, cut: line.scrollWidth > line.clientWidth + 1 })),
    );
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.cut, `"${line.text}" fits`).toBe(false);
    await shot(page, "phone-winner-line");
  });
});
