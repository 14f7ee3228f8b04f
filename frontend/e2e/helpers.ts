/** Steps the end-to-end tests share: sign in, create a table, sit, play, screenshots. */
import { expect, test, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const SCREENSHOTS = path.resolve(here, "..", "test-results", "screenshots");
mkdirSync(SCREENSHOTS, { recursive: true });

export async function shot(page: Page, name: string, fullPage = false): Promise<string> {
  const file = path.join(SCREENSHOTS, `${name}.png`);
  // The resting state, without waiting for it: Playwright finishes the running CSS
  // animations and transitions (and stops the endless ones) while it takes the picture.
  await page.screenshot({ path: file, fullPage, animations: "disabled" });
  return file;
}

export async function signIn(page: Page, name: string): Promise<void> {
  await page.goto("/");
  await page.getByTestId("signin-name").fill(name);
  await page.getByTestId("signin-submit").click();
  await expect(page.getByTestId("player-name")).toHaveText(name);
  await expect(page.getByTestId("lobby")).toBeVisible();
}

export interface TableSpec {
  name: string;
  bots: string[];
  seats?: number;
  variant?: "no-limit" | "limit";
  /** seconds per decision (30 unless given) */
  timeout?: number;
  /** Limit: bets per street, the opening bet included */
  raiseCap?: number;
}

/** Create a table through the lobby form; the app then offers a seat (buy-in dialog). */
export async function createTable(page: Page, spec: TableSpec): Promise<string> {
  await page.getByTestId("nav-lobby").click();
  await page.getByTestId("open-create-table").click();
  const form = page.getByTestId("create-table-form");
  // Open tables' names are unique: a retry (CI retries once) names its table apart from
  // the one its first attempt left open, or it fails on the name instead of the test.
  const retry = test.info().retry;
  await form.getByTestId("ct-name").fill(spec.name && retry ? `${spec.name} (retry ${retry})` : spec.name);
  if (spec.variant === "limit") await form.getByTestId("ct-variant-limit").check({ force: true });
  if (spec.seats) await form.getByTestId("ct-seats").fill(String(spec.seats));
  await form.getByTestId("ct-bot-count").selectOption(String(spec.bots.length));
  for (const [i, style] of spec.bots.entries()) {
    await form.getByTestId(`ct-bot-style-${i}`).selectOption(style);
  }
  await form.getByTestId("ct-timeout").fill(String(spec.timeout ?? 30));
  if (spec.raiseCap !== undefined) await form.getByTestId("ct-cap").fill(String(spec.raiseCap));
  await form.getByTestId("ct-submit").click();
  await expect(page.getByTestId("table-screen")).toBeVisible();
  const match = /#\/tables\/([^?]+)/.exec(page.url());
  expect(match, `table url: ${page.url()}`).not.toBeNull();
  return decodeURIComponent(match![1]!);
}

export async function sitDown(page: Page): Promise<number> {
  const dialog = page.getByTestId("buyin-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("buyin-confirm").click();
  const me = page.locator('[data-me="true"]');
  await expect(me).toBeVisible();
  return Number(await me.getAttribute("data-seat"));
}

export async function handNo(page: Page): Promise<number> {
  return Number((await page.getByTestId("poker-table").getAttribute("data-hand")) ?? "0");
}

export interface PlayReport {
  handsPlayed: number;
  showdowns: number[];
  decisions: number;
}

/** Another player's cards face up: the hand on the table went to a showdown. */
export const SHOWN_CARDS = '[data-testid^="seat-"]:not([data-me]) [data-card]:not([data-card="back"])';

/** The decision on screen (the bar's data-decision), or null when it is not our turn. */
export async function decisionOnScreen(page: Page): Promise<string | null> {
  return page.evaluate(() => document.querySelector('[data-testid="action-bar"]')?.getAttribute("data-decision") ?? null);
}

/**
 * Wait until the decision `key` is no longer on screen (the bar left, or shows the next
 * decision): after acting, so the next look does not act on the same decision twice.
 */
export async function decisionPassed(page: Page, key: string | null, timeoutMs = 15_000): Promise<void> {
  if (key === null) return;
  await page.waitForFunction(
    (k) => document.querySelector('[data-testid="action-bar"]')?.getAttribute("data-decision") !== k,
    key,
    { timeout: timeoutMs },
  );
}

/**
 * Play by checking or calling (so hands go to showdown) until `hands` hands have
 * finished; counts the hands that ended with another player's cards shown. Each step
 * waits for what the page shows (our turn, being busted, a showdown not yet counted,
 * or the hand after the last one), not for the clock; bounded by steps, not by time.
 */
export async function playHands(page: Page, hands: number): Promise<PlayReport> {
  const start = await handNo(page);
  const showdowns = new Set<number>();
  let decisions = 0;
  for (let steps = 0; ; steps += 1) {
    expect(steps, `steps to play ${hands} hands`).toBeLessThan(hands * 40);
    // One round trip per step: the page answers what it shows once there is something to do.
    const seen = await page.waitForFunction(
      ({ first, hands, counted, shown }) => {
        const visible = (selector: string) => Boolean(document.querySelector(selector)?.checkVisibility());
        const hand = Number(document.querySelector('[data-testid="poker-table"]')?.getAttribute("data-hand") ?? "0");
        const rebuy = document.querySelector<HTMLButtonElement>('[data-testid="rebuy"]');
        const state = {
          hand,
          turn: visible('[data-testid="action-bar"]'),
          busted: Boolean(rebuy && !rebuy.disabled && rebuy.textContent?.trim() === "Rebuy"),
          showdown: visible('[data-testid="hand-result"]') && visible(shown),
        };
        const act = state.turn || state.busted || hand - first >= hands || (state.showdown && !counted.includes(hand));
        return act ? state : false;
      },
      { first: start, hands, counted: [...showdowns], shown: SHOWN_CARDS },
      { timeout: 60_000 },
    );
    const state = (await seen.jsonValue()) as { hand: number; turn: boolean; busted: boolean; showdown: boolean };
    if (state.showdown) showdowns.add(state.hand);
    if (state.hand - start >= hands && !state.turn) {
      // The hand that started after the target count proves the last one finished.
      return { handsPlayed: state.hand - start, showdowns: [...showdowns], decisions };
    }
    if (state.busted) await rebuyIfBusted(page);
    else if (state.turn && (await checkOrCall(page))) decisions += 1;
  }
}

/**
 * Check, or call, if it is our turn now; whether we acted. Having acted, it waits for
 * that decision to pass, so a caller looking again does not act on it twice.
 */
export async function checkOrCall(page: Page): Promise<boolean> {
  const decision = await decisionOnScreen(page);
  if (decision === null) return false;
  const check = page.getByTestId("act-check");
  try {
    await ((await check.isVisible()) ? check : page.getByTestId("act-call")).click({ timeout: 2000 });
  } catch {
    /* the turn moved on between the look and the click */
    return false;
  }
  await decisionPassed(page, decision);
  return true;
}

/** Calling everything down loses chips: rebuy (which also sits us back in) when busted. */
export async function rebuyIfBusted(page: Page): Promise<boolean> {
  const rebuy = page.getByTestId("rebuy");
  if (!(await rebuy.isVisible()) || !(await rebuy.isEnabled()) || (await rebuy.textContent())?.trim() !== "Rebuy") return false;
  await rebuy.click();
  const dialog = page.getByTestId("rebuy-dialog");
  await dialog.getByTestId("buyin-confirm").click();
  await expect(page.getByTestId("rebuy")).not.toHaveText("Rebuy", { timeout: 10_000 });
  return true;
}

/**
 * Wait until it is our turn (the decision bar is up), rebuying if we bust meanwhile:
 * waits for what the page shows (the bar, or a Rebuy button that can be pressed), not
 * on a poll of the clock.
 */
export async function waitForTurn(page: Page, timeoutMs = 60_000): Promise<void> {
  const bar = page.getByTestId("action-bar");
  const busted = page.locator('[data-testid="rebuy"]:enabled', { hasText: /^\s*Rebuy\s*$/ });
  for (;;) {
    await expect(bar.or(busted).first()).toBeVisible({ timeout: timeoutMs });
    if (await bar.isVisible()) return;
    await rebuyIfBusted(page);
  }
}
