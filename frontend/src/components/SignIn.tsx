/**
 * Sign-in: a guest with a display name, or (for a name protected by a password,
 * docs/accounts.md) the name and its password; the session survives a reload.
 */
import { useState, type FormEvent } from "react";
import { ApiError } from "../api";
import { useSession } from "../hooks/useSession";
import { readStorage } from "../hooks/storage";
import { PROTECTED_NAME_KEY } from "./AccountMenu";

export function SignIn() {
  const { signIn, signInWithPassword, rememberedName, ended } = useSession();
  const [name, setName] = useState(rememberedName);
  const [password, setPassword] = useState("");
  // A name this browser knows to be protected: straight to its password.
  const [withPassword, setWithPassword] = useState(() => !!rememberedName && readStorage<string | null>(PROTECTED_NAME_KEY, null) === rememberedName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const clean = name.trim();
    if (!clean) {
      setError("Choose a display name.");
      return;
    }
    if (withPassword && !password) {
      setError("Enter your password.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (withPassword) await signInWithPassword(clean, password);
      else await signIn(clean);
    } catch (err) {
      // A protected name: that player signs in with the password.
      if (!withPassword && err instanceof ApiError && err.status === 409) setWithPassword(true);
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="signin">
      <form className="signin__card" onSubmit={submit} data-testid="signin-form">
        <div className="signin__logo" aria-hidden="true">
          <span className="suit suit--s">♠</span>
          <span className="suit suit--h">♥</span>
          <span className="suit suit--d">♦</span>
          <span className="suit suit--c">♣</span>
        </div>
        <h1>Showdown</h1>
        <p className="muted">Texas Hold'em against friends and strong AI opponents.</p>
        {ended && (
          <p className="error-text" role="alert" data-testid="session-ended">
            {ended}
          </p>
        )}
        <label className="field">
          <span>Display name</span>
          <input
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={24}
            autoFocus
            autoComplete="username"
            placeholder="e.g. Doyle"
            data-testid="signin-name"
          />
        </label>
        {withPassword && (
          <label className="field">
            <span>Password</span>
            <input
              className="input"
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              maxLength={128}
              autoComplete="current-password"
              data-testid="signin-password"
            />
          </label>
        )}
        {error && (
          <p className="error-text" role="alert" data-testid="signin-error">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn--primary btn--wide" disabled={busy} data-testid="signin-submit">
          {busy ? "Signing in…" : withPassword ? "Sign in" : "Play as guest"}
        </button>
        <button
          type="button"
          className="btn btn--ghost btn--small signin__switch"
          onClick={() => {
            setWithPassword((on) => !on);
            setError(null);
          }}
          data-testid="signin-mode"
        >
          {withPassword ? "Play as a new guest instead" : "I have a password"}
        </button>
        <p className="muted small signin__note">
          {withPassword
            ? "Your name and the password you set for it: your statistics and hands come back with you."
            : "A guest name is yours until you sign out. To come back as the same player later, set a password from the account menu."}
        </p>
      </form>
    </div>
  );
}
