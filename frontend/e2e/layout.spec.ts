/**
 * Layout: at every table size (2 to 10 seats; `make test` samples 2, 7 and 10) and at desktop (1440x900) and
 * phone (390x844) size, nothing on the table covers what a player must read.
 * Measured on a real table with bots, twice per size:
 *  - while the decision bar is up: no two seats, their cards, their labels, the
 *    bets or the action bar overlap, every seat is on screen, and the turn clock
 *    leaves the player's name readable;
 *  - at the hand's showdown result: the "+N" win labels, the chips flying to the
 *    winners (where they land) and the board clear every seat (the winner's own
 *    cards and name included), and the board stays where it was during the hand
 *    however many lines the result takes.
 * With a screenshot of each. And, deterministically (a result sent over the
 * table's socket, not a split pot left to chance), a showdown with one, two and
 * three winner lines at every table size, on a desktop and a phone, watched and
 * seated (your own cards, drawn larger, at the bottom): the first board card stays
 * in sight, the board stays where a one-line result leaves it, and nothing overlaps.
 */
import { expect, test, type Page, type WebSocketRoute } from "@playwright/test";
import { checkOrCall, createTable, shot, signIn, sitDown, waitForTurn } from "./helpers";

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
type SizeName = keyof typeof SIZES;
// What belongs to a seat: its pod (avatar, name, stack, HUD), cards and the labels under it.
const PARTS = [".seat__pod", ".seat__cards", ".seat__action", ".seat__badge", ".seat__style", ".seat__hand-name", ".seat__bet", ".seat__name", ".turn-clock"];
// A seat's own parts stack on purpose (its cards tuck under its pod), except these pairs.
const OWN_CLASHES: [string, string][] = [[".turn-clock", ".seat__name"]];
// Every table size is measured by `make test-full` (LAYOUT_FULL=1); `make test` measures a
// fixed sample: the smallest and largest table and an odd one between (the chips fly at
// phone size for even sizes, at desktop size for odd ones). `LAYOUT_SEATS=4,9` measures
// only those sizes (while working on one).
const ALL_SIZES = "2,3,4,5,6,7,8,9,10";
const SAMPLED_SIZES = "2,7,10";
const TABLE_SIZES = (process.env.LAYOUT_SEATS ?? (process.env.LAYOUT_FULL === "1" ? ALL_SIZES : SAMPLED_SIZES)).split(",").map(Number);
// The two tests below are the longest of the run and share nothing (each signs in its own
// player and opens its own tables): they may go to both workers, not one after the other.
test.describe.configure({ mode: "parallel" });

interface Box {
  owner: string;
  what: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Measured {
  boxes: Box[];
  view: { width: number; height: number };
}

/**
 * Puts `window.__measure` in the page: every box that matters, with the
 * animations that end somewhere (the win labels, the flying chips, the result
 * popping in) measured where they end. And measures the table each time chips start to fly (they
 * are gone 1.4 s later), into `window.__landings`.
 */
async function installMeasure(page: Page): Promise<void> {
  await page.evaluate((parts) => {
    const w = window as unknown as { __measure: () => Measured; __landings: Measured[] };
    w.__measure = () => {
      const out: Box[] = [];
      const add = (owner: string, what: string, el: Element) => {
        const r = el.getBoundingClientRect();
        if (r.width && r.height) out.push({ owner, what, x: r.x, y: r.y, width: r.width, height: r.height });
      };
      for (const el of document.querySelectorAll<HTMLElement>('.flyer, [data-testid^="won-"], [data-testid="hand-result"]')) {
        for (const animation of el.getAnimations()) {
          const end = Number(animation.effect?.getComputedTiming().endTime ?? 0);
          animation.pause();
          animation.currentTime = Math.max(0, end - 1);
        }
      }
      for (const seat of document.querySelectorAll<HTMLElement>(".seat:not(.seat--empty)")) {
        const owner = `seat ${seat.dataset.seat ?? "?"}`;
        for (const part of parts) for (const el of seat.querySelectorAll(part)) add(owner, part, el);
      }
      for (const el of document.querySelectorAll<HTMLElement>(".bet")) add(`bet ${el.dataset.testid ?? ""}`, ".bet", el);
      for (const el of document.querySelectorAll<HTMLElement>('[data-testid^="won-"]')) add(`win ${el.dataset.testid ?? ""}`, "win label", el);
      // A flying chip may pass under a seat, never over it: where it overlaps a seat's
      // pod, name or cards, what is on top there must be the seat's.
      const seatParts = [...document.querySelectorAll<HTMLElement>(".seat:not(.seat--empty) :is(.seat__pod, .seat__cards)")];
      for (const [i, el] of [...document.querySelectorAll<HTMLElement>(".flyer")].entries()) {
        const f = el.getBoundingClientRect();
        let covers = "";
        el.style.pointerEvents = "auto";
        for (const part of seatParts) {
          const r = part.getBoundingClientRect();
          const x0 = Math.max(f.left, r.left);
          const x1 = Math.min(f.right, r.right);
          const y0 = Math.max(f.top, r.top);
          const y1 = Math.min(f.bottom, r.bottom);
          if (x1 - x0 < 2 || y1 - y0 < 2) continue;
          const top = document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
          if (top && el.contains(top)) covers = ` covering seat ${part.closest<HTMLElement>(".seat")?.dataset.seat ?? "?"}`;
        }
        el.style.pointerEvents = "";
        add(`flyer ${i}`, `.flyer${covers}`, el);
      }
      for (const el of document.querySelectorAll('[data-testid="board"], [data-testid="hand-result"]')) add("board", el.getAttribute("data-testid")!, el);
      for (const el of document.querySelectorAll('[data-testid="action-bar"], [data-testid="pre-actions"]')) add("action bar", "action bar", el);
      return { boxes: out, view: { width: window.innerWidth, height: window.innerHeight } };
    };
    w.__landings = [];
    new MutationObserver((records) => {
      const flying = records.some((r) => [...r.addedNodes].some((n) => n instanceof HTMLElement && n.classList.contains("flyer")));
      if (flying) w.__landings.push(w.__measure());
    }).observe(document.body, { childList: true, subtree: true });
  }, PARTS);
}

async function boxes(page: Page): Promise<Box[]> {
  return page.evaluate(() => (window as unknown as { __measure: () => Measured }).__measure().boxes);
}

interface ResultShown {
  boxes: Box[];
  /** The first board card: whether what is drawn at its centre is another element (which), and whether it is on screen. */
  firstCard: { covered: boolean; inView: boolean; by: string };
}

/**
 * Wait until the page shows the result sent: `lines` winner lines (data-winners and as
 * many "+N" labels), your seat or none, the board's first card the sent one and at rest;
 * then, in the same look, measure it (one round trip a result: the page is looked at
 * each frame).
 */
async function resultShown(page: Page, lines: number, seated: boolean, where: string): Promise<ResultShown> {
  const want = { lines, me: seated ? 1 : 0, card: BOARD[0]! };
  const seen = page.waitForFunction((want) => {
    const shown = {
      winners: document.querySelector('[data-testid="hand-result"]')?.getAttribute("data-winners"),
      won: document.querySelectorAll('[data-testid^="won-"]').length,
      me: document.querySelectorAll('[data-me="true"]').length,
    };
    const card = document.querySelector('[data-testid="board"] [data-card]');
    if (shown.winners !== String(want.lines) || shown.won !== want.lines || shown.me !== want.me || card?.getAttribute("data-card") !== want.card) return false;
    // A board dealt anew slides its cards in, seats glide to a new size's places, the
    // result pops in: look once everything that moves has come to rest (looping
    // animations aside). What moves is finished at once rather than waited for (its end
    // is where it rests), and looked at again on the next frame: a render it set off
    // starts its own motion, finished in turn.
    const moving = document.getAnimations().filter((a) => a.playState === "running" && a.effect?.getComputedTiming().iterations !== Infinity);
    if (moving.length) {
      for (const animation of moving) animation.finish();
      return false;
    }
    const boxes = (window as unknown as { __measure: () => Measured }).__measure().boxes;
    const r = card.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    const inView = r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
    const seat = top?.closest(".seat")?.getAttribute("data-seat");
    return { boxes, firstCard: { covered: !(top && card.contains(top)), inView, by: seat ? `seat ${seat}` : String(top?.className ?? "nothing") } };
  }, want, { timeout: 15_000 });
  try {
    return (await (await seen).jsonValue()) as ResultShown;
  } catch (error) {
    const now = await page.evaluate(() => ({
      winners: document.querySelector('[data-testid="hand-result"]')?.getAttribute("data-winners") ?? null,
      won: document.querySelectorAll('[data-testid^="won-"]').length,
      me: document.querySelectorAll('[data-me="true"]').length,
      card: document.querySelector('[data-testid="board"] [data-card]')?.getAttribute("data-card") ?? null,
    }));
    throw new Error(`${where}: expected ${JSON.stringify(want)} on the page, it shows ${JSON.stringify(now)} (${(error as Error).message})`, { cause: error });
  }
}

/** The measurements taken as chips flew since the last call. */
async function landings(page: Page): Promise<Measured[]> {
  return page.evaluate(() => (window as unknown as { __landings: Measured[] }).__landings.splice(0));
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

const ownClash = (a: Box, b: Box) => OWN_CLASHES.some(([x, y]) => (a.what === x && b.what === y) || (a.what === y && b.what === x));

function problems(all: Box[], view: { width: number; height: number }): string[] {
  const found: string[] = [];
  for (const [i, a] of all.entries()) {
    if (a.x < -1 || a.y < -1 || a.x + a.width > view.width + 1) found.push(`${a.owner} ${a.what} is off screen`);
    for (const b of all.slice(i + 1)) {
      if (a.owner === b.owner && !ownClash(a, b)) continue;
      // Chips fly in and out of the middle of the table, under the seats: they only
      // must not be drawn over one (measured in boxes()).
      if (a.what.startsWith(".flyer") || b.what.startsWith(".flyer")) {
        const flyer = a.what.startsWith(".flyer") ? a : b;
        if (flyer.what !== ".flyer" && !found.includes(`${flyer.owner} ${flyer.what}`)) found.push(`${flyer.owner} ${flyer.what}`);
        continue;
      }
      if (overlap(a, b) > 4) found.push(`${a.owner} ${a.what} overlaps ${b.owner} ${b.what}`);
    }
  }
  return found;
}

function boardTop(all: Box[]): number {
  return all.find((b) => b.what === "board")?.y ?? Number.NaN;
}

/**
 * Check or call until the hand's result shows (calling stations never fold): waits for
 * the result or our turn, not for the clock; bounded by decisions (a hand has four streets).
 */
async function playToResult(page: Page): Promise<void> {
  const result = page.getByTestId("hand-result");
  const bar = page.getByTestId("action-bar");
  for (let decisions = 0; ; decisions += 1) {
    expect(decisions, "decisions without the hand's result").toBeLessThan(12);
    await expect(result.or(bar).first()).toBeVisible({ timeout: 60_000 });
    if (await result.isVisible()) return;
    await checkOrCall(page);
  }
}

test.describe.serial("no overlaps at any table size", () => {
  test.setTimeout(900_000);

  test("2 to 10 seats, desktop and phone, during a hand and at its showdown", async ({ page }) => {
    await signIn(page, "Layout Lena");
    await installMeasure(page);
    const report: string[] = [];
    for (const seats of TABLE_SIZES) {
      await page.setViewportSize(SIZES.desktop);
      await createTable(page, { name: `Layout ${seats}`, bots: Array(seats - 1).fill("calling-station"), seats });
      await sitDown(page);
      await waitForTurn(page);
      const liveBoard = new Map<SizeName, number>();
      for (const [name, size] of Object.entries(SIZES) as [SizeName, { width: number; height: number }][]) {
        await page.setViewportSize(size);
        await expect(page.getByTestId("action-bar")).toBeVisible();
        await expect(page.locator(".seat:not(.seat--empty)")).toHaveCount(seats);
        await expect(page.getByTestId("turn-clock")).toBeVisible();
        await shot(page, `layout-${seats}-seats-${name}`);
        const all = await boxes(page);
        liveBoard.set(name, boardTop(all));
        for (const p of problems(all, size)) report.push(`${seats} seats, ${name}: ${p}`);
      }
      // Sit out from the next hand: the bots alone are not dealt, so this hand's
      // result stays on the table to be measured. The chips fly to the winners at
      // the size the hand ends in (phone for even table sizes, desktop for odd).
      await page.getByTestId("sit-out").click();
      const endSize: SizeName = seats % 2 === 0 ? "phone" : "desktop";
      await page.setViewportSize(SIZES[endSize]);
      await landings(page); // what flew at the other size
      await playToResult(page);
      await expect(page.locator(".flyer")).toHaveCount(0);
      const flights = await landings(page);
      expect(flights.length, `${seats} seats: chips flew`).toBeGreaterThan(0);
      for (const flight of flights) {
        for (const p of problems(flight.boxes, flight.view)) {
          const line = `${seats} seats, ${endSize}, chips flying: ${p}`;
          if (!report.includes(line)) report.push(line);
        }
      }
      for (const [name, size] of Object.entries(SIZES) as [SizeName, { width: number; height: number }][]) {
        await page.setViewportSize(size);
        await expect(page.getByTestId("hand-result")).toBeVisible();
        await expect(page.locator('[data-testid^="won-"]').first()).toBeVisible();
        await shot(page, `layout-${seats}-seats-showdown-${name}`);
        const all = await boxes(page);
        for (const p of problems(all, size)) report.push(`${seats} seats, ${name}, showdown: ${p}`);
        const moved = Math.abs(boardTop(all) - liveBoard.get(name)!);
        if (!(moved <= 2)) report.push(`${seats} seats, ${name}, showdown: the board moved ${moved.toFixed(1)} px from where it was during the hand`);
      }
      await page.setViewportSize(SIZES.desktop);
      await page.getByTestId("stand-up").click();
      await expect(page.locator('[data-me="true"]')).toHaveCount(0);
      await page.getByTestId("back-to-lobby").click();
    }
    expect(report).toEqual([]);
  });
});

/** A state message as the server sends it (the fields this test reads and changes). */
interface StateMessage {
  type: "state";
  seq: number;
  view: {
    hand_no: number;
    seats: { seat: number; bet: number; hole_cards: string[] | null; [key: string]: unknown }[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

const BOARD = ["Ah", "Kd", "7c", "7s", "2h"];
const SHOWN = [
  ["Qh", "Qd"],
  ["Qs", "Qc"],
  ["Kh", "Kc"],
];
// The viewer's own cards, when it is not among the winners.
const MINE = ["9c", "9d"];
// The first winner's name: as long as a name may be, so that its line would wrap.
const LONG_NAME = "Maximiliana Fortescue-Worthington of the Eastern Marches";

/** The last state with every seat taken (the one kept for a person too), the hand over and
 * `winners` (seats) sharing the pot, their cards shown. */
function resultState(last: StateMessage, tableSeats: number, winners: number[], seq: number, viewer: number | null = null): StateMessage {
  const taken = new Map(last.view.seats.map((s) => [s.seat, s]));
  const model = last.view.seats[0]!;
  const everyone = Array.from({ length: tableSeats }, (_, i) => taken.get(i + 1) ?? { ...model, seat: i + 1, player_id: `split-${i + 1}`, name: `Player ${i + 1}` });
  const shown = Object.fromEntries(winners.map((seat, i) => [String(seat), SHOWN[i]!]));
  const mine = viewer !== null ? { [String(viewer)]: shown[String(viewer)] ?? MINE } : {};
  const share = 1_000;
  return {
    ...last,
    seq,
    cause: null,
    view: {
      ...last.view,
      hand_in_progress: false,
      street: null,
      actor: null,
      legal_actions: null,
      board: BOARD,
      pots: [],
      total_pot: 0,
      viewer_seat: viewer,
      seats: everyone.map((s) => ({
        ...s,
        name: s.seat === winners[0] ? LONG_NAME : s.name,
        bet: 0,
        hole_cards: shown[String(s.seat)] ?? mine[String(s.seat)] ?? s.hole_cards,
      })),
      last_result: {
        hand_no: last.view.hand_no,
        board: BOARD,
        shown,
        winnings: Object.fromEntries(winners.map((seat) => [String(seat), share])),
        net: Object.fromEntries(winners.map((seat) => [String(seat), share / 2])),
      },
    },
  };
}

test.describe("winner lines", () => {
  test.setTimeout(900_000);

  test("one to three winner lines leave the first board card in sight and overlap nothing, 2 to 10 seats, watched and seated", async ({ page }) => {
    // Every table socket goes through here: the server's messages pass on, and the
    // last state is kept so that a result can be sent after it.
    let socket: WebSocketRoute | null = null;
    let last: StateMessage | null = null;
    await page.routeWebSocket(/\/ws\/tables\//, (ws) => {
      const server = ws.connectToServer();
      socket = ws;
      last = null;
      ws.onMessage((m) => server.send(m));
      server.onMessage((m) => {
        const message = JSON.parse(String(m)) as { type?: string };
        if (message.type === "state") last = message as StateMessage;
        ws.send(m);
      });
    });
    await signIn(page, "Split Sam");
    await installMeasure(page);
    const report: string[] = [];
    for (const seats of TABLE_SIZES) {
      // Bots alone are not dealt: watched, the table stays as the result sent leaves it.
      await page.setViewportSize(SIZES.desktop); // (the phone's table screen has no header links)
      const tableId = await createTable(page, { name: `Split ${seats}`, bots: Array(seats - 1).fill("calling-station"), seats });
      await page.getByTestId("buyin-dialog").getByRole("button", { name: "Cancel" }).click(); // watch instead
      await page.getByTestId("nav-lobby").click();
      await page.locator(`[data-testid="table-row"][data-table-id="${tableId}"]`).getByTestId("watch-table").click();
      await expect(page.getByTestId("connection")).toHaveAttribute("data-status", "open");
      await expect.poll(() => (last as StateMessage | null)?.view.seats.length ?? 0).toBe(seats - 1);
      const state = last as unknown as StateMessage;
      const route = socket as unknown as WebSocketRoute;
      let seq = state.seq;
      for (const [name, size] of Object.entries(SIZES) as [SizeName, { width: number; height: number }][]) {
        await page.setViewportSize(size);
        // Seated as seat 1: the others' lines and cards around yours, at the bottom.
        for (const viewer of [null, 1]) {
          const as = viewer === null ? "watched" : "seated";
          // Each seat wins with the next ones round the table: every seat's line, at every place.
          for (let seat = 1; seat <= seats; seat += 1) {
            const winners = [seat, (seat % seats) + 1, ((seat + 1) % seats) + 1].slice(0, Math.min(3, seats));
            let oneLine = Number.NaN;
            for (let lines = 1; lines <= winners.length; lines += 1) {
              route.send(JSON.stringify(resultState(state, seats, winners.slice(0, lines), (seq += 1), viewer)));
              const where = `${seats} seats, ${name}, ${as}, ${lines} winner lines (seats ${winners.slice(0, lines).join(", ")})`;
              const { boxes: all, firstCard: onTop } = await resultShown(page, lines, viewer !== null, where);
              if (lines === 1) {
                oneLine = boardTop(all);
                continue;
              }
              if (seat === 1) await shot(page, `layout-${seats}-seats-${lines}-winners-${as}-${name}`);
              for (const p of problems(all, size)) report.push(`${where}: ${p}`);
              const moved = Math.abs(boardTop(all) - oneLine);
              if (!(moved <= 2)) report.push(`${where}: the board moved ${moved.toFixed(1)} px from where one line leaves it`);
              // The first board card is what is drawn at its own centre: no seat is on top of it.
              if (onTop.covered) report.push(`${where}: the first board card is hidden by ${onTop.by}`);
              if (!onTop.inView) report.push(`${where}: the first board card is off screen`);
            }
          }
        }
      }
      await page.setViewportSize(SIZES.desktop);
      await page.getByTestId("back-to-lobby").click();
    }
    expect(report).toEqual([]);
  });
});
