/**
 * The browser follows a table to its owner node (docs/cluster.md §3, "The browser follows
 * too"): a room of two nodes (`showdown serve --nodes 2`, started here: the run's shared
 * server is one process), a player on each node's page at the same table. The page on the
 * node that does not own the table opens its socket there with `?follow=1`, is sent on
 * (4010), and plays over a socket at the owner: its origin allowed there, the owner's
 * address in its page's connect-src (CLUSTER_URLS), its seat kept.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTable, handNo, signIn, sitDown } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");

function freePorts(): Promise<number> {
  // Two in a row (the nodes listen on P and P+1): P+1 is checked by the node itself.
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Room {
  child: ChildProcess;
  dataDir: string;
  urls: [string, string];
}

async function startRoom(): Promise<Room> {
  const bin = process.env.SHOWDOWN_BIN ?? path.join(repo, ".venv", "bin", "showdown");
  if (!existsSync(bin)) throw new Error(`no showdown command at ${bin} (set SHOWDOWN_BIN)`);
  const port = await freePorts();
  const dataDir = mkdtempSync(path.join(tmpdir(), "showdown-e2e-cluster-"));
  const child = spawn(bin, ["serve", "--nodes", "2", "--no-worker", "--port", String(port), "--data-dir", dataDir], {
    cwd: repo,
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
    env: { SHOWDOWN_BOT_DELAY_MS: "0", SHOWDOWN_HAND_PAUSE_MS: "1000", ...process.env, PYTHONUNBUFFERED: "1" },
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("2 nodes")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`serve --nodes 2 exited (${code}): ${out.slice(-2000)}`)));
  });
  return { child, dataDir, urls: [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`] };
}

async function stopRoom(room: Room): Promise<void> {
  const pid = room.child.pid;
  if (pid !== undefined && room.child.exitCode === null) {
    const exited = new Promise((resolve) => room.child.once("exit", resolve));
    process.kill(-pid, "SIGTERM");
    await exited;
  }
  rmSync(room.dataDir, { recursive: true, force: true });
}

async function pageOn(browser: Browser, url: string, sockets: string[]): Promise<Page> {
  const context = await browser.newContext({ baseURL: url });
  const page = await context.newPage();
  page.on("websocket", (ws) => sockets.push(ws.url()));
  return page;
}

test.describe("a room of two nodes", () => {
  let room: Room;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    room = await startRoom();
  });
  test.afterAll(async () => {
    if (room) await stopRoom(room);
  });

  test("the page on the node that does not own the table plays at the owner", async ({ browser }) => {
    const [n0, n1] = room.urls;
    const seen: [string[], string[]] = [[], []];
    const alice = await pageOn(browser, n0, seen[0]);
    const bob = await pageOn(browser, n1, seen[1]);
    await signIn(alice, "Alice");
    const tableId = await createTable(alice, { name: "Two nodes", bots: ["calling-station"] });
    await sitDown(alice);
    await signIn(bob, "Bob");
    await bob.goto(`/#/tables/${encodeURIComponent(tableId)}`);
    await expect(bob.getByTestId("poker-table")).toBeVisible();
    // Both pages are shown the hand dealt, over whatever socket they ended on.
    for (const page of [alice, bob]) {
      await expect.poll(() => handNo(page), { timeout: 60_000 }).toBeGreaterThan(0);
    }
    await expect(alice.locator('[data-me="true"]')).toBeVisible(); // the seat is kept
    // Exactly one page was on the other node: it asked to follow, and went to the owner.
    const path = `/ws/tables/${encodeURIComponent(tableId)}`;
    const moved = [0, 1].filter((i) => seen[i]!.some((url) => url.startsWith(room.urls[1 - i]!.replace("http", "ws") + path)));
    expect(moved, `sockets: ${JSON.stringify(seen)}`).toHaveLength(1);
    const follower = moved[0]!;
    expect(seen[follower]![0]).toContain(`${room.urls[follower]!.replace("http", "ws")}${path}?follow=1`);
    // ...and stayed there (a socket refused at the owner would have been relayed after it).
    expect(seen[follower]!.at(-1)).toContain(`${room.urls[1 - follower]!.replace("http", "ws")}${path}`);
    await expect(follower === 0 ? alice.locator('[data-me="true"]') : bob.getByTestId("poker-table")).toBeVisible();
    const owner = await (await fetch(`${room.urls[1 - follower]}/readyz`)).json();
    expect(JSON.stringify(owner)).toMatch(/"moved":\s*[1-9]/);
  });
});
