/**
 * The poker room end to end, against a real `showdown serve`:
 * sign in, create a table with bots, sit, play hands to showdown, "Let AI
 * decide", reload and reconnect (with a resync from last_seq), watch as a
 * spectator, and screenshots at desktop and phone sizes.
 */
import { expect, test, type BrowserContext, type Page, type WebSocketRoute } from "@playwright/test";
import { checkOrCall, createTable, handNo, playHands, rebuyIfBusted, shot, signIn, sitDown, waitForTurn } from "./helpers";

const PHONE = { width: 390, height: 844 };

test.describe.serial("a guest at a table with bots", () => {
  let context: BrowserContext;
  let page: Page;
  let tableId = "";
  let mySeat = 0;

  test.beforeAll(async ({ browser }) => {
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on("pageerror", (error) => console.log(`[page error] ${error.message}`));
  });

  test.afterAll(async () => {
    await context.close();
  });

  test("signs in as a guest; the name survives a reload", async () => {
    await page.goto("/");
    await expect(page.getByTestId("signin-form")).toBeVisible();
    await shot(page, "desktop-signin");
    await signIn(page, "Alice");
    await page.reload();
    await expect(page.getByTestId("player-name")).toHaveText("Alice");
    await expect(page.getByTestId("lobby")).toBeVisible();
  });

  test("creates a table with bots and sits down", async () => {
    tableId = await createTable(page, {
      name: "E2E Table",
      bots: ["calling-station", "calling-station", "rational"],
      seats: 6,
    });
    mySeat = await sitDown(page);
    expect(mySeat).toBeGreaterThan(0);
    await expect(page.getByTestId("connection")).toHaveAttribute("data-status", "open");
    // Bots are seated with their styles; the first hand gets dealt.
    await expect(page.locator('[data-testid^="seat-"][data-player]')).toHaveCount(4);
    await expect.poll(() => handNo(page), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(page.getByTestId("my-cards").locator("[data-card]")).toHaveCount(2);
    const myCards = await page.getByTestId("my-cards").locator("[data-card]").evaluateAll((els) => els.map((e) => e.getAttribute("data-card")));
    expect(myCards.every((c) => c && /^[2-9TJQKA][cdhs]$/.test(c))).toBe(true);
  });

  test("plays several hands to showdown", async () => {
    await waitForTurn(page);
    await shot(page, "desktop-table-my-turn");
    const report = await playHands(page, 4);
    console.log(`played ${report.handsPlayed} hands, ${report.decisions} decisions, showdowns in hands ${report.showdowns.join(", ")}`);
    expect(report.handsPlayed).toBeGreaterThanOrEqual(4);
    expect(report.decisions).toBeGreaterThan(0);
    expect(report.showdowns.length).toBeGreaterThan(0);
    // The hand log has this hand's events; past hands are listed.
    await page.getByTestId("tab-log").click();
    await expect(page.getByTestId("hand-log")).toContainText(/posts the (small|big) blind/);
    await page.getByTestId("tab-hands").click();
    await expect(page.getByTestId("hand-item").first()).toBeVisible();
    await page.getByTestId("hand-item").first().click();
    await expect(page.getByTestId("replayer")).toBeVisible();
    await page.getByTestId("replay-next").click();
    await page.getByTestId("replay-next").click();
    await expect(page.getByTestId("replay-caption")).toContainText(/blind|ante/);
    await shot(page, "desktop-replayer");
    await page.getByTestId("close-replay").click();
    await page.getByTestId("tab-log").click();
  });

  test("shows a showdown", async () => {
    // Check or call until a hand ends with another player's cards shown, then take its
    // picture. Each step waits for what the page shows (a showdown, our turn, or being
    // busted), not for the clock; bounded by hands dealt, not by time.
    const start = await handNo(page);
    const result = page.getByTestId("hand-result");
    const shown = page.locator('[data-testid^="seat-"]:not([data-me]) [data-card]:not([data-card="back"])');
    const showdown = async () => (await result.isVisible()) && (await shown.count()) > 0;
    while (!(await showdown())) {
      expect((await handNo(page)) - start, "hands dealt without a showdown").toBeLessThan(20);
      await page.waitForFunction(
        () => {
          const cards = '[data-testid^="seat-"]:not([data-me]) [data-card]:not([data-card="back"])';
          const rebuy = document.querySelector<HTMLButtonElement>('[data-testid="rebuy"]');
          return Boolean(
            (document.querySelector('[data-testid="hand-result"]') && document.querySelector(cards)) ||
              document.querySelector('[data-testid="action-bar"]') ||
              (rebuy && !rebuy.disabled && rebuy.textContent?.trim() === "Rebuy"),
          );
        },
        undefined,
        { timeout: 60_000 },
      );
      if (await rebuyIfBusted(page)) continue;
      await checkOrCall(page); // having acted, it waits for the decision to pass
    }
    await expect(result).toBeVisible();
    await shot(page, "desktop-showdown");
  });

  test("lets the AI decide, and the table is told", async () => {
    await waitForTurn(page);
    const before = await handNo(page);
    await page.getByTestId("let-ai-decide").click();
    // Everyone sees that the AI decided: the banner, the seat badge, the hand log.
    await expect(page.getByTestId("ai-banner")).toContainText("AI decided for Alice");
    await expect(page.getByTestId("advice-panel")).toHaveAttribute("data-applied", "true", { timeout: 20_000 });
    await expect(page.getByTestId("advice-recommendation")).toBeVisible();
    await shot(page, "desktop-ai-decided");
    await page.getByTestId("tab-log").click();
    const notices = page.getByTestId("notice").filter({ hasText: "AI decided for Alice" });
    if ((await handNo(page)) === before) await expect(notices.first()).toBeVisible();
  });

  test("asks for advice on a decision", async () => {
    await waitForTurn(page);
    await page.getByTestId("ask-advice").click();
    const panel = page.getByTestId("advice-panel");
    await expect(panel).toHaveAttribute("data-applied", "false", { timeout: 20_000 });
    await expect(page.getByTestId("advice-equity")).toBeVisible();
    await shot(page, "desktop-advice");
    // Nothing was applied: it is still our turn.
    await expect(page.getByTestId("action-bar")).toBeVisible();
    const check = page.getByTestId("act-check");
    if (await check.isVisible()) await check.click();
    else await page.getByTestId("act-call").click();
  });

  test("lists my hands, replays one and downloads its PHH", async () => {
    await page.getByTestId("nav-hands").click();
    await expect(page.getByTestId("hands-page")).toBeVisible();
    await expect(page.getByTestId("hand-item").first()).toBeVisible();
    expect(await page.getByTestId("hand-item").count()).toBeGreaterThanOrEqual(4);
    await shot(page, "desktop-my-hands");
    await page.getByTestId("hand-item").first().click();
    await expect(page.getByTestId("replayer")).toBeVisible();
    await page.getByTestId("replay-play").click();
    await expect(page.getByTestId("replay-position")).not.toHaveText(/^0 \//, { timeout: 5000 });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-phh").click()]);
    expect(download.suggestedFilename()).toMatch(/\.phh$/);
    const stream = await download.createReadStream();
    let text = "";
    for await (const chunk of stream) text += chunk.toString();
    expect(text).toMatch(/variant\s*=/);
    expect(text).toMatch(/actions\s*=/);
    // Back to the table: the seat was kept.
    await page.goto(`/#/tables/${encodeURIComponent(tableId)}`);
    await expect(page.locator(`[data-testid="seat-${mySeat}"][data-me="true"]`)).toBeVisible();
  });

  test("reloads and reconnects to the same seat; a dropped socket resyncs from last_seq", async () => {
    const urls: string[] = [];
    const routes: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/ws\/tables\//, (ws) => {
      urls.push(ws.url());
      routes.push(ws);
      ws.connectToServer();
    });
    await page.reload();
    await expect(page.getByTestId("player-name")).toHaveText("Alice");
    await expect(page.getByTestId("connection")).toHaveAttribute("data-status", "open");
    await expect(page.locator(`[data-testid="seat-${mySeat}"][data-me="true"]`)).toBeVisible();
    expect(page.url()).toContain(tableId);
    expect(urls.length).toBeGreaterThanOrEqual(1);

    // Drop the connection as a network failure would (the server side is closed too).
    const last = routes[routes.length - 1]!;
    await last.close({ code: 1006 }).catch(async () => last.close());
    await expect(page.getByTestId("connection")).toHaveAttribute("data-status", /reconnecting|connecting/);
    await expect(page.getByTestId("connection")).toHaveAttribute("data-status", "open", { timeout: 20_000 });
    const reconnectUrl = urls[urls.length - 1]!;
    expect(urls.length).toBeGreaterThanOrEqual(2);
    expect(reconnectUrl).toMatch(/last_seq=\d+/);
    expect(reconnectUrl).not.toMatch(/token=/); // the token goes in the first message, never a URL
    await expect(page.locator(`[data-testid="seat-${mySeat}"][data-me="true"]`)).toBeVisible();
    // The game goes on after the resync.
    const report = await playHands(page, 1);
    expect(report.handsPlayed).toBeGreaterThanOrEqual(1);
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });

  test("a spectator watches the table without seeing hole cards", async ({ browser }) => {
    const watcherContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const watcher = await watcherContext.newPage();
    try {
      await signIn(watcher, "Watcher");
      const row = watcher.locator(`[data-testid="table-row"][data-table-id="${tableId}"]`);
      await expect(row).toBeVisible();
      await expect(row.getByTestId("table-seats")).toContainText("4/6");
      await shot(watcher, "desktop-lobby");
      await row.getByTestId("watch-table").click();
      await expect(watcher.getByTestId("table-screen")).toHaveAttribute("data-seated", "false");
      await expect(watcher.getByTestId("connection")).toHaveAttribute("data-status", "open");
      await expect(watcher.locator(`[data-testid="seat-${mySeat}"]`)).toHaveAttribute("data-player", "Alice");
      await expect(watcher.getByTestId("action-bar")).toHaveCount(0);
      await expect(watcher.getByTestId("take-seat")).toBeVisible();
      // While a hand is live, every card the spectator sees at a seat is face down.
      await expect
        .poll(
          async () => {
            const live = await watcher.getByTestId("pot-total").isVisible();
            const faceUp = await watcher.locator('[data-testid^="seat-"] [data-card]:not([data-card="back"])').count();
            const faceDown = await watcher.locator('[data-testid^="seat-"] [data-card="back"]').count();
            return live && faceDown > 0 && faceUp === 0;
          },
          { timeout: 60_000, intervals: [100, 200, 300] },
        )
        .toBe(true);
      await shot(watcher, "desktop-spectator");
    } finally {
      await watcherContext.close();
    }
  });

  test("phone-size screens: lobby, table and the decision bar", async ({ browser }) => {
    const state = await context.storageState();
    const phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, storageState: state });
    const mobile = await phone.newPage();
    try {
      await mobile.goto("/");
      await expect(mobile.getByTestId("lobby")).toBeVisible();
      await shot(mobile, "phone-lobby");
      await mobile.getByTestId("open-create-table").click();
      await shot(mobile, "phone-create-table", true);
      await mobile.goto(`/#/tables/${encodeURIComponent(tableId)}`);
      await expect(mobile.locator(`[data-testid="seat-${mySeat}"][data-me="true"]`)).toBeVisible();
      await expect(mobile.getByTestId("action-bar")).toBeVisible({ timeout: 60_000 });
      await shot(mobile, "phone-table-my-turn");
      await mobile.getByTestId("act-call").or(mobile.getByTestId("act-check")).first().click();
      await expect(mobile.getByTestId("pre-actions").or(mobile.getByTestId("hand-result")).or(mobile.getByTestId("action-bar")).first()).toBeVisible();
      await shot(mobile, "phone-table", false);
      // The desktop tab was replaced by the phone's socket (close code 4000) and says so.
      await expect(page.getByTestId("connection")).toHaveAttribute("data-status", "closed", { timeout: 10_000 });
    } finally {
      await phone.close();
    }
  });
});

test("server errors are shown in words", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signIn(page, "Bob");
    await page.getByTestId("open-create-table").click();
    const form = page.getByTestId("create-table-form");
    await form.getByTestId("ct-sb").fill("500");
    await form.getByTestId("ct-bb").fill("100");
    await form.getByTestId("ct-submit").click();
    await expect(form.getByTestId("ct-error")).toContainText("small blind");
    // A table that does not exist: the socket is refused with 4004 and the page says so.
    await page.goto("/#/tables/no-such-table");
    await expect(page.getByTestId("table-fatal")).toContainText(/does not exist|no table/i);
  } finally {
    await context.close();
  }
});
