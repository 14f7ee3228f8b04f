import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { PreferencesProvider } from "./hooks/usePreferences";
import { SessionProvider } from "./hooks/useSession";
import { RouterAndCache } from "./providers";
import "./styles/global.css";
import "./styles/table.css";
import "./styles/panels.css";
import "./styles/stats.css";
import "./styles/review.css";
import "./styles/pokernight.css";

const root = document.getElementById("root");
if (!root) throw new Error("no #root element");
createRoot(root).render(
  <StrictMode>
    <RouterAndCache>
      <PreferencesProvider>
        <SessionProvider>
          <App />
        </SessionProvider>
      </PreferencesProvider>
    </RouterAndCache>
  </StrictMode>,
);
