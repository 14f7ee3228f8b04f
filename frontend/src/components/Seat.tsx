/** One seat at the table: hole cards, avatar, name, stack, state, last action, clock. */
import { Icon } from "./Icon";
import type { CSSProperties } from "react";
import type { SeatView, TurnClock } from "../protocol";
import { formatChips } from "../lib/chips";
import { Card, type CardSize } from "./Card";
import { ChipStack } from "./ChipStack";
import { TurnTimer } from "./TurnTimer";
import { SeatHud } from "./SeatHud";

export interface SeatProps {
  seat: SeatView;
  unit: string;
  isViewer: boolean;
  isActor: boolean;
  isButton: boolean;
  blind: "SB" | "BB" | null;
  lastAction: string | null;
  clock: TurnClock | null;
  clockOffset: number;
  /** chips won in the hand that just ended */
  won: number | null;
  /** the AI just decided for this seat */
  aiDecided: boolean;
  /** a brief note: chips that just joined the stack ("+1,000 rebuy") */
  cue?: string | null;
  /** a new hand was just dealt: animate the cards in (delay in ms) */
  dealDelay: number | null;
  cardSize: CardSize;
  style?: CSSProperties;
  side: string;
  /** the winning five cards at showdown: those of this seat are highlighted */
  highlightCards?: ReadonlySet<string> | null;
  /** your hand's name under your cards ("Two Pair, Kings and Sevens") */
  handName?: string | null;
  /** folded in the hand shown (its cards stay dimmed once the hand is over) */
  foldedInHand?: boolean;
  /** show the player's statistics (needs the app's data-fetching cache) */
  hud?: boolean;
  /** chips bet this street, shown under the pod (a phone table has no room for them on the felt) */
  bet?: number;
  bigBlind?: number;
}

const STATE_LABEL: Partial<Record<SeatView["state"], string>> = {
  sitting_out: "Sitting out",
  all_in: "All-in",
  folded: "Folded",
};

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return "?";
  const first = parts[0]!;
  const last = parts.length > 1 ? parts[parts.length - 1]! : "";
  return (first[0]! + (last[0] ?? first[1] ?? "")).toUpperCase();
}

/** A stable hue per player, for the avatar. */
export function hueOf(id: string): number {
  // FNV-1a, so ids that differ only at the end still get far-apart hues.
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 360;
}

export function Seat(props: SeatProps) {
  const { seat, unit, isViewer, isActor, isButton, blind, lastAction, clock, clockOffset, won, aiDecided, dealDelay, cardSize, style, side, highlightCards, hud = false, foldedInHand = false, handName = null, bet = 0, bigBlind = 1, cue = null } = props;
  const folded = seat.state === "folded";
  const showCards = seat.has_cards || (seat.hole_cards !== null && seat.hole_cards.length > 0);
  const cards: (string | null)[] = seat.hole_cards && seat.hole_cards.length ? seat.hole_cards : seat.has_cards ? [null, null] : [];
  const badge =
    seat.leaving ? "Leaving"
    : seat.waiting_for_big_blind && seat.state !== "active" && seat.state !== "sitting_out" ? "Waiting for BB"
    : STATE_LABEL[seat.state] ?? null;
  const classes = [
    "seat",
    `seat--${side}`,
    isViewer ? "seat--me" : "",
    isActor ? "seat--actor" : "",
    folded ? "seat--folded" : "",
    seat.state === "sitting_out" ? "seat--out" : "",
    seat.state === "all_in" ? "seat--allin" : "",
    won ? "seat--winner" : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <div
      className={classes}
      style={style}
      data-testid={`seat-${seat.seat}`}
      data-seat={seat.seat}
      data-player={seat.name}
      data-state={seat.state}
      data-me={isViewer ? "true" : undefined}
      aria-label={`Seat ${seat.seat}: ${seat.name}${isViewer ? " (you)" : ""}, ${formatChips(seat.stack, unit)} chips${badge ? `, ${badge}` : ""}`}
    >
      {showCards && (
        <div className={`seat__cards${folded || foldedInHand ? " seat__cards--folded" : ""}`} data-testid={isViewer ? "my-cards" : undefined}>
          {cards.map((code, i) => (
            <Card
              key={`${i}-${code ?? "x"}`}
              code={code}
              size={cardSize}
              className={dealDelay !== null ? "card--deal" : undefined}
              style={dealDelay !== null ? ({ animationDelay: `${dealDelay + i * 120}ms` } as CSSProperties) : undefined}
              testId={isViewer ? "my-card" : "seat-card"}
              highlight={!!code && !!highlightCards?.has(code)}
            />
          ))}
        </div>
      )}
      <div className="seat__pod">
        <div className="seat__avatar" style={{ "--hue": hueOf(seat.player_id) } as CSSProperties} aria-hidden="true">
          {seat.is_bot ? <Icon name="robot" size={18} /> : initials(seat.name)}
        </div>
        <div className="seat__info">
          <div className="seat__name" title={seat.name}>
            {seat.name}
            {isViewer && <span className="seat__you"> (you)</span>}
          </div>
          <div className="seat__stack" data-testid={`stack-${seat.seat}`}>
            {seat.stack === 0 && seat.state === "all_in" ? "All-in" : formatChips(seat.stack, unit)}
          </div>
          {hud && <SeatHud playerId={seat.player_id} name={seat.name} />}
        </div>
        {blind && <span className={`seat__blind seat__blind--${blind.toLowerCase()}`}>{blind}</span>}
        {isButton && <span className="sr-only">dealer</span>}
        {isActor && clock && clock.seat === seat.seat && (
          <>
            <TurnTimer clock={clock} clockOffset={clockOffset} />
            <TurnTimer clock={clock} clockOffset={clockOffset} variant="badge" />
          </>
        )}
      </div>
      {seat.is_bot && seat.bot_style && <div className="seat__style">{seat.bot_style}</div>}
      {/* Under the pod, never over the cards or the name: what was won, the bet, the labels. */}
      {won ? (
        <div className="seat__won" data-testid={`won-${seat.seat}`}>
          +{formatChips(won, unit)}
        </div>
      ) : null}
      {handName && !folded && !foldedInHand && (
        <div className="seat__hand-name" data-testid="my-hand-name">
          {handName}
        </div>
      )}
      {badge && <div className={`seat__badge seat__badge--${seat.state}`}>{badge}</div>}
      {bet > 0 ? (
        <div className="seat__bet" data-testid={`bet-${seat.seat}`} title={lastAction ?? undefined}>
          <ChipStack amount={bet} bigBlind={bigBlind} />
          <span className="bet__amount">{formatChips(bet, unit)}</span>
        </div>
      ) : (
        !badge && lastAction && <div className="seat__action" data-testid={`last-action-${seat.seat}`}>{lastAction}</div>
      )}
      {cue && (
        <div className="seat__cue" data-testid={`cue-${seat.seat}`} role="status">
          {cue}
        </div>
      )}
      {aiDecided && (
        <div className="seat__ai" data-testid={`ai-decided-${seat.seat}`}>
          <Icon name="robot" size={12} /> AI decided
        </div>
      )}
    </div>
  );
}

export interface EmptySeatProps {
  seat: number;
  canSit: boolean;
  onSit: (seat: number) => void;
  style?: CSSProperties;
}

export function EmptySeat({ seat, canSit, onSit, style }: EmptySeatProps) {
  if (!canSit) {
    return (
      <div className="seat seat--empty" style={style} data-testid={`empty-seat-${seat}`}>
        <div className="seat__empty-ring">Empty</div>
      </div>
    );
  }
  return (
    <div className="seat seat--empty" style={style}>
      <button type="button" className="seat__sit" onClick={() => onSit(seat)} data-testid={`sit-${seat}`} aria-label={`Sit at seat ${seat}`}>
        <span className="seat__sit-plus">+</span>
        <span>Sit here</span>
      </button>
    </div>
  );
}
