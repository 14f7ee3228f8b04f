/**
 * Poker night (#34) in a real browser: the host (desktop) hosts a private game with a
 * bot, revokes its invite link and makes a new one, and asks for approval of seats; a
 * friend (phone) opens the new link and asks for a seat, and the host approves from the
 * prompt over the table. The host adjusts the friend's stack, changes the blinds, sets
 * the ante, the time bank and the bot's style, and removes the bot; they play a hand and
 * the new blinds show from the next; the ledger and its settle-up show on both screens,
 * its CSV downloads, and the hands download as PokerStars text from the replay and from
 * "My hands". Screenshots in test-results/screenshots/pokernight-*.png.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { checkOrCall, handNo, shot, signIn, sitDown } from "./helpers";

const PHONE = { width: 390, height: 844 };

async function hostPrivateGame(page: Page, name: string): Promise<string> {
  await page.getByTestId("nav-lobby").click();
  await page.getByTestId("open-create-table").click();
  const form = page.getByTestId("create-table-form");
  const retry = test.info().retry;
  await form.getByTestId("ct-name").fill(retry ? `${name} (retry ${retry})` : name);
  await form.getByTestId("ct-seats").fill("4");
  await form.getByTestId("ct-bot-count").selectOption("1");
  await form.getByTestId("ct-bot-style-0").selectOption("calling-station");
  await form.getByTestId("ct-timeout").fill("30");
  await form.getByTestId("ct-private").check({ force: true });
  await form.getByTestId("ct-submit").click();
  await expect(page.getByTestId("table-screen")).toBeVisible();
  await sitDown(page);
  await page.getByTestId("tab-host").click();
  const link = await page.getByTestId("invite-link").inputValue();
  expect(link).toContain("invite=");
  return link;
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(file, "utf-8") };
}

/**
 * Both players check or call until hand `target` is over: each step waits for the
 * hand's end or a player's turn (not for the clock), bounded by decisions.
 */
async function playTo(pages: Page[], target: number): Promise<void> {
  const first = pages[0]!;
  const over = async () => {
    const current = await handNo(first);
    return current > target || (current === target && !(await first.getByTestId("action-bar").isVisible()) && (await first.getByTestId("hand-result").isVisible()));
  };
  const someoneToAct = async () => {
    for (const page of pages) if (await page.getByTestId("action-bar").isVisible()) return true;
    return false;
  };
  for (let decisions = 0; ; decisions += 1) {
    expect(decisions, `decisions without hand ${target} ending`).toBeLessThan(40);
    await expect.poll(async () => (await over()) || (await someoneToAct()), { timeout: 60_000 }).toBe(true);
    if (await over()) return;
    for (const page of pages) await checkOrCall(page);
  }
}

test.describe.serial("a home game: host, invite, approval, ledger, exports", () => {
  test.setTimeout(240_000);
  let browser: Browser;
  let host: Page;
  let friend: Page;

  test.beforeAll(async ({ browser: b }) => {
    browser = b;
    host = await (await browser.newContext()).newPage();
    friend = await (await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })).newPage();
  });
  test.afterAll(async () => {
    await host.context().close();
    await friend.context().close();
  });

  test("a friend opens the link on a phone and is seated on the host's approval", async () => {
    await signIn(host, "Hana");
    const first = await hostPrivateGame(host, "Friday night");
    // The host revokes the link and makes a new one: the friend gets the new one.
    await host.getByTestId("host-invite-revoke").click();
    await expect(host.getByTestId("invite-none")).toBeVisible();
    await host.getByTestId("host-invite-new").click();
    await expect(host.getByTestId("invite-link")).toHaveValue(/invite=/);
    const link = await host.getByTestId("invite-link").inputValue();
    expect(link).not.toBe(first);
    await host.getByTestId("host-pause").click();
    await expect(host.getByTestId("host-pause")).toHaveText("Resume the game");
    // Checked once the server says so: a setting applies between hands, so the host
    // plays out a hand dealt meanwhile (the game pauses after it); bounded by decisions.
    const approve = host.getByTestId("host-approve-seats");
    await approve.click();
    for (let decisions = 0; ; decisions += 1) {
      expect(decisions, "decisions before the hand in progress ends").toBeLessThan(20);
      const settled = async () => (await approve.isChecked()) || (await host.getByTestId("action-bar").isVisible());
      await expect.poll(settled, { timeout: 60_000 }).toBe(true);
      if (await approve.isChecked()) break;
      await checkOrCall(host);
    }

    await signIn(friend, "Finn");
    await friend.goto(link);
    await expect(friend.getByTestId("table-screen")).toBeVisible();
    const empty = friend.locator('[data-testid^="sit-"]:not([data-testid="sit-out"]):not([data-testid="sit-back"])').first();
    await empty.click();
    await friend.getByTestId("buyin-dialog").getByTestId("buyin-confirm").click();
    await expect(friend.getByTestId("seat-request-pending")).toContainText("waiting for the host to approve");
    const prompt = host.getByTestId("join-requests");
    await expect(prompt).toContainText("Finn asks to sit in seat");
    await shot(host, "pokernight-desktop-join-request");
    await prompt.getByRole("button", { name: "Approve" }).click();
    await expect(friend.locator('[data-me="true"]')).toBeVisible();
    await expect(prompt).toBeHidden();
    await expect(friend.getByTestId("seat-request-pending")).toBeHidden();
    await shot(friend, "pokernight-phone-seated");
  });

  test("the host adjusts a stack, changes the blinds, the ante, the time bank and the bot's style, removes the bot", async () => {
    const seat = Number(await friend.locator('[data-me="true"]').getAttribute("data-seat"));
    const before = await host.getByTestId(`stack-${seat}`).textContent();
    await host.getByTestId(`host-adjust-amount-${seat}`).fill("250");
    await host.getByTestId(`host-adjust-${seat}`).click();
    await expect(host.getByTestId(`stack-${seat}`)).not.toHaveText(before ?? "");
    const panel = host.getByTestId("host-panel");
    await panel.getByLabel("Small blind", { exact: true }).fill("10");
    await panel.getByLabel("Big blind", { exact: true }).fill("20");
    await host.getByTestId("host-ante").fill("5");
    await host.getByTestId("host-time-bank").fill("45");
    await host.getByTestId("host-blinds").click();
    const botStyle = host.locator('[data-testid^="host-bot-style-"]').first();
    const botSeat = Number((await botStyle.getAttribute("data-testid"))!.replace("host-bot-style-", ""));
    await botStyle.selectOption("rational");
    await expect(botStyle).toHaveValue("rational");
    await shot(host, "pokernight-desktop-host-panel");
    // The bot goes now, or at the end of a hand it is in: the game is paused between hands.
    await host.getByTestId(`host-remove-${botSeat}`).click();
    await host.getByTestId("host-pause").click();
    await expect(host.getByTestId("host-pause")).toHaveText("Pause the game");
    await playTo([host, friend], 1);
    await expect(host.getByTestId(`empty-seat-${botSeat}`)).toBeVisible({ timeout: 30_000 });
    await expect(host.getByTestId(`seat-${botSeat}`)).toHaveCount(0);
    await expect(host.getByTestId(`host-remove-${botSeat}`)).toHaveCount(0);
    // The new stakes show from the next hand on, on both screens.
    await expect(host.getByTestId("poker-table")).not.toHaveAttribute("data-hand", /^[01]$/, { timeout: 30_000 });
    await expect(host.locator(".table-screen__title")).toContainText("No-Limit · 10/20 · ante 5");
    await expect(friend.locator(".table-screen__title")).toContainText("10/20");
  });

  test("the ledger and its settle-up show on both screens; the CSV downloads", async () => {
    await host.getByTestId("tab-ledger").click();
    const ledger = host.getByTestId("ledger");
    await expect(ledger).toBeVisible();
    await expect(host.getByTestId("ledger-total")).toHaveText("0");
    await expect(ledger).toContainText("Finn");
    await expect(ledger).toContainText("Hana");
    // Someone may owe someone after the hands played, or the night may be square.
    await expect(host.getByTestId("settle-up").or(host.getByTestId("settle-up-none"))).toBeVisible();
    const csv = await downloaded(host, () => host.getByTestId("ledger-csv").click());
    expect(csv.name).toMatch(/^ledger-.*\.csv$/);
    expect(csv.text).toContain("Finn");
    await shot(host, "pokernight-desktop-ledger");
    await friend.getByTestId("tab-ledger").click();
    await expect(friend.getByTestId("ledger")).toBeVisible();
    await expect(friend.getByTestId("settle-up").or(friend.getByTestId("settle-up-none"))).toBeVisible();
    await friend.getByTestId("ledger").scrollIntoViewIfNeeded();
    // On a phone the columns scroll inside the ledger; the page itself does not widen.
    const wide = await friend.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    expect(wide).toBe(false);
    await shot(friend, "pokernight-phone-ledger");
  });

  test("hands download as PokerStars text: one from the replay, all from My hands", async () => {
    // Finn sat down during a hand, so the hand now in play may be the first he was dealt
    // into: it is played out, so both players have a finished hand to list.
    await playTo([host, friend], await handNo(host));
    await host.goto("/#/hands");
    await expect(host.getByTestId("hands-page")).toBeVisible();
    const all = await downloaded(host, () => host.getByTestId("hands-export-pokerstars").click());
    expect(all.name).toBe("showdown-hands.txt");
    expect(all.text).toMatch(/^PokerStars Hand #\d+: {2}Hold'em No Limit/);
    expect(all.text).toContain("Dealt to Hana [");
    expect(all.text).not.toContain("Dealt to Finn");
    await shot(host, "pokernight-desktop-my-hands");
    await friend.goto("/#/hands");
    // A hand is filed behind the table's path (nobody at the table waits for it): the
    // page is reloaded until the friend's hand is listed.
    await expect(async () => {
      await friend.reload();
      await expect(friend.getByTestId("hand-item").first()).toBeVisible({ timeout: 3000 });
    }).toPass({ timeout: 30_000 });
    await friend.getByTestId("hand-item").first().click();
    await expect(friend.getByTestId("replayer")).toBeVisible();
    const one = await downloaded(friend, () => friend.getByTestId("hand-export-ohh").click());
    expect(one.name).toMatch(/\.ohh$/);
    expect(JSON.parse(one.text).ohh.players.map((p: { name: string }) => p.name)).toContain("Finn");
    await shot(friend, "pokernight-phone-hand-export", true);
  });
});
