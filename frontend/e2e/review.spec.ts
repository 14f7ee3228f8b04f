/**
 * The hand review end to end, against a real `showdown serve` and its AI worker: play
 * a few heads-up hands, open one of them in the replayer, ask for the review, see it
 * computed and stored (a phone opening the same hand gets the stored one at once),
 * with screenshots at desktop and phone sizes.
 */
import { expect, test } from "@playwright/test";
import { createTable, playHands, shot, signIn, sitDown } from "./helpers";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

test("reviews my play in a hand, in the replayer", async ({ browser }) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.log(`[page error] ${error.message}`));
  try {
    await signIn(page, "Reviewer");
    await createTable(page, { name: "Review table", bots: ["rational"], seats: 2 });
    await sitDown(page);
    // Until the third hand starts: two hands finished, and heads-up the button moves, so
    // in one of them I am the small blind, who acts first preflop.
    await playHands(page, 3);
    await page.getByTestId("nav-hands").click();
    await expect(page.getByTestId("hand-item").first()).toBeVisible();
    const ids = await page.getByTestId("hand-item").evaluateAll((items) => items.map((i) => i.getAttribute("data-hand-id") ?? ""));

    // A hand where the bot folds my big blind has no decision of mine: review hands
    // until one has decisions.
    let reviewed = "";
    for (const id of ids) {
      await page.goto(`/#/hands/${encodeURIComponent(id)}`);
      await expect(page.getByTestId("replayer")).toBeVisible();
      await page.getByTestId("review-start").click();
      const summary = page.getByTestId("review-summary");
      await expect(page.getByTestId("review-progress").or(summary).first()).toBeVisible();
      await expect(summary).toBeVisible({ timeout: 180_000 }); // the worker may still be warming up
      if (!(await summary.textContent())?.includes("no decision")) {
        reviewed = id;
        break;
      }
    }
    expect(reviewed, "a hand with my decisions").not.toBe("");
    const jumps = page.getByTestId("review-jump");
    expect(await jumps.count()).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId("review-summary")).toHaveText(/(bb given up|No value given up) over \d+ decisions?/);
    await jumps.last().click();
    const detail = page.getByTestId("review-detail");
    await expect(detail).toBeVisible();
    // The caption is the action graded; the table lists each searched action's value.
    await expect(page.getByTestId("replay-caption")).toContainText("Reviewer");
    const rows = detail.getByTestId("review-values").getByRole("row");
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    await expect(detail.locator("tr.is-best")).toHaveCount(1);
    await expect(detail.locator("tr.is-taken")).toHaveCount(1);
    await expect(detail.getByTestId("review-grade")).toHaveText(/best|mistake|close call|not graded/);
    await page.getByTestId("hand-review").scrollIntoViewIfNeeded();
    await shot(page, "desktop-hand-review");

    // Stored with the hand: a phone opening it again is shown the same review at once.
    const phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, storageState: await context.storageState() });
    const mobile = await phone.newPage();
    try {
      await mobile.goto(`/#/hands/${encodeURIComponent(reviewed)}`);
      await expect(mobile.getByTestId("review-summary")).toHaveText((await page.getByTestId("review-summary").textContent()) ?? "");
      await expect(mobile.getByTestId("review-start")).toHaveCount(0);
      await mobile.getByTestId("review-jump").first().click();
      await expect(mobile.getByTestId("review-detail")).toBeVisible();
      await mobile.getByTestId("hand-review").scrollIntoViewIfNeeded();
      const box = await mobile.getByTestId("review-values").boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true); // no sideways scroll
      await shot(mobile, "phone-hand-review");
    } finally {
      await phone.close();
    }
  } finally {
    await context.close();
  }
});
