/**
 * Layout: at every table size (2 to 10 seats) and at desktop (1440x900) and
 * phone (390x844) size, no two seats, their cards, their labels or the action
 * bar overlap, and every seat is on screen. Measured on a real table with bots
 * at the moment the decision bar is up, with a screenshot of each.
 */
import { expect, test, type Page } from "@playwright/test";
import { createTable, shot, signIn, sitDown, waitForTurn } from "./helpers";

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
// What belongs to a seat: its pod (avatar, name, stack, HUD), cards and the labels under it.
const PARTS = [".seat__pod", ".seat__cards", ".seat__action", ".seat__badge", ".seat__style", ".seat__hand-name"];

interface Box {
  owner: string;
  what: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boxes(page: Page): Promise<Box[]> {
  return page.evaluate((parts) => {
    const out: Box[] = [];
    for (const seat of document.querySelectorAll<HTMLElement>(".seat:not(.seat--empty)")) {
      const owner = seat.dataset.seat ?? "?";
      for (const part of parts) {
        for (const el of seat.querySelectorAll<HTMLElement>(part)) {
          const r = el.getBoundingClientRect();
          if (r.width && r.height) out.push({ owner: `seat ${owner}`, what: part, x: r.x, y: r.y, width: r.width, height: r.height });
        }
      }
    }
    const bar = document.querySelector<HTMLElement>('[data-testid="action-bar"]');
    if (bar) {
      const r = bar.getBoundingClientRect();
      out.push({ owner: "action bar", what: "action bar", x: r.x, y: r.y, width: r.width, height: r.height });
    }
    return out;
  }, PARTS);
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function problems(all: Box[], view: { width: number; height: number }): string[] {
  const found: string[] = [];
  for (const [i, a] of all.entries()) {
    if (a.x < -1 || a.y < -1 || a.x + a.width > view.width + 1) found.push(`${a.owner} ${a.what} is off screen`);
    for (const b of all.slice(i + 1)) {
      // A seat's own parts stack on purpose (its cards tuck under its pod).
      if (a.owner !== b.owner && overlap(a, b) > 4) found.push(`${a.owner} ${a.what} overlaps ${b.owner} ${b.what}`);
    }
  }
  return found;
}

test.describe.serial("no overlaps at any table size", () => {
  test.setTimeout(600_000);

  test("2 to 10 seats, desktop and phone", async ({ page }) => {
    await signIn(page, "Layout Lena");
    const report: string[] = [];
    for (let seats = 2; seats <= 10; seats += 1) {
      await page.setViewportSize(SIZES.desktop);
      await createTable(page, { name: `Layout ${seats}`, bots: Array(seats - 1).fill("calling-station"), seats });
      await sitDown(page);
      await waitForTurn(page);
      for (const [name, size] of Object.entries(SIZES)) {
        await page.setViewportSize(size);
        await expect(page.getByTestId("action-bar")).toBeVisible();
        await expect(page.locator(".seat:not(.seat--empty)")).toHaveCount(seats);
        await shot(page, `layout-${seats}-seats-${name}`);
        for (const p of problems(await boxes(page), size)) report.push(`${seats} seats, ${name}: ${p}`);
      }
      await page.setViewportSize(SIZES.desktop);
      // Leave the seat, so the table (bots alone) stops dealing while the next ones are measured.
      page.once("dialog", (dialog) => void dialog.accept());
      await page.getByTestId("stand-up").click();
      await expect(page.locator('[data-me="true"]')).toHaveCount(0);
      await page.getByTestId("back-to-lobby").click();
    }
    expect(report).toEqual([]);
  });
});
