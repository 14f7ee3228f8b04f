/** Download buttons for hand histories other poker software reads (#34): PokerStars text
 * (PokerTracker, Hold'em Manager, GTO Wizard), Open Hand History JSON, PHH. */
import { useState } from "react";
import { EXPORT_FORMATS, type ExportFormat } from "../protocol";
import { saveText } from "../lib/download";
import { Icon } from "./Icon";

export function ExportButtons({
  fetchText,
  filename,
  label = "Download",
  testId = "export",
}: {
  /** The file's text in this format (the server writes it: only what you may see). */
  fetchText: (format: ExportFormat) => Promise<string>;
  /** The file name for this format's suffix (one hand: .phh, many: .phhs). */
  filename: (suffix: string, many: string) => string;
  label?: string;
  testId?: string;
}) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = (format: ExportFormat, suffix: string, many: string) => {
    setBusy(format);
    setError(null);
    fetchText(format)
      .then((text) => saveText(filename(suffix, many), text, format === "ohh" ? "application/json" : "text/plain"))
      .catch((e: Error) => setError(e.message))
      .finally(() => setBusy(null));
  };
  return (
    <div className="export-bar" role="group" aria-label={label} data-testid={testId}>
      <span className="muted small">{label}:</span>
      {EXPORT_FORMATS.map(({ format, label: name, suffix, many }) => (
        <button
          key={format}
          type="button"
          className="btn btn--ghost btn--small"
          disabled={busy !== null}
          onClick={() => download(format, suffix, many)}
          data-testid={`${testId}-${format}`}
        >
          <Icon name="download" size={14} /> {name}
        </button>
      ))}
      {error && (
        <span className="error-text small" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
