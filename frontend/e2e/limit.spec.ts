/**
 * A full ten-seat Fixed-Limit table: every seat laid out around the oval, the
 * fixed bet sizes in the decision bar (no slider), at desktop and phone sizes.
 */
import { expect, test } from "@playwright/test";
import { createTable, handNo, playHands, shot, signIn, sitDown, waitForTurn } from "./helpers";

test("a ten-seat Limit table with nine bots of different styles", async ({ browser }) => {
  test.setTimeout(240_000); // ten players, nine of them bots thinking in turn
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  try {
    await signIn(page, "Lena");
    const tableId = await createTable(page, {
      name: "Limit Ten",
      variant: "limit",
      seats: 10,
      bots: ["aggressive", "cautious", "rational", "always-raise", "calling-station", "always-fold", "random", "loki", "poki"],
    });
    await sitDown(page);
    await expect(page.locator('[data-testid^="seat-"][data-player]')).toHaveCount(10);
    await expect.poll(() => handNo(page), { timeout: 30_000 }).toBeGreaterThan(0);
    await waitForTurn(page);
    // Limit: a fixed size, no slider or typed amount.
    await expect(page.getByTestId("sizing")).toHaveCount(0);
    const raise = page.getByTestId("act-raise");
    if (await raise.isVisible()) {
      await expect(raise).toHaveText(/(Bet|Raise to|All-in) \d/);
      const amount = Number(await raise.getAttribute("data-amount"));
      expect(amount % 100).toBe(0); // multiples of the small bet (100)
    }
    await shot(page, "desktop-limit-ten-seats");
    const report = await playHands(page, 2);
    expect(report.handsPlayed).toBeGreaterThanOrEqual(2);

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      storageState: await context.storageState(),
    });
    try {
      const mobile = await phone.newPage();
      await mobile.goto(`/#/tables/${encodeURIComponent(tableId)}`);
      await expect(mobile.locator('[data-testid^="seat-"][data-player]')).toHaveCount(10);
      await expect(mobile.getByTestId("action-bar")).toBeVisible({ timeout: 60_000 });
      await shot(mobile, "phone-limit-ten-seats");
    } finally {
      await phone.close();
    }
  } finally {
    await context.close();
  }
});
