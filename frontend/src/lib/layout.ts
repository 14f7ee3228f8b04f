/**
 * Seat positions around an oval table, in percent of the table's box.
 * The viewer's own seat sits at the bottom centre; seat numbers increase
 * clockwise (the way the button moves).
 */

export interface Point {
  x: number;
  y: number;
}

export interface SeatSpot {
  seat: number;
  /** the seat box on the rail */
  seatPos: Point;
  /** chips in front of the seat */
  betPos: Point;
  /** the dealer button */
  buttonPos: Point;
  /** which side of the table, to orient things */
  side: "bottom" | "top" | "left" | "right";
}

function onEllipse(angle: number, rx: number, ry: number): Point {
  return { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle) };
}

/** The seat shown at the bottom: the viewer's seat, else seat 1. */
export function anchorSeat(viewerSeat: number | null | undefined): number {
  return viewerSeat ?? 1;
}

/** Ellipse radii (percent of the box) for seats, bets and the button. */
export interface LayoutShape {
  seat: [number, number];
  bet: [number, number];
  button: [number, number];
}

// A seat's pod is 14.5% of the box wide on a wide table and 25% on a tall one
// (--pod-w in table.css): the seats' x radius keeps a side seat's pod inside the box.
export const WIDE: LayoutShape = { seat: [42, 41], bet: [28, 24], button: [33, 29] };
export const TALL: LayoutShape = { seat: [37, 43], bet: [23, 28], button: [27, 33] };

export function shapeFor(width: number, height: number): LayoutShape {
  return height > 0 && width / height < 1.1 ? TALL : WIDE;
}

export function seatLayout(tableSize: number, anchor: number, shape: LayoutShape = WIDE): SeatSpot[] {
  const n = Math.max(2, tableSize);
  const spots: SeatSpot[] = [];
  for (let seat = 1; seat <= n; seat += 1) {
    const index = (seat - anchor + n) % n;
    const angle = Math.PI / 2 + (index * 2 * Math.PI) / n;
    const seatPos = onEllipse(angle, ...shape.seat);
    const betPos = onEllipse(angle, ...shape.bet);
    const buttonPos = onEllipse(angle + (n <= 3 ? 0.35 : 0.24), ...shape.button);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const side = Math.abs(sin) >= Math.abs(cos) * 0.9 ? (sin > 0 ? "bottom" : "top") : cos > 0 ? "right" : "left";
    spots.push({ seat, seatPos, betPos, buttonPos, side });
  }
  return spots;
}
