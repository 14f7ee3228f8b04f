/**
 * Statistics end to end, against a real `showdown serve`: the HUD under each
 * seat (bots have stats like anyone) with its popover and its off switch, a
 * player's profile with the results graph, and the lobby's leaderboard, with
 * screenshots at desktop (1440x900) and phone (390x844) size.
 */
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { createTable, playHands, shot, signIn, sitDown } from "./helpers";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const HUD_LINE = /^\d+\/\d+\/(\d+\.\d|–) \(\d[\d,]*\)$/;

test.describe.serial("statistics: HUD, profile and leaderboard", () => {
  let context: BrowserContext;
  let page: Page;
  let botId = "";

  test.beforeAll(async ({ browser }) => {
    context = await browser.newContext({ viewport: DESKTOP });
    page = await context.newPage();
    page.on("pageerror", (error) => console.log(`[page error] ${error.message}`));
  });

  test.afterAll(async () => {
    await context.close();
  });

  test("every seat shows its HUD line once hands are filed, and a popover on hover", async () => {
    await signIn(page, "Hud Hanna");
    await createTable(page, { name: "HUD table", bots: ["calling-station", "rational"], seats: 3 });
    await sitDown(page);
    await playHands(page, 2);
    const lines = page.locator(".seat-hud__line");
    await expect(lines).toHaveCount(3); // two bots and me
    const filed = async () => (await lines.allTextContents()).map((text) => HUD_LINE.test(text.trim()));
    await expect.poll(filed, { timeout: 20_000 }).toEqual([true, true, true]);
    // The figures are fetched again once the server has counted the hands (its `stats`
    // message), not at a hand's end, which is before that. We do not act meanwhile: a
    // table waiting on our turn ends no hand, so only that message brings the last one.
    const myHud = page.locator('[data-testid^="seat-"][data-me] [data-testid^="hud-"]').first();
    const myId = ((await myHud.getAttribute("data-testid")) ?? "").replace(/^hud-/, "");
    const hudHands = async () => Number(/\((\d[\d,]*)\)$/.exec((await myHud.locator(".seat-hud__line").textContent())?.trim() ?? "")?.[1]?.replace(/,/g, ""));
    const countedHands = async () => ((await (await page.request.get(`/api/players/${myId}/stats`)).json()) as { total: { hands: number } }).total.hands;
    await expect.poll(async () => [await hudHands(), await countedHands()].join(" = "), { timeout: 20_000 }).toMatch(/^(\d+) = \1$/);
    const botHud = page.locator('[data-testid^="seat-"]:not([data-me]) [data-testid^="hud-bot"]').first();
    botId = ((await botHud.getAttribute("data-testid")) ?? "").replace(/^hud-/, "");
    expect(botId).toMatch(/^bot-/);
    await botHud.locator(".seat-hud__line").hover();
    const popover = page.getByTestId(`hud-popover-${botId}`);
    await expect(popover).toBeVisible();
    await expect(popover).toContainText("VPIP");
    await expect(popover).toContainText("W$SD");
    await shot(page, "stats-hud-desktop");
    await page.setViewportSize(PHONE);
    await expect(page.locator(".seat-hud__line").first()).toBeVisible();
    await shot(page, "stats-hud-phone");
    await page.setViewportSize(DESKTOP);
  });

  test("the HUD setting turns it off and on", async () => {
    await page.getByTestId("hud-toggle").uncheck();
    await expect(page.locator(".seat-hud")).toHaveCount(0);
    await page.getByTestId("hud-toggle").check();
    await expect(page.locator(".seat-hud__line")).toHaveCount(3);
  });

  test("a bot's profile shows its statistics and the results graph", async () => {
    await page.getByTestId(`hud-popover-${botId}`).evaluate((el) => el.parentElement?.classList.add("is-open"));
    await page.getByTestId(`hud-popover-${botId}`).getByRole("link").click();
    await expect(page.getByTestId("profile")).toBeVisible();
    expect(page.url()).toContain(`#/players/${botId}`);
    const table = page.getByTestId("stats-table");
    await expect(table.getByText("No-Limit 50/100")).toBeVisible();
    const chart = page.getByTestId("results-chart");
    // Four lines drawn: won, showdown, non-showdown and all-in EV.
    await expect(chart.locator("path.recharts-line-curve")).toHaveCount(4);
    await page.getByTestId("unit-chips").click();
    await expect(chart.getByText("won (chips)")).toBeVisible();
    await shot(page, "stats-profile-desktop", true);
    await page.setViewportSize(PHONE);
    await expect(chart.locator("path.recharts-line-curve")).toHaveCount(4);
    await shot(page, "stats-profile-phone", true);
    await page.setViewportSize(DESKTOP);
  });

  test("my own profile is in the menu", async () => {
    await page.getByTestId("nav-profile").click();
    await expect(page.getByTestId("profile")).toContainText("Hud Hanna");
    await expect(page.getByTestId("profile")).toContainText("you");
    await expect(page.getByTestId("stats-table").getByText("No-Limit 50/100")).toBeVisible();
  });

  test("the lobby's leaderboard ranks players of a game type by bb/100", async () => {
    await page.getByTestId("nav-lobby").click();
    const board = page.getByTestId("leaderboard");
    await expect(board).toBeVisible();
    await board.getByTestId("leaders-min-hands").selectOption("1");
    const rows = board.getByTestId("leader-row");
    // At least our table's three players (other specs' players may rank too: the top 20 show).
    await expect(rows.nth(2)).toBeVisible();
    const figures = (await rows.locator("td:last-child").allTextContents()).map((t) => Number(t.replace("+", "")));
    expect(figures).toEqual([...figures].sort((a, b) => b - a));
    await shot(page, "stats-leaderboard-desktop", true);
    await page.setViewportSize(PHONE);
    await expect(rows.first()).toBeVisible();
    await shot(page, "stats-leaderboard-phone", true);
    await page.setViewportSize(DESKTOP);
    // The leader's profile shows the same bb/100 (every spec plays No-Limit at 50/100 only).
    // The bots play on and file hands meanwhile, so the two are read until a pair agrees.
    const sameOnProfile = async (): Promise<boolean> => {
      await page.getByTestId("nav-lobby").click();
      await board.getByTestId("leaders-min-hands").selectOption("1");
      const leader = rows.first();
      const shown = (await leader.locator("td:last-child").textContent())?.trim() ?? "";
      await leader.getByRole("link").click();
      await expect(page.getByTestId("profile")).toBeVisible();
      const figure = page.getByTestId("stats-table").locator("tbody tr").first().locator("td").last();
      await expect(figure).not.toHaveText("");
      return ((await figure.textContent())?.trim() ?? "") === shown;
    };
    await expect.poll(sameOnProfile, { timeout: 30_000 }).toBe(true);
    // The Fixed-Limit board is asked for and shown on its own.
    await page.getByTestId("nav-lobby").click();
    await board.getByTestId("leaders-limit").click();
    await expect(board.getByTestId("leaders-limit")).toHaveClass("is-on");
    await expect(board.getByTestId("leader-row").or(board.getByText(/Nobody has played/)).first()).toBeVisible();
  });
});
