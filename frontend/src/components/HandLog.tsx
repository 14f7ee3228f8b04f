/** The current hand, event by event, grouped by street. */
import { useStickToBottom } from "../hooks/useStickToBottom";
import type { HandEvent, Street, TableView } from "../protocol";
import { describeEvent, STREET_LABEL, type NameOf } from "../lib/events";
import type { TableNotice } from "../hooks/useTable";
import { describeAction } from "../lib/events";
import { formatChips } from "../lib/chips";
import { Icon } from "./Icon";

export function HandLog({ view, notices, nameOf: named }: { view: TableView; notices: TableNotice[]; nameOf?: NameOf }) {
  const unit = view.config.chip_unit;
  const nameOf: NameOf = named ?? ((seat) => (seat == null ? "" : (view.seats.find((s) => s.seat === seat)?.name ?? `Seat ${seat}`)));
  const end = useStickToBottom<HTMLDivElement>(view.events.length);
  const groups: { street: Street; events: HandEvent[] }[] = [];
  for (const e of view.events) {
    const street: Street = e.kind === "show" || e.kind === "muck" || e.kind === "win" ? "showdown" : e.street;
    const last = groups[groups.length - 1];
    if (last && last.street === street) last.events.push(e);
    else groups.push({ street, events: [e] });
  }
  const handNotices = notices.filter((n) => n.handNo === view.hand_no);
  // Chips that joined or left the table between the last hand and this one stay in sight.
  const before = view.hand_in_progress ? notices.filter((n) => (n.by === "rebuy" || n.by === "left" || n.by === "host") && n.handNo === view.hand_no - 1) : [];
  return (
    <div className="hand-log" data-testid="hand-log">
      {view.hand_no > 0 ? <h4 className="hand-log__title">Hand #{view.hand_no}</h4> : null}
      {before.length > 0 && (
        <ul className="hand-log__notices hand-log__notices--before" data-testid="before-hand">
          <li className="muted small">Before this hand</li>
          {before.map((n) => (
            <li key={n.id} data-testid="notice" data-by={n.by}>
              <Icon name={noticeIcon(n)} size={13} /> {noticeText(n, nameOf, unit)}
            </li>
          ))}
        </ul>
      )}
      {groups.length === 0 && <p className="muted">No hand in progress yet.</p>}
      {groups.map((g, i) => (
        <section key={i} className="hand-log__street">
          <h5>{STREET_LABEL[g.street]}</h5>
          <ol>
            {g.events.map((e, j) => (
              <li key={j} className={`hand-log__event hand-log__event--${e.kind}`}>
                {describeEvent(e, nameOf, unit)}
              </li>
            ))}
          </ol>
        </section>
      ))}
      {handNotices.length > 0 && (
        <ul className="hand-log__notices">
          {handNotices.map((n) => (
            <li key={n.id} data-testid="notice" data-by={n.by}>
              <Icon name={noticeIcon(n)} size={13} /> {noticeText(n, nameOf, unit)}
            </li>
          ))}
        </ul>
      )}
      <div ref={end} />
    </div>
  );
}

export function noticeIcon(n: TableNotice): "robot" | "clock" | "coins" | "pause" | "play" {
  if (n.by === "host") {
    const kind = n.host?.kind;
    if (kind === "pause") return "pause";
    if (kind === "resume") return "play";
    if (kind === "adjust" || kind === "remove") return "coins";
    return kind === "bot_style" || kind === "sit" ? "robot" : "clock";
  }
  if (n.by === "rebuy") return n.rebuy?.bot ? "robot" : "coins";
  if (n.by === "left") return "coins";
  return n.by === "ai" ? "robot" : "clock";
}

export function noticeText(n: TableNotice, nameOf: (seat: number | null | undefined) => string, unit: string): string {
  const who = nameOf(n.seat) || "A player";
  if (n.by === "left" && n.left) return `${who} left the table with ${formatChips(n.left.stack, unit)}`;
  if (n.by === "rebuy" && n.rebuy) {
    const { amount, stack, topUp } = n.rebuy;
    return `${who} ${topUp ? "tops up" : "rebuys"} ${formatChips(amount, unit)} (stack ${formatChips(stack, unit)})`;
  }
  if (n.by === "host" && n.host) return hostText(n, n.host, who, unit);
  const what = n.action ? describeAction(n.action, unit) : "";
  if (n.by === "ai") return `AI decided for ${who}${what ? `: ${what}` : ""}`;
  if (n.by === "timer") return `${who} ran out of time${what ? `: ${what}` : ""}`;
  return n.note || `${who}: ${what}`;
}

/** A line for the host's command (or a seat request, or the role passed on by itself). */
function hostText(n: TableNotice, host: NonNullable<TableNotice["host"]>, who: string, unit: string): string {
  const note = n.note ? ` (${n.note})` : "";
  switch (host.kind) {
    case "pause":
      return `The host paused the game${n.note ? ` ${n.note}` : ""}`;
    case "resume":
      return "The host resumed the game";
    case "remove":
      return host.stack != null
        ? `The host removed ${who}, who left with ${formatChips(host.stack, unit)}`
        : `The host removed ${who}: they leave at the hand's end`;
    case "adjust": {
      const amount = host.amount ?? 0;
      const change = `${amount > 0 ? "+" : "-"}${formatChips(Math.abs(amount), unit)}`;
      return `The host adjusted ${who}'s stack by ${change} (stack ${formatChips(host.stack ?? 0, unit)})`;
    }
    case "settings":
      return `The host changed the table: ${n.note}`;
    case "bot_style":
      return `The host set ${who} to play ${n.note}`;
    case "sit":
      return n.note === "approved" ? `The host let ${who} sit` : `The host added ${who}${note}`;
    case "seat_request":
      // The seat is still empty: the request (with the name) is in the state's `host`.
      return `A player asks for seat ${n.seat ?? "?"}${host.amount != null ? ` with ${formatChips(host.amount, unit)}` : ""}`;
    case "seat_rejected":
      return `The host turned down a request for seat ${n.seat ?? "?"}`;
    case "host":
      return n.note ? `${who} is the host now: ${n.note}` : `${who} is the host now`;
    case "bomb_pot":
      return "The host called a bomb pot for the next hand";
    default:
      return n.note || `The host: ${host.kind}`;
  }
}
