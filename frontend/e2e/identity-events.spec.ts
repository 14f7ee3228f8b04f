/**
 * The player's room (issue 14) end to end, against a real `showdown serve` and
 * Debian's Chromium: keeping one's name with a password (and what signing out
 * says without one), rebuys and top-ups as logged events with a cue at the seat
 * (a bot's after it busts too), showing cards won uncalled, and the chat
 * history a table sends to whoever joins later; screenshots at desktop
 * (1440x900) and phone (390x844) size for each.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { createTable, decisionOnScreen, decisionPassed, shot, signIn, sitDown } from "./helpers";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.log(`[page error] ${error.message}`));
  return { context, page };
}

/** Both sizes of the same moment; on the phone, `focus` (below the table there) is scrolled into view. */
async function shots(page: Page, name: string, focus?: string): Promise<void> {
  await shot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  if (focus) await page.getByTestId(focus).scrollIntoViewIfNeeded();
  await shot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/**
 * Press the first of `ids` that shows, if it is our turn, then wait for that decision
 * to pass (so the next look does not act on it twice).
 */
async function act(page: Page, ids: string[]): Promise<void> {
  const decision = await decisionOnScreen(page);
  for (const id of ids) {
    const button = page.getByTestId(id);
    if (!(await button.isVisible())) continue;
    try {
      await button.click({ timeout: 2000 });
    } catch {
      return; // the turn moved on between the look and the click
    }
    await decisionPassed(page, decision);
    return;
  }
}

test("a password keeps the name: sign out, come back as the same player; a new guest cannot take it", async ({ browser }) => {
  const { context, page } = await newPage(browser);
  const name = `Nadia ${Date.now() % 100000}`;
  await signIn(page, name);
  const profile = await page.getByTestId("nav-profile").getAttribute("href");
  await expect(page.getByTestId("guest-tag")).toBeVisible();
  // Signing out as a guest says what it does, before doing it.
  await page.getByTestId("sign-out").click();
  const dialog = page.getByTestId("account-dialog");
  await expect(dialog.getByTestId("account-status")).toContainText(`you will not be able to come back as ${name} unless you set a password`);
  await shots(page, "identity-sign-out-warning");
  await dialog.getByTestId("password-new").fill("correct horse");
  await dialog.getByTestId("password-again").fill("correct horse");
  await dialog.getByTestId("password-submit").click();
  await expect(dialog.getByTestId("password-done")).toBeVisible();
  await expect(dialog.getByTestId("account-status")).toContainText("protected by a password");
  await shots(page, "identity-password-set");
  await dialog.getByTestId("sign-out-confirm").click();
  await expect(page.getByTestId("signin-form")).toBeVisible();
  // This browser knows the name is protected: the form asks for its password.
  await expect(page.getByTestId("signin-name")).toHaveValue(name);
  await expect(page.getByTestId("signin-password")).toBeVisible();
  // A new guest with the name is sent to the password.
  await page.getByTestId("signin-mode").click();
  await expect(page.getByTestId("signin-password")).toHaveCount(0);
  await page.getByTestId("signin-name").fill(name.toUpperCase());
  await page.getByTestId("signin-submit").click();
  await expect(page.getByTestId("signin-error")).toContainText("protected by a password");
  await expect(page.getByTestId("signin-password")).toBeVisible();
  await page.getByTestId("signin-password").fill("wrong password");
  await page.getByTestId("signin-submit").click();
  await expect(page.getByTestId("signin-error")).toContainText("wrong password");
  await shots(page, "identity-sign-in-password");
  await page.getByTestId("signin-password").fill("correct horse");
  await page.getByTestId("signin-submit").click();
  await expect(page.getByTestId("player-name")).toHaveText(name);
  // The same player: the same profile, so the same statistics and hands.
  await expect(page.getByTestId("nav-profile")).toHaveAttribute("href", profile!);
  await expect(page.getByTestId("guest-tag")).toHaveCount(0);
  await context.close();
});

test("a top-up and a bot's rebuy are logged, with a cue at the seat", async ({ browser }) => {
  const { context, page } = await newPage(browser);
  await signIn(page, "Rita Rebuy");
  // Three equal stacks all-in three-way: whoever wins, a calling station busts.
  await createTable(page, { name: "Rebuy table", bots: ["calling-station", "calling-station"], seats: 3 });
  // Sit with less than the maximum, then top up between hands.
  const buyIn = page.getByTestId("buyin-dialog");
  await expect(buyIn).toBeVisible();
  await buyIn.getByRole("button", { name: "Min" }).click();
  await buyIn.getByTestId("buyin-confirm").click();
  const me = page.locator('[data-me="true"]');
  await expect(me).toBeVisible();
  const seat = Number(await me.getAttribute("data-seat"));
  await page.getByTestId("tab-log").click();
  // Sit out (folding a hand dealt meanwhile), so the top-up is surely between hands.
  await page.getByTestId("sit-out").click();
  // Each step waits for the page (sitting out, or our turn), not for the clock.
  const sittingOut = page.locator('[data-me="true"][data-state="sitting_out"]');
  const bar = page.getByTestId("action-bar");
  for (let decisions = 0; !(await sittingOut.isVisible()); decisions += 1) {
    expect(decisions, "decisions before sitting out").toBeLessThan(20);
    await expect(sittingOut.or(bar).first()).toBeVisible({ timeout: 60_000 });
    if (await bar.isVisible()) await act(page, ["act-fold", "act-check"]);
  }
  await expect(me).toHaveAttribute("data-state", "sitting_out");
  await expect(page.getByTestId("rebuy")).toBeEnabled();
  await page.getByTestId("rebuy").click();
  await page.getByTestId("rebuy-dialog").getByTestId("buyin-confirm").click();
  await expect(page.getByTestId(`cue-${seat}`)).toContainText("top-up");
  await expect(page.getByTestId("hand-log")).toContainText("Rita Rebuy tops up");
  await shots(page, "events-top-up");
  await page.getByTestId("sit-back").click();
  // All-in every hand against the calling stations until one busts (rebuying when we do).
  // Each step waits for the page (the bot's rebuy, our turn, or our own bust), not for
  // the clock; bounded by decisions.
  const botRebuy = page.getByTestId("notice").filter({ hasText: "rebuys" }).filter({ hasNotText: "Rita" });
  const busted = page.locator('[data-testid="rebuy"]:enabled', { hasText: /^\s*Rebuy\s*$/ });
  for (let decisions = 0; !(await botRebuy.count()); decisions += 1) {
    expect(decisions, "decisions without a bot rebuying").toBeLessThan(150);
    await expect(botRebuy.or(bar).or(busted).first()).toBeVisible({ timeout: 60_000 });
    if (await botRebuy.count()) break;
    if (await busted.isVisible()) {
      await busted.click();
      await page.getByTestId("rebuy-dialog").getByTestId("buyin-confirm").click();
      await expect(page.getByTestId("rebuy")).not.toHaveText("Rebuy", { timeout: 10_000 });
      continue;
    }
    const allIn = page.getByTestId("size-all-in");
    const shove = await allIn.isVisible() && (await allIn.click({ timeout: 2000 }).then(() => true, () => false));
    await act(page, shove ? ["act-raise"] : ["act-call", "act-check"]);
  }
  await expect(botRebuy.first()).toBeVisible();
  const text = (await botRebuy.first().textContent()) ?? "";
  expect(text).toMatch(/rebuys [\d,]+ \(stack [\d,]+\)/);
  await shots(page, "events-bot-rebuy", "hand-log");
  await context.close();
});

test("won uncalled: muck by default, show on request, or always", async ({ browser }) => {
  const { context, page } = await newPage(browser);
  await signIn(page, "Sam Show");
  await createTable(page, { name: "Show table", bots: ["always-fold"], seats: 2 });
  await sitDown(page);
  await page.getByTestId("tab-log").click();
  /**
   * Ask to sit out during a hand (it applies when the hand ends, so no next hand is
   * dealt while we look: the pause is short) and raise when we can: the bot folds,
   * and as the big blind we win its small blind. A hand that ends before the request,
   * or that the bot did not fold, is simply followed by the next one.
   */
  async function winUncalled(): Promise<void> {
    const bar = page.getByTestId("show-bar");
    const me = page.locator('[data-me="true"]');
    const sitOut = page.getByTestId("sit-out");
    const sitBack = page.getByTestId("sit-back");
    const out = async () => (await me.getAttribute("data-state")) === "sitting_out";
    const done = async () => (await out()) && (await bar.isVisible());
    // Each step waits for something to do (not for the clock); bounded by steps.
    const somethingToDo = async () =>
      (await done()) ||
      ((await out()) && (await sitBack.isVisible())) ||
      ((await page.getByTestId("my-cards").isVisible()) && (await sitOut.isEnabled().catch(() => false))) ||
      (await page.getByTestId("action-bar").isVisible());
    for (let steps = 0; !(await done()); steps += 1) {
      expect(steps, "steps without winning a hand uncalled").toBeLessThan(100);
      await expect.poll(somethingToDo, { timeout: 60_000 }).toBe(true);
      if (await done()) break;
      try {
        // A hand the bot did not fold (an AI worker too slow: the fallback policy played):
        // back in for the next one.
        if (await out()) await sitBack.click({ timeout: 2000 });
        if ((await page.getByTestId("my-cards").isVisible()) && (await sitOut.isEnabled())) await sitOut.click({ timeout: 2000 });
      } catch {
        /* the hand moved on between the look and the click */
      }
      await act(page, ["act-raise", "act-check"]);
    }
    await expect(me).toHaveAttribute("data-state", "sitting_out");
    await expect(bar).toBeVisible();
  }
  await winUncalled();
  await expect(page.getByTestId("show-bar")).toContainText("your cards stay hidden unless you show them");
  await expect(page.getByTestId("hand-log")).not.toContainText("Sam Show shows");
  await shots(page, "show-uncalled-choice");
  await page.getByTestId("show-cards").click();
  await expect(page.getByTestId("hand-log")).toContainText(/Sam Show shows (10|[2-9JQKA])/);
  await expect(page.getByTestId("show-bar")).toContainText("Your cards are shown to the table.");
  await shot(page, "show-uncalled-desktop");
  // The standing choice: the next hand won uncalled is shown with its result.
  await page.getByTestId("show-uncalled-always").check();
  const shownHand = Number(await page.getByTestId("poker-table").getAttribute("data-hand"));
  await page.getByTestId("sit-back").click();
  await expect.poll(async () => Number(await page.getByTestId("poker-table").getAttribute("data-hand")), { timeout: 30_000 }).toBeGreaterThan(shownHand);
  await page.setViewportSize(PHONE);
  await winUncalled();
  await expect(page.getByTestId("show-bar")).toContainText("Your cards are shown to the table.");
  await expect(page.getByTestId("show-cards")).toHaveCount(0);
  await shot(page, "show-uncalled-phone");
  await context.close();
});

test("chat history: who joins later sees the table's last lines", async ({ browser }) => {
  const first = await newPage(browser);
  await signIn(first.page, "Cora Chat");
  const tableId = await createTable(first.page, { name: "Chat table", bots: ["rational"], seats: 4 });
  await first.page.getByTestId("buyin-dialog").getByRole("button", { name: "Cancel" }).click();
  await first.page.getByTestId("tab-chat").click();
  for (const line of ["anyone around?", "the bot is tough", "see you later"]) {
    await first.page.getByTestId("chat-input").fill(line);
    await first.page.getByTestId("chat-send").click();
    await expect(first.page.getByTestId("chat")).toContainText(line);
  }
  const later = await newPage(browser);
  await signIn(later.page, "Leo Later");
  await later.page.goto(`/#/tables/${encodeURIComponent(tableId)}?watch=1`);
  await expect(later.page.getByTestId("table-screen")).toBeVisible();
  await later.page.getByTestId("tab-chat").click();
  await expect(later.page.getByTestId("chat-earlier")).toBeVisible();
  await expect(later.page.locator('[data-testid="chat-line"][data-history="true"]')).toHaveText([
    "Cora Chat anyone around?",
    "Cora Chat the bot is tough",
    "Cora Chat see you later",
  ]);
  await first.page.getByTestId("chat-input").fill("welcome Leo");
  await first.page.getByTestId("chat-send").click();
  await expect(later.page.locator('[data-testid="chat-line"]:not([data-history])')).toHaveText(["Cora Chat welcome Leo"]);
  await shots(later.page, "chat-history", "chat");
  await first.context.close();
  await later.context.close();
});
