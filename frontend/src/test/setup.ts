import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// findBy*/waitFor return as soon as what they wait for shows; the bound (1 s by default) is
// raised so that a loaded machine does not fail a test that passes.
configure({ asyncUtilTimeout: 10_000 });

// The test files share one jsdom (vite.config.ts, isolate: false): whatever a test changed
// of it is put back, whichever file runs next.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  window.history.replaceState(null, "", "/");
});
