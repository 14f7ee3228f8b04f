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
    // Bounds, not syncs: a test waits for what the page shows and ends as soon as it shows;
    // on a loaded 2-core machine (make test runs the browser tests beside Vitest) the
    // default 5 s per test was seen to cut short tests that pass.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
