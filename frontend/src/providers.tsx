/** The app's router and data-fetching cache, shared by the root and the tests. */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { HashRouter } from "react-router";

export function makeQueryClient(retry: number | false = 1): QueryClient {
  // Statistics change once a hand ends: half a minute of staleness is fine, and a seat's
  // HUD, the profile and the lobby then share one answer.
  return new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry, refetchOnWindowFocus: false } } });
}

export function RouterAndCache({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [fallback] = useState(() => makeQueryClient());
  return (
    <HashRouter>
      <QueryClientProvider client={client ?? fallback}>{children}</QueryClientProvider>
    </HashRouter>
  );
}
