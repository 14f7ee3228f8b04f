/**
 * The hand's result under the board: who won how much, with what.
 *
 * One or two winners get a line each ("Ada wins 4,000 with a Full House…"). Three or
 * more (a pot split three ways, side pots won by different players) are summed up in
 * two lines, "3,000 to Ada, Bob and Cy" (the amount first: on a phone the names may be
 * cut short) and the hands they won with, so the result
 * is never taller than two winners' lines and stays clear of the seats below the board
 * at every table size (e2e/layout.spec.ts, "winner lines"). Each seat's own "+N" label
 * still says what it won, and the full lines are in the tooltip.
 */
import { formatChips } from "../lib/chips";

export interface WinnerLine {
  seat: number;
  name: string;
  amount: number;
  handName: string | null;
  /** the hand's short name ("9s full of 5s"), shown where the line is narrow (a phone) */
  shortHandName?: string | null;
}

/** The hand's name, full and short: the stylesheet shows the short one on a narrow table. */
function HandName({ full, short }: { full: string; short: string | null | undefined }) {
  if (!short || short === full) return <>{full}</>;
  return (
    <>
      <span className="pot__hand-full">{full}</span>
      <span className="pot__hand-short">{short}</span>
    </>
  );
}

/** The most winners given a line each. */
export const LINED_WINNERS = 2;

function fullLine(w: WinnerLine, unit: string): string {
  return `${w.name} wins ${formatChips(w.amount, unit)}${w.handName ? ` with ${w.handName}` : ""}`;
}

/** "Ada", "Ada and Bob", "Ada, Bob and Cy". */
export function listNames(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export function HandResult({ winners, unit }: { winners: WinnerLine[]; unit: string }) {
  if (winners.length <= LINED_WINNERS) {
    return (
      <div className="pot__result" data-testid="hand-result" data-winners={winners.length}>
        {winners.map((w) => (
          <div key={w.seat} title={fullLine(w, unit)}>
            <strong>{w.name}</strong> wins {formatChips(w.amount, unit)}
            {w.handName ? (
              <span className="pot__hand">
                <span className="pot__with"> with </span>
                <HandName full={w.handName} short={w.shortHandName} />
              </span>
            ) : null}
          </div>
        ))}
      </div>
    );
  }
  const total = winners.reduce((sum, w) => sum + w.amount, 0);
  const hands = [...new Set(winners.map((w) => w.handName).filter((h): h is string => h !== null))];
  const shortHands = [...new Set(winners.map((w) => w.shortHandName ?? w.handName).filter((h): h is string => !!h))];
  return (
    <div className="pot__result" data-testid="hand-result" data-winners={winners.length} title={winners.map((w) => fullLine(w, unit)).join("\n")}>
      <div>
        {formatChips(total, unit)} to <strong>{listNames(winners.map((w) => w.name))}</strong>
      </div>
      {hands.length > 0 && (
        <div className="pot__hand">
          <span className="pot__with">with </span>
          <HandName full={hands.join(" · ")} short={shortHands.join(" · ")} />
        </div>
      )}
    </div>
  );
}
