/**
 * Home-game rules (#34) in the browser: the host creates a table with run it twice and
 * the rabbit hunt from the create form; a friend joins; both go all-in and agree to run
 * the board twice; both runs' boards show. Screenshots of the form and the two boards.
 */
import { expect, test, type Page } from "@playwright/test";
import { shot, signIn, sitDown } from "./helpers";

/** Whoever is to act goes all-in, or calls an all-in; false when neither is to act. */
async function shoveOrCall(page: Page): Promise<boolean> {
  if (!(await page.getByTestId("action-bar").isVisible())) return false;
  try {
    const allIn = page.getByTestId("size-all-in");
    if (await allIn.isVisible()) {
      await allIn.click({ timeout: 2000 });
      await page.getByTestId("act-raise").click({ timeout: 2000 });
      return true;
    }
    await page.getByTestId("act-call").click({ timeout: 2000 });
    return true;
  } catch {
    return false; // the turn moved on between the look and the click
  }
}

test("two friends agree to run it twice", async ({ browser }) => {
  test.setTimeout(180_000);
  const hostContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const friendContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const host = await hostContext.newPage();
  const friend = await friendContext.newPage();
  try {
    await signIn(host, "Hana");
    await host.getByTestId("nav-lobby").click();
    await host.getByTestId("open-create-table").click();
    const form = host.getByTestId("create-table-form");
    const retry = test.info().retry;
    await form.getByTestId("ct-name").fill(retry ? `Home Rules (retry ${retry})` : "Home Rules");
    await form.getByTestId("ct-seats").fill("2");
    await form.getByTestId("ct-bot-count").selectOption("0");
    await form.getByTestId("ct-timeout").fill("60");
    await form.getByTestId("hr-runs").selectOption("2");
    await form.getByTestId("hr-rabbit").check();
    await form.getByTestId("hr-straddle").selectOption("utg");
    await expect(form.getByTestId("home-rules")).toBeVisible();
    await shot(host, "desktop-home-rules-create-form", true);
    await form.getByTestId("ct-submit").click();
    await expect(host.getByTestId("table-screen")).toBeVisible();
    const tableId = decodeURIComponent(/#\/tables\/([^?]+)/.exec(host.url())![1]!);
    await sitDown(host);

    await signIn(friend, "Finn");
    await friend.goto(`/#/tables/${encodeURIComponent(tableId)}`);
    await friend.locator("button.seat__sit").first().click();
    await sitDown(friend);

    // Preflop: the first to act shoves, the other calls; then both are asked.
    await expect
      .poll(
        async () => {
          await shoveOrCall(host);
          await shoveOrCall(friend);
          return host.getByTestId("runout-prompt").isVisible();
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    await expect(friend.getByTestId("runouts-2")).toBeVisible();
    // The host pauses (after this hand): the two boards stay on show, no next deal.
    await host.getByTestId("tab-host").click();
    await host.getByTestId("host-pause").click();
    await expect(host.getByTestId("host-pause")).toHaveText("Resume the game");
    await expect(host.getByTestId("runout-countdown")).toHaveText(/\d+ s/);
    await shot(friend, "desktop-run-it-twice-prompt");
    await host.getByTestId("runouts-2").click();
    await expect(host.getByTestId("runout-voted")).toHaveText(/twice/);
    await friend.getByTestId("runouts-2").click();
    await expect(host.getByTestId("run-board-2")).toBeVisible({ timeout: 30_000 });
    await expect(host.getByTestId("run-board-1").locator("[data-card]")).toHaveCount(5);
    await expect(host.getByTestId("run-board-2").locator("[data-card]")).toHaveCount(5);
    await shot(host, "desktop-run-it-twice-boards");

    // On a phone: the same two boards, under the table.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      storageState: await friendContext.storageState(),
    });
    try {
      const mobile = await phone.newPage();
      await mobile.goto(`/#/tables/${encodeURIComponent(tableId)}`);
      await expect(mobile.getByTestId("run-board-2")).toBeVisible({ timeout: 30_000 });
      await mobile.getByTestId("home-bar").scrollIntoViewIfNeeded();
      await shot(mobile, "phone-run-it-twice-boards");
    } finally {
      await phone.close();
    }
  } finally {
    await hostContext.close();
    await friendContext.close();
  }
});
