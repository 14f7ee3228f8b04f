/**
 * Starts `showdown serve --port P --data-dir TMP` for the e2e run, waits for
 * GET /healthz, and returns the teardown that stops it (the whole process
 * group: the server, its embedded database and its AI worker) and removes TMP.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`showdown serve exited with ${child.exitCode} before it was healthy`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`showdown serve did not answer /healthz within ${timeoutMs} ms (${lastError})`);
}

/**
 * Wait until the server's AI worker has connected: until then every bot's decision is
 * the server's fallback (which folds weak hands, even for a "calling station"). In a
 * fresh clone the worker compiles its kernels first, minutes on a busy machine.
 */
async function waitForWorker(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let workers = 0;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`showdown serve exited with ${child.exitCode} before its AI worker connected`);
    try {
      const response = await fetch(`${url}/api/stats`);
      if (response.ok) workers = ((await response.json()) as { workers: number }).workers;
      if (workers > 0) return;
    } catch {
      /* not answering yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the AI worker did not connect within ${timeoutMs} ms`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    const pid = child.pid;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-pid, signal);
      } catch {
        /* already gone */
      }
    };
    const hard = setTimeout(() => killGroup("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(hard);
      // The group may still hold children that ignore the parent's exit.
      setTimeout(() => {
        killGroup("SIGKILL");
        resolve();
      }, 300);
    });
    killGroup("SIGTERM");
  });
}

/**
 * Processes of this run that left the server's process group (the embedded
 * database runs in its own session): found by the run's unique data dir.
 */
function pidsUsing(marker: string): number[] {
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmdline.includes(marker)) pids.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return pids;
}

async function stopStragglers(marker: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let pids = pidsUsing(marker);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      /* gone */
    }
  }
  while (pids.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    pids = pidsUsing(marker);
  }
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL && process.env.E2E_EXTERNAL_SERVER === "1") {
    return async () => {};
  }
  const bin = process.env.SHOWDOWN_BIN ?? path.join(repo, ".venv", "bin", "showdown");
  if (!existsSync(bin)) throw new Error(`no showdown command at ${bin} (make install, or set SHOWDOWN_BIN)`);
  if (!existsSync(path.join(repo, "frontend", "dist", "index.html"))) {
    throw new Error("frontend/dist is missing: run `npm run build` first (npm run e2e does)");
  }
  const port = Number(process.env.E2E_PORT) || (await freePort());
  const dataDir = mkdtempSync(path.join(tmpdir(), "showdown-e2e-"));
  const logDir = path.join(here, "..", "test-results");
  const { mkdirSync } = await import("node:fs");
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(path.join(logDir, "server.log"));
  const child = spawn(bin, ["serve", "--port", String(port), "--data-dir", dataDir], {
    cwd: repo,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      // Bots that answer at once (no human-like delay) and shorter pauses between hands keep
      // the run short. The pause stays 1 s: a hand's result shows only that long, and the
      // specs that count showdowns must see it on a loaded machine. (Not a shorter AI
      // deadline: on a busy machine the worker then misses it and the fallback folds, so
      // "calling stations" fold to every all-in and the rebuy spec never sees a bust.)
      SHOWDOWN_BOT_DELAY_MS: "0",
      SHOWDOWN_HAND_PAUSE_MS: "1000",
      // The layout test opens a table for each size, 2 to 10 seats, from one address.
      SHOWDOWN_TABLE_CREATE_BURST: "30",
      // Every spec signs its players in from this one address (the quota is per address).
      SHOWDOWN_SIGNIN_BURST: "200",
      SHOWDOWN_SIGNINS_PER_HOUR: "2000",
      ...process.env,
      PYTHONUNBUFFERED: "1",
    },
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, 120_000);
    await waitForWorker(url, child, 600_000);
  } catch (error) {
    await stop(child);
    await stopStragglers(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  process.env.E2E_BASE_URL = url;
  return async () => {
    await stop(child);
    await stopStragglers(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
