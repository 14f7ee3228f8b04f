/** Guest sign-in: a display name; the session survives a reload. */
import { useState, type FormEvent } from "react";
import { useSession } from "../hooks/useSession";

export function SignIn() {
  const { signIn, rememberedName } = useSession();
  const [name, setName] = useState(rememberedName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const clean = name.trim();
    if (!clean) {
      setError("Choose a display name.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await signIn(clean);
    } catch (err) {
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
        <label className="field">
          <span>Display name</span>
          <input
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={24}
            autoFocus
            autoComplete="nickname"
            placeholder="e.g. Doyle"
            data-testid="signin-name"
          />
        </label>
        {error && (
          <p className="error-text" role="alert" data-testid="signin-error">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn--primary btn--wide" disabled={busy} data-testid="signin-submit">
          {busy ? "Signing in…" : "Play as guest"}
        </button>
      </form>
    </div>
  );
}
