/**
 * The oval table: seats around the rail (the viewer's at the bottom), bets in
 * front of them, the dealer button, the board and the pots in the middle, and
 * the animations: dealing, bets sweeping into the pot, the pot pushed to the winners.
 */
import { useEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import type { TableView, TurnClock } from "../protocol";
import { formatChips } from "../lib/chips";
import { lastActionLabel, STREET_LABEL } from "../lib/events";
import { anchorSeat, seatLayout, shapeFor, TALL, type Point } from "../lib/layout";
import { useElementSize } from "../hooks/useElementSize";
import { bestHand, describeRanked, describeShort, handNameFor } from "../lib/handrank";
import { Card } from "./Card";
import { ChipStack } from "./ChipStack";
import { EmptySeat, Seat } from "./Seat";
import { HandResult } from "./HandResult";

export interface PokerTableProps {
  view: TableView;
  clock: TurnClock | null;
  clockOffset: number;
  canSit: boolean;
  onSit: (seat: number) => void;
  /** seats for which the AI just decided (flash a badge) */
  aiSeats?: ReadonlySet<number>;
  /** a brief note at a seat ("+1,000 rebuy"), keyed by seat number */
  seatCues?: ReadonlyMap<number, string>;
  tableName?: string;
  /** each seat's statistics line (the table's HUD setting) */
  hud?: boolean;
}

interface Flyer {
  id: number;
  from: Point;
  to: Point;
  amount: number;
  delay: number;
}

let flyerId = 0;
const POT_POINT: Point = { x: 50, y: 58 };

function pos(p: Point): CSSProperties {
  return { left: `${p.x}%`, top: `${p.y}%` };
}

/** Seats dealt in, clockwise from the small blind: the order cards are dealt. */
function dealOrder(view: TableView): number[] {
  const dealt = view.seats.filter((s) => s.has_cards).map((s) => s.seat).sort((a, b) => a - b);
  const start = view.small_blind_seat ?? dealt[0] ?? 1;
  const after = dealt.filter((s) => s >= start);
  const before = dealt.filter((s) => s < start);
  return [...after, ...before];
}

export function PokerTable({ view, clock, clockOffset, canSit, onSit, aiSeats, seatCues, tableName, hud = false }: PokerTableProps) {
  const unit = view.config.chip_unit;
  const size = view.config.seats;
  const anchor = anchorSeat(view.viewer_seat);
  const [box, boxSize] = useElementSize<HTMLDivElement>();
  const shape = shapeFor(boxSize.width, boxSize.height);
  // A tall (phone) table of 9 or 10 seats has no room for your cards at full size
  // between your neighbours (table.css: poker-table--crowded).
  const tall = shape === TALL;
  const crowded = tall && size >= 9;
  const spots = useMemo(() => seatLayout(size, anchor, shape), [size, anchor, shape]);
  const spotOf = useMemo(() => new Map(spots.map((s) => [s.seat, s])), [spots]);
  const seatsByNumber = useMemo(() => new Map(view.seats.map((s) => [s.seat, s])), [view.seats]);

  // ---- animations driven by the change from the previous view
  const previous = useRef<TableView | null>(null);
  const [dealing, setDealing] = useState<{ hand: number; delays: Map<number, number> } | null>(null);
  const [flyers, setFlyers] = useState<Flyer[]>([]);

  useEffect(() => {
    const prev = previous.current;
    previous.current = view;
    if (!prev) return;
    const timers: ReturnType<typeof setTimeout>[] = [];
    // A new hand was dealt.
    if (view.hand_in_progress && view.hand_no !== prev.hand_no) {
      const order = dealOrder(view);
      const step = 70;
      const delays = new Map(order.map((seat, i) => [seat, i * step]));
      setDealing({ hand: view.hand_no, delays });
      timers.push(setTimeout(() => setDealing(null), order.length * step + 900));
    }
    const newFlyers: Flyer[] = [];
    // Bets swept into the pot at the end of a street (or of the hand).
    const streetEnded = prev.hand_no === view.hand_no && (prev.street !== view.street || (prev.hand_in_progress && !view.hand_in_progress));
    if (streetEnded) {
      for (const s of prev.seats) {
        const spot = spotOf.get(s.seat);
        if (s.bet > 0 && spot) newFlyers.push({ id: ++flyerId, from: spot.betPos, to: POT_POINT, amount: s.bet, delay: 0 });
      }
    }
    // The pot pushed to the winners.
    if (prev.hand_in_progress && !view.hand_in_progress && view.last_result) {
      for (const [seatKey, amount] of Object.entries(view.last_result.winnings)) {
        const spot = spotOf.get(Number(seatKey));
        // Into the seat's bet spot (in front of it), not onto its name.
        if (amount > 0 && spot) newFlyers.push({ id: ++flyerId, from: POT_POINT, to: spot.betPos, amount, delay: streetEnded ? 450 : 0 });
      }
    }
    if (newFlyers.length) {
      setFlyers((list) => [...list, ...newFlyers]);
      const ids = new Set(newFlyers.map((f) => f.id));
      timers.push(setTimeout(() => setFlyers((list) => list.filter((f) => !ids.has(f.id))), 1400));
    }
    return () => {
      // Timers are short; let them run even if the view changes again.
      void timers;
    };
  }, [view, spotOf]);

  const result = !view.hand_in_progress ? view.last_result : null;
  const winnings = result?.winnings ?? {};
  const board = view.board.length ? view.board : (result?.board ?? []);
  // The server deals only with two players who can play, one of them a person (not sitting out).
  const canPlay = view.seats.filter((s) => s.state !== "sitting_out" && s.stack > 0);
  const waitingForPlayers = canPlay.length < 2 || !canPlay.some((s) => !s.is_bot);
  const potTotal = view.total_pot;
  const collected = view.pots.reduce((sum, p) => sum + p.amount, 0);
  const winningCards = new Set<string>();
  const winnerLines = result
    ? Object.entries(result.winnings)
        .filter(([, amount]) => amount > 0)
        .map(([seatKey, amount]) => {
          const seat = seatsByNumber.get(Number(seatKey));
          const shown = result.shown[seatKey];
          // Run more than once, a hand is won on its runs (shown under the table): no one hand name.
          const once = (result.boards ?? []).length < 2;
          const ranked = once && shown && result.board.length >= 3 ? bestHand([...shown, ...result.board]) : null;
          for (const code of ranked?.cards ?? []) winningCards.add(code);
          return { seat: Number(seatKey), name: seat?.name ?? `Seat ${seatKey}`, amount, handName: ranked ? describeRanked(ranked) : null, shortHandName: ranked ? describeShort(ranked) : null };
        })
    : [];
  const showdownHighlight = winningCards.size > 0;

  const tableClasses = ["poker-table", `poker-table--${size}`, view.hand_in_progress ? "poker-table--live" : "", crowded ? "poker-table--crowded" : ""].join(" ");
  return (
    <div ref={box} className={tableClasses} data-testid="poker-table" data-hand={view.hand_no} data-street={view.street ?? ""}>
      <div className="poker-table__rail">
        <div className="poker-table__felt">
          <div className="poker-table__logo" aria-hidden="true">
            {tableName ?? "Showdown"}
            <small>
              {view.config.variant === "limit" ? "Limit" : "No-Limit"} Hold'em · {formatChips(view.config.small_blind, unit)}/{formatChips(view.config.big_blind, unit)}
            </small>
          </div>
        </div>
      </div>

      {/* The board holds its place; the pot and the result hang below it, so however many
          lines the result takes the board never moves towards the seats. */}
      <div className="poker-table__center">
        <div className="board" data-testid="board" aria-label="board">
          {[0, 1, 2, 3, 4].map((i) => {
            const code = board[i];
            return code ? (
              <Card
                key={`${view.hand_no}-${code}`}
                code={code}
                size="lg"
                className="card--flip"
                style={{ animationDelay: `${(i < 3 ? i : 0) * 90}ms` }}
                testId="board-card"
                highlight={showdownHighlight && winningCards.has(code)}
                dim={showdownHighlight && !winningCards.has(code)}
              />
            ) : (
              <div key={`slot-${i}`} className="board__slot" aria-hidden="true" />
            );
          })}
        </div>
        <div className="poker-table__below">
          <div className="pot" data-testid="pot" aria-live="polite">
            {view.hand_in_progress && potTotal > 0 && (
              <>
                <span className="pot__label">Pot</span> <span className="pot__amount" data-testid="pot-total">{formatChips(potTotal, unit)}</span>
                {view.pots.length > 1 && (
                  <div className="pot__sides" data-testid="side-pots">
                    {view.pots.map((p, i) => (
                      <span key={i} className="pot__side">
                        {i === 0 ? "Main" : `Side ${i}`}: {formatChips(p.amount, unit)}
                      </span>
                    ))}
                  </div>
                )}
              </>
            )}
            {!view.hand_in_progress && winnerLines.length > 0 && <HandResult winners={winnerLines} unit={unit} />}
            {!view.hand_in_progress && winnerLines.length === 0 && !waitingForPlayers && (
              <div className="pot__waiting" data-testid="waiting">
                Next hand starting…
              </div>
            )}
            {!view.hand_in_progress && waitingForPlayers && (
              <div className="pot__waiting" data-testid="waiting-for-players">
                Waiting for players: a hand is dealt once a player sits in
              </div>
            )}
          </div>
          {collected > 0 && view.hand_in_progress && (
            <div className="pot__chips" aria-hidden="true">
              <ChipStack amount={collected} bigBlind={view.config.big_blind} />
            </div>
          )}
          <div className="poker-table__hand-no">
            {view.hand_no > 0 && `Hand #${view.hand_no}`}
            {view.street && view.hand_in_progress ? ` · ${STREET_LABEL[view.street]}` : ""}
          </div>
        </div>
      </div>

      {spots.map((spot) => {
        const seat = seatsByNumber.get(spot.seat);
        if (!seat) return <EmptySeat key={spot.seat} seat={spot.seat} canSit={canSit} onSit={onSit} style={pos(spot.seatPos)} />;
        const isViewer = seat.seat === view.viewer_seat;
        const won = winnings[String(seat.seat)] ?? null;
        const dealDelay = dealing && dealing.hand === view.hand_no ? (dealing.delays.get(seat.seat) ?? null) : null;
        return (
          <Seat
            key={spot.seat}
            seat={seat}
            unit={unit}
            isViewer={isViewer}
            isActor={view.hand_in_progress && view.actor === seat.seat}
            isButton={view.button === seat.seat}
            blind={view.hand_in_progress ? (view.small_blind_seat === seat.seat ? "SB" : view.big_blind_seat === seat.seat ? "BB" : null) : null}
            lastAction={view.hand_in_progress ? lastActionLabel(view.events, seat.seat, view.street, unit) : null}
            clock={clock}
            clockOffset={clockOffset}
            won={won && won > 0 ? won : null}
            highlightCards={showdownHighlight && won ? winningCards : null}
            aiDecided={aiSeats?.has(seat.seat) ?? false}
            cue={seatCues?.get(seat.seat) ?? null}
            dealDelay={dealDelay}
            cardSize={isViewer ? "md" : "sm"}
            hud={hud}
            foldedInHand={view.events.some((e) => e.kind === "fold" && e.seat === seat.seat)}
            handName={isViewer && seat.hole_cards ? handNameFor(seat.hole_cards, board) : null}
            bet={tall ? seat.bet : 0}
            bigBlind={view.config.big_blind}
            side={spot.side}
            style={{
              ...pos(spot.seatPos),
              "--deal-dx": `${50 - spot.seatPos.x}cqw`,
              "--deal-dy": `${44 - spot.seatPos.y}cqh`,
            } as CSSProperties}
          />
        );
      })}

      {view.seats.map((seat) => {
        const spot = spotOf.get(seat.seat);
        // A phone table shows the bets under the seats (Seat's bet): on the felt they cover cards.
        if (!spot || seat.bet <= 0 || tall) return null;
        return (
          <div key={`bet-${seat.seat}`} className="bet" style={pos(spot.betPos)} data-testid={`bet-${seat.seat}`}>
            <ChipStack amount={seat.bet} bigBlind={view.config.big_blind} />
            <span className="bet__amount">{formatChips(seat.bet, unit)}</span>
          </div>
        );
      })}

      {view.button !== null && spotOf.get(view.button) && (
        <div className="dealer-button" style={pos(spotOf.get(view.button)!.buttonPos)} data-testid="dealer-button" title="Dealer button">
          D
        </div>
      )}

      {flyers.map((f) => (
        <div
          key={f.id}
          className="flyer"
          style={{
            ...pos(f.from),
            "--fly-dx": `${f.to.x - f.from.x}cqw`,
            "--fly-dy": `${f.to.y - f.from.y}cqh`,
            animationDelay: `${f.delay}ms`,
          } as CSSProperties}
          aria-hidden="true"
        >
          <ChipStack amount={f.amount} bigBlind={view.config.big_blind} />
        </div>
      ))}
    </div>
  );
}
