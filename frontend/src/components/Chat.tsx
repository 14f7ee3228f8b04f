/** Table chat. */
import { useState, type FormEvent } from "react";
import { useStickToBottom } from "../hooks/useStickToBottom";
import type { ChatMessage } from "../protocol";

export function Chat({ messages, onSend, canSend, myId }: { messages: ChatMessage[]; onSend: (text: string) => void; canSend: boolean; myId: string | null }) {
  const [text, setText] = useState("");
  const end = useStickToBottom<HTMLDivElement>(messages.length);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const clean = text.trim();
    if (!clean) return;
    onSend(clean.slice(0, 500));
    setText("");
  };
  return (
    <div className="chat" data-testid="chat">
      <div className="chat__messages" role="log" aria-live="polite">
        {messages.length === 0 && <p className="muted">Say hello to the table.</p>}
        {messages.some((m) => m.history) && (
          <p className="chat__earlier" data-testid="chat-earlier">
            Earlier at this table
          </p>
        )}
        {messages.map((m, i) => (
          <div
            key={`${m.seq ?? i}-${i}`}
            className={`chat__line${m.player_id === myId ? " chat__line--me" : ""}${m.history ? " chat__line--history" : ""}`}
            data-testid="chat-line"
            data-history={m.history ? "true" : undefined}
          >
            <span className="chat__name">{m.name}</span> <span className="chat__text">{m.text}</span>
          </div>
        ))}
        <div ref={end} />
      </div>
      <form className="chat__form" onSubmit={submit}>
        <input
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={500}
          placeholder={canSend ? "Message the table…" : "Reconnecting…"}
          aria-label="Chat message"
          disabled={!canSend}
          data-testid="chat-input"
        />
        <button type="submit" className="btn btn--small" disabled={!canSend || !text.trim()} data-testid="chat-send">
          Send
        </button>
      </form>
    </div>
  );
}
