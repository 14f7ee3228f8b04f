/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const backend = process.env.SHOWDOWN_BACKEND ?? "http://127.0.0.1:8000";

export default defineConfig({
  base: "/",
  plugins: [react()],
  server: {
    // The protocol's wire-type test reads the server's schema from docs/.
    fs: { allow: [".", "../docs"] },
    proxy: {
      "/api": { target: backend, changeOrigin: true },
      "/healthz": { target: backend, changeOrigin: true },
      "/ws": {
        target: backend,
        ws: true,
        changeOrigin: true,
        // The server accepts table sockets from its own origin only: present that one.
        configure: (proxy) => {
          proxy.on("proxyReqWs", (proxyReq) => proxyReq.setHeader("origin", backend));
        },
      },
    },
  },
  build: {
    outDir: "dist",
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    // One jsdom for the test files a worker runs, not one each: building it was two thirds
    // of the run (56 s -> 17 s measured). src/test/setup.ts resets what a test may leave
    // behind (the DOM, storage, stubs, timers, the address), and the files pass shuffled.
    isolate: false,
    // Bounds, not syncs: a test waits for what the page shows and ends as soon as it shows;
    // on a loaded 2-core machine (make test runs the browser tests beside Vitest) the
    // default 5 s per test was seen to cut short tests that pass.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
