/**
 * Issue #35 in a browser, desktop and phone: create a heads-up sit-and-go from the
 * Tournaments tab (one bot takes the other seat), register, play it at the table under
 * the tournament's clock banner (all in every hand: it ends in a few hands, the levels
 * rising every hand), and read the final standings; screenshots of each step.
 */
import { expect, test, type Page } from "@playwright/test";
import { decisionOnScreen, decisionPassed, shot, signIn } from "./helpers";

const PHONE = { width: 390, height: 844 };

async function createSitAndGo(page: Page, name: string): Promise<void> {
  await page.getByTestId("nav-tournaments").click();
  await expect(page.getByTestId("tournaments")).toBeVisible();
  await page.getByTestId("open-create-tournament").click();
  const form = page.getByTestId("create-tournament");
  await form.getByTestId("tournament-name").fill(name);
  await form.getByTestId("tournament-players").fill("2");
  await form.getByTestId("tournament-bots").fill("1");
  await form.getByTestId("tournament-levels-by").selectOption("hands");
  await form.getByTestId("tournament-level-hands").fill("1");
  await form.getByTestId("tournament-prizes").selectOption("winner_takes_all");
  await form.getByTestId("create-tournament-submit").click();
  await expect(page.getByTestId("tournament-page")).toHaveAttribute("data-status", "registering");
}

/** All in when it is our turn (call or check when all in is not offered); waits for the decision to pass. */
async function shove(page: Page): Promise<void> {
  const allIn = page.getByTestId("size-all-in");
  const decision = await decisionOnScreen(page);
  try {
    if (await allIn.isVisible()) {
      await allIn.click({ timeout: 2000 });
      await page.getByTestId("act-raise").click({ timeout: 2000 });
    } else if (await page.getByTestId("act-call").isVisible()) {
      await page.getByTestId("act-call").click({ timeout: 2000 });
    } else if (await page.getByTestId("act-check").isVisible()) {
      await page.getByTestId("act-check").click({ timeout: 2000 });
    } else return;
  } catch {
    /* the turn moved on between the look and the click */
    return;
  }
  await decisionPassed(page, decision);
}

async function playToTheEnd(page: Page, prefix: string): Promise<void> {
  await page.getByTestId("register").click();
  await expect(page.getByTestId("tournament-page")).toHaveAttribute("data-status", "running");
  await shot(page, `${prefix}-tournament-running`, true);
  await page.getByTestId("my-table").click();
  const banner = page.getByTestId("tournament-banner");
  await expect(banner).toBeVisible();
  await expect(page.getByTestId("tournament-level")).toContainText("Level");
  await expect(page.getByTestId("stand-up")).toHaveCount(0); // the director seats the players
  await shot(page, `${prefix}-tournament-table`);
  // Shove at every turn until the sit-and-go ends: waits for the end or our turn, not
  // for the clock; bounded by decisions.
  const finished = page.getByTestId("tournament-finished");
  const bar = page.getByTestId("action-bar");
  for (let decisions = 0; !(await finished.isVisible()); decisions += 1) {
    expect(decisions, "decisions without the sit-and-go ending").toBeLessThan(200);
    await expect(finished.or(bar).first()).toBeVisible({ timeout: 60_000 });
    if (await bar.isVisible()) await shove(page);
  }
  await expect(page.getByTestId("elimination-notice")).toContainText("is out in place 2");
  await shot(page, `${prefix}-tournament-over`);
  await page.goBack();
  const standings = page.getByTestId("standings");
  await expect(page.getByTestId("tournament-page")).toHaveAttribute("data-status", "finished");
  await expect(standings.getByTestId("standing-row")).toHaveCount(2);
  await expect(page.getByTestId("my-finish")).toContainText("You finished in place");
  await shot(page, `${prefix}-tournament-standings`, true);
}

test.describe.serial("a sit-and-go", () => {
  test.setTimeout(240_000);

  test("desktop: create, register, play all in, the final standings", async ({ page }) => {
    await signIn(page, "Tourney Tess");
    await createSitAndGo(page, "Tess heads-up SNG");
    await shot(page, "desktop-tournament-registering", true);
    await playToTheEnd(page, "desktop");
  });

  test("phone: the same on a phone", async ({ browser }) => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signIn(page, "Tourney Pia");
    await createSitAndGo(page, "Pia heads-up SNG");
    await playToTheEnd(page, "phone");
    await context.close();
  });
});
