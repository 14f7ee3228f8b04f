/**
 * End-to-end tests: a real `showdown serve` (started by e2e/global-setup.ts on a
 * free port with a temporary data dir, stopped after) and Debian's Chromium.
 * Run with `npm run e2e` (builds the app first: the server serves frontend/dist).
 */
import { defineConfig } from "@playwright/test";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results/playwright",
  globalSetup: "./e2e/global-setup.ts",
  // Two spec files at a time (their tests in order within a file). Four were quicker
  // under other work (3.0-3.4 min against 4.0 with two), but the e2e server's one AI
  // worker (two lanes) then declined the hand review's queries and the review test
  // failed in a fresh clone. Every spec signs in its own players and opens its own
  // tables. E2E_WORKERS=N for another count, 1: one by one.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    browserName: "chromium",
    headless: true,
    viewport: { width: 1440, height: 900 },
    // The app stops its looping animations (the actor's pulse, spinners) for users who
    // ask for less motion: the pages then draw no frames while they wait for bots, which
    // leaves the CPU to the server, its AI worker and pytest beside (make test).
    reducedMotion: "reduce",
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    // A failed test keeps its trace (actions, their timing, the page's DOM at each), without
    // the trace's screencast: its frames cost the browser and the runner a third of the
    // run's CPU; the failure's own screenshot stays.
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
