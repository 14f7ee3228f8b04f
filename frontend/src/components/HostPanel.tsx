/** The host's controls (#34): pause, seat requests, stakes, ante, time bank and advice, bots and
 * their styles, stack adjustments, seats, the role, and a private table's invite link. */
import { useState } from "react";
import { newInvite, revokeInvite } from "../api";
import type { ClientCommand, HostState, TableView } from "../protocol";
import { BOT_STYLES } from "../protocol";
import { formatChips } from "../lib/chips";
import { paths } from "../routes";
import { HostHomeRules } from "./HostHomeRules";

export function HostPanel({
  host,
  view,
  send,
  tableId = "",
  token = null,
  privateTable = false,
  invite = null,
  adviceAllowed = true,
  onInvite,
  onAdvice,
}: {
  host: HostState;
  view: TableView;
  send: (command: ClientCommand) => string | null;
  tableId?: string;
  token?: string | null;
  /** a private table: the invite link and its buttons show, even once revoked */
  privateTable?: boolean;
  /** the invite link's token the host knows (from the URL or the table's detail) */
  invite?: string | null;
  /** the table's advice rule as last read (REST detail); the toggle remembers what it sent */
  adviceAllowed?: boolean;
  /** told the new token (null: revoked), so the link outlives this panel (a tab switch) */
  onInvite?: (invite: string | null) => void;
  /** told the advice rule sent, for the same reason */
  onAdvice?: (allowed: boolean) => void;
}) {
  const unit = view.config.chip_unit;
  const [small, setSmall] = useState(String(view.config.small_blind));
  const [big, setBig] = useState(String(view.config.big_blind));
  const [ante, setAnte] = useState(String(view.config.ante ?? 0));
  const [timeBank, setTimeBank] = useState("");
  const [style, setStyle] = useState<string>("rational");
  const [adjust, setAdjust] = useState<Record<number, string>>({});
  // What this panel changed since the props were read: the props are not re-fetched.
  const [adviceSent, setAdviceSent] = useState<boolean | null>(null);
  const [link, setLink] = useState<{ invite: string | null } | null>(null);
  const [linkBusy, setLinkBusy] = useState(false);
  const [linkError, setLinkError] = useState<string | null>(null);
  const advice = adviceSent ?? adviceAllowed;
  const currentInvite = link ? link.invite : invite;
  const shownLink = currentInvite ? inviteLink(tableId, currentInvite) : null;
  const changeLink = (call: () => Promise<string | null>) => {
    setLinkBusy(true);
    setLinkError(null);
    call()
      .then((next) => {
        setLink({ invite: next });
        onInvite?.(next);
      })
      .catch((err: unknown) => setLinkError((err as Error).message))
      .finally(() => setLinkBusy(false));
  };
  const empty = Array.from({ length: view.config.seats }, (_, i) => i + 1).find((n) => !view.seats.some((s) => s.seat === n));
  return (
    <div className="host-panel" data-testid="host-panel">
      {(privateTable || currentInvite !== null) && (
        <div className="host-panel__invite" data-testid="host-invite">
          {shownLink ? (
            <p>
              Invite link:{" "}
              <input readOnly value={shownLink} aria-label="Invite link" data-testid="invite-link" onFocus={(e) => e.target.select()} />{" "}
              <button type="button" onClick={() => void navigator.clipboard?.writeText(shownLink)}>
                Copy
              </button>
            </p>
          ) : (
            <p data-testid="invite-none">No invite link: nobody new can open the table until you make one.</p>
          )}
          <p>
            <button type="button" disabled={linkBusy} onClick={() => changeLink(() => newInvite(tableId, token))} data-testid="host-invite-new">
              New link
            </button>{" "}
            <button
              type="button"
              disabled={linkBusy || !currentInvite}
              onClick={() => changeLink(() => revokeInvite(tableId, token).then(() => null))}
              data-testid="host-invite-revoke"
            >
              Revoke link
            </button>
          </p>
          {linkError && (
            <p className="error" role="alert" data-testid="host-invite-error">
              {linkError}
            </p>
          )}
        </div>
      )}
      <p>
        <button type="button" data-testid="host-pause" onClick={() => send({ type: host.paused ? "resume" : "pause" })}>
          {host.paused ? "Resume the game" : "Pause the game"}
        </button>{" "}
        <label>
          <input
            type="checkbox"
            checked={host.approve_seats}
            onChange={(e) => send({ type: "table_settings", approve_seats: e.target.checked })}
            data-testid="host-approve-seats"
          />{" "}
          Approve seat requests
        </label>{" "}
        <label>
          <input
            type="checkbox"
            checked={advice}
            onChange={(e) => {
              const allowed = e.target.checked;
              if (send({ type: "table_settings", advice_allowed: allowed }) === null) return;
              setAdviceSent(allowed);
              onAdvice?.(allowed);
            }}
            data-testid="host-advice"
          />{" "}
          Advice allowed
        </label>
      </p>
      {host.seat_requests.length > 0 && (
        <ul className="host-panel__requests" data-testid="host-requests">
          {host.seat_requests.map((r) => (
            <li key={r.player_id}>
              {r.name} asks for seat {r.seat} with {formatChips(r.buy_in, unit)}{" "}
              <button type="button" onClick={() => send({ type: "approve", player_id: r.player_id })} data-testid={`approve-${r.player_id}`}>
                Approve
              </button>{" "}
              <button type="button" onClick={() => send({ type: "reject", player_id: r.player_id })}>
                Reject
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="host-panel__stakes"
        onSubmit={(e) => {
          e.preventDefault();
          const settings: ClientCommand = { type: "table_settings", small_blind: Number(small), big_blind: Number(big), ante: Number(ante) };
          if (timeBank.trim() !== "") settings.time_bank = Number(timeBank);
          send(settings);
        }}
      >
        Blinds{" "}
        <input aria-label="Small blind" inputMode="numeric" size={6} value={small} onChange={(e) => setSmall(e.target.value)} /> /{" "}
        <input aria-label="Big blind" inputMode="numeric" size={6} value={big} onChange={(e) => setBig(e.target.value)} />{" "}
        <label>
          Ante <input aria-label="Ante" inputMode="numeric" size={5} value={ante} onChange={(e) => setAnte(e.target.value)} data-testid="host-ante" />
        </label>{" "}
        <label>
          Time bank{" "}
          <input aria-label="Time bank (seconds)" inputMode="numeric" size={4} placeholder="s" value={timeBank} onChange={(e) => setTimeBank(e.target.value)} data-testid="host-time-bank" />
        </label>{" "}
        <button type="submit" data-testid="host-blinds">
          From the next hand
        </button>
      </form>
      <HostHomeRules view={view} send={send} />
      {empty !== undefined && (
        <p>
          <select aria-label="Bot style" value={style} onChange={(e) => setStyle(e.target.value)}>
            {BOT_STYLES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>{" "}
          <button type="button" data-testid="host-add-bot" onClick={() => send({ type: "add_bot", seat: empty, style: style as (typeof BOT_STYLES)[number] })}>
            Add a bot in seat {empty}
          </button>
        </p>
      )}
      <ul className="host-panel__seats">
        {view.seats.map((s) => (
          <li key={s.seat}>
            {s.name} ({formatChips(s.stack, unit)}){" "}
            {s.is_bot && (
              <select
                aria-label={`Style of ${s.name}`}
                value={s.bot_style ?? ""}
                onChange={(e) => send({ type: "bot_style", seat: s.seat, style: e.target.value as (typeof BOT_STYLES)[number] })}
                data-testid={`host-bot-style-${s.seat}`}
              >
                {BOT_STYLES.map((b) => (
                  <option key={b} value={b}>
                    {b}
                  </option>
                ))}
              </select>
            )}{" "}
            <form
              className="host-panel__adjust"
              onSubmit={(e) => {
                e.preventDefault();
                const amount = Number(adjust[s.seat] ?? "");
                if (!Number.isInteger(amount) || amount === 0) return;
                if (send({ type: "adjust", seat: s.seat, amount }) !== null) setAdjust((a) => ({ ...a, [s.seat]: "" }));
              }}
            >
              <input
                aria-label={`Adjust the stack of ${s.name} (+ adds, − takes)`}
                inputMode="numeric"
                size={6}
                placeholder="±chips"
                value={adjust[s.seat] ?? ""}
                onChange={(e) => setAdjust((a) => ({ ...a, [s.seat]: e.target.value }))}
                data-testid={`host-adjust-amount-${s.seat}`}
              />{" "}
              <button type="submit" data-testid={`host-adjust-${s.seat}`}>
                Adjust
              </button>
            </form>{" "}
            {s.seat !== view.viewer_seat && (
              <button type="button" data-testid={`host-remove-${s.seat}`} onClick={() => send({ type: "remove", seat: s.seat })}>
                Remove
              </button>
            )}{" "}
            {!s.is_bot && s.seat !== view.viewer_seat && (
              <button type="button" onClick={() => send({ type: "hand_over", player_id: s.player_id })}>
                Make host
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The link a private table's host sends to friends (the app routes after the '#'). */
function inviteLink(tableId: string, invite: string): string {
  return `${window.location.origin}${window.location.pathname}#${paths.table(tableId, null, invite)}`;
}
