import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { PreferencesProvider } from "./hooks/usePreferences";
import { SessionProvider } from "./hooks/useSession";
import "./styles/global.css";
import "./styles/table.css";
import "./styles/panels.css";

const root = document.getElementById("root");
if (!root) throw new Error("no #root element");
createRoot(root).render(
  <StrictMode>
    <PreferencesProvider>
      <SessionProvider>
        <App />
      </SessionProvider>
    </PreferencesProvider>
  </StrictMode>,
);
