/**
 * The signed-in player in the header: their name, the account dialog (protect the
 * name with a password, or change it) and signing out, which says plainly what it
 * does to a guest without a password (docs/accounts.md).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { createPortal } from "react-dom";
import { getMe, setPassword, type Me } from "../api";
import { useSession } from "../hooks/useSession";
import { writeStorage } from "../hooks/storage";

const PASSWORD_MIN = 8;
/** the last name known to be protected: the sign-in form then asks for its password */
export const PROTECTED_NAME_KEY = "showdown.protectedName";

type Mode = "account" | "sign-out";

export function AccountMenu() {
  const { session, signOut } = useSession();
  const [open, setOpen] = useState<Mode | null>(null);
  const me = useQuery({
    queryKey: ["me", session?.player_id],
    queryFn: () => getMe(session?.token ?? null),
    enabled: !!session,
    staleTime: 60_000,
  });
  const protectedName = me.data?.has_password === true;
  useEffect(() => {
    if (me.data) writeStorage(PROTECTED_NAME_KEY, me.data.has_password ? me.data.name : null);
  }, [me.data]);
  if (!session) return null;
  const onSignOut = () => {
    if (protectedName) signOut();
    else setOpen("sign-out");
  };
  return (
    <div className="who" data-testid="who">
      <button type="button" className="who__button" onClick={() => setOpen("account")} title="Your account" data-testid="account-open">
        <span className="who__avatar" aria-hidden="true">
          {session.name.slice(0, 1).toUpperCase()}
        </span>
        <span className="who__name" data-testid="player-name">
          {session.name}
        </span>
        {me.data && !protectedName && <span className="who__guest" data-testid="guest-tag">guest</span>}
      </button>
      <button type="button" className="btn btn--tiny btn--ghost" onClick={onSignOut} data-testid="sign-out">
        Sign out
      </button>
      {/* In <body>: the header's backdrop filter would make it the dialog's containing block. */}
      {open && createPortal(<AccountDialog mode={open} name={session.name} me={me.data ?? null} onClose={() => setOpen(null)} onSignOut={signOut} />, document.body)}
    </div>
  );
}

interface AccountDialogProps {
  mode: Mode;
  name: string;
  me: Me | null;
  onClose: () => void;
  onSignOut: (everywhere?: boolean) => void;
}

export function AccountDialog({ mode, name, me, onClose, onSignOut }: AccountDialogProps) {
  const protectedName = me?.has_password === true;
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div className="modal account" onClick={(e) => e.stopPropagation()} role="dialog" aria-label={mode === "sign-out" ? "Sign out" : "Your account"} data-testid="account-dialog">
        <h3>{mode === "sign-out" ? "Sign out?" : name}</h3>
        {protectedName ? (
          <p className="muted" data-testid="account-status">
            Your name is protected by a password: sign in again with <strong>{name}</strong> and it, on any device, and your statistics and hands come back with you.
          </p>
        ) : (
          <p className={mode === "sign-out" ? "account__warning" : "muted"} data-testid="account-status">
            You are playing as a guest. If you sign out, you will not be able to come back as <strong>{name}</strong> unless you set a password: your statistics and hands stay with this name.
          </p>
        )}
        <PasswordForm hasPassword={protectedName} />
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose} data-testid="account-close">
            {mode === "sign-out" ? "Stay signed in" : "Close"}
          </button>
          {protectedName && (
            <button
              type="button"
              className="btn btn--ghost"
              onClick={() => {
                onClose();
                onSignOut(true);
              }}
              title="End every session of this account, on every device (a password change does this for the others)"
              data-testid="sign-out-everywhere"
            >
              Sign out everywhere
            </button>
          )}
          <button
            type="button"
            className="btn btn--danger"
            onClick={() => {
              onClose();
              onSignOut();
            }}
            data-testid="sign-out-confirm"
          >
            {protectedName ? "Sign out" : "Sign out anyway"}
          </button>
        </div>
      </div>
    </div>
  );
}

function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const { session } = useSession();
  const queries = useQueryClient();
  const [password, setPasswordText] = useState("");
  const [confirm, setConfirm] = useState("");
  const [current, setCurrent] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password.length < PASSWORD_MIN) return setError(`At least ${PASSWORD_MIN} characters.`);
    if (password !== confirm) return setError("The two passwords differ.");
    setBusy(true);
    setError(null);
    try {
      const me = await setPassword(session?.token ?? null, password, hasPassword ? current : null);
      queries.setQueryData(["me", session?.player_id], me);
      setDone(true);
      setPasswordText("");
      setConfirm("");
      setCurrent("");
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="account__form" onSubmit={submit} data-testid="password-form">
      <h4>{hasPassword ? "Change your password" : "Keep this name: set a password"}</h4>
      {hasPassword && (
        <label className="field">
          <span>Current password</span>
          <input className="input" type="password" value={current} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" data-testid="password-current" />
        </label>
      )}
      <label className="field">
        <span>New password</span>
        <input className="input" type="password" value={password} onChange={(e) => setPasswordText(e.target.value)} minLength={PASSWORD_MIN} maxLength={128} autoComplete="new-password" data-testid="password-new" />
      </label>
      <label className="field">
        <span>Again</span>
        <input className="input" type="password" value={confirm} onChange={(e) => setConfirm(e.target.value)} maxLength={128} autoComplete="new-password" data-testid="password-again" />
      </label>
      {error && (
        <p className="error-text" role="alert" data-testid="password-error">
          {error}
        </p>
      )}
      {done && !error && (
        <p className="ok-text" role="status" data-testid="password-done">
          Saved: sign in with your name and this password from now on. Any other session of yours was signed out.
        </p>
      )}
      <button type="submit" className="btn btn--primary" disabled={busy} data-testid="password-submit">
        {busy ? "Saving…" : hasPassword ? "Change password" : "Set password"}
      </button>
    </form>
  );
}
