/**
 * Home-game rules at the table (#34): the run-it-twice prompt with its countdown, every
 * run's board, the rabbit hunt, the bomb pot, and your standing straddle choice.
 */
import type { ClientCommand, TableView } from "../protocol";
import { useNow } from "../hooks/useNow";
import { Card } from "./Card";

const RUNS = ["Once", "Twice", "Three times"];

export interface HomeGameBarProps {
  view: TableView;
  /** server epoch ms when unanswered votes count as "once" */
  runoutDeadline: number | null;
  /** server time minus local time (ms) */
  clockOffset: number;
  send: (command: ClientCommand) => string | null;
}

/** The boards to show: this hand's runs, or the last hand's between hands. */
export function runBoards(view: TableView): string[][] {
  if (view.hand_in_progress) return view.boards ?? [];
  return view.last_result?.boards ?? [];
}

/** The last hand ended before the river at a rabbit-hunting table, and nobody hunted yet. */
export function canHuntRabbit(view: TableView): boolean {
  const result = view.last_result;
  return (
    view.config.rabbit_hunt &&
    view.viewer_seat !== null &&
    !view.hand_in_progress &&
    !!result &&
    result.hand_no === view.hand_no &&
    result.board.length < 5 &&
    (view.rabbit ?? []).length === 0
  );
}

export function HomeGameBar({ view, runoutDeadline, clockOffset, send }: HomeGameBarProps) {
  const me = view.viewer_seat;
  const voters = view.runout_voters ?? [];
  const voting = view.hand_in_progress && voters.length > 0;
  const now = useNow(voting) + clockOffset;
  const left = voting && runoutDeadline !== null ? Math.max(0, Math.ceil((runoutDeadline - now) / 1000)) : null;
  const asked = me !== null && voters.includes(me);
  const boards = runBoards(view);
  const rabbit = view.rabbit ?? [];
  const mine = view.seats.find((s) => s.seat === me);
  const straddle = view.config.straddle !== "off" && mine !== undefined;
  const hunt = canHuntRabbit(view);
  const bomb = view.hand_in_progress && view.bomb_pot;
  if (!voting && boards.length < 2 && !rabbit.length && !hunt && !straddle && !bomb && !view.bomb_pot_next) return null;
  return (
    <div className="home-bar" data-testid="home-bar">
      {bomb && <span className="home-bar__tag" data-testid="bomb-pot">Bomb pot</span>}
      {!view.hand_in_progress && view.bomb_pot_next && (
        <span className="home-bar__tag" data-testid="bomb-pot-next">Next hand: bomb pot</span>
      )}
      {voting && (
        <div className="home-bar__runs" role="group" aria-label="Run it more than once" data-testid="runout-prompt">
          <span>
            {asked ? "All in: run the board more than once? Only if everyone agrees." : "Players all in are choosing the runs."}
            {left !== null && (
              <strong className="home-bar__countdown" data-testid="runout-countdown">
                {" "}
                {left} s
              </strong>
            )}
          </span>
          {asked &&
            RUNS.slice(0, view.config.run_it_max).map((label, i) => (
              <button
                key={label}
                type="button"
                className={`btn btn--small${i > 0 ? " btn--primary" : ""}`}
                onClick={() => send({ type: "runouts", runs: i + 1 })}
                data-testid={`runouts-${i + 1}`}
              >
                {label}
              </button>
            ))}
          {me !== null && view.runout_votes?.[String(me)] !== undefined && (
            <span className="muted small" data-testid="runout-voted">
              You chose: {RUNS[view.runout_votes[String(me)]! - 1]?.toLowerCase()}
            </span>
          )}
        </div>
      )}
      {boards.length > 1 && (
        <div className="home-bar__boards" data-testid="run-boards">
          {boards.map((board, i) => (
            <div key={i} className="home-bar__board" data-testid={`run-board-${i + 1}`}>
              <span className="muted small">Run {i + 1}</span>
              {board.map((code) => (
                <Card key={code} code={code} size="xs" />
              ))}
            </div>
          ))}
        </div>
      )}
      {rabbit.length > 0 && (
        <div className="home-bar__board" data-testid="rabbit-cards" title="The cards that would have come: they change nothing">
          <span className="muted small">Rabbit hunt</span>
          {rabbit.map((code) => (
            <Card key={code} code={code} size="xs" dim />
          ))}
        </div>
      )}
      {hunt && (
        <button type="button" className="btn btn--small" onClick={() => send({ type: "rabbit_hunt" })} data-testid="rabbit-hunt">
          Rabbit hunt
        </button>
      )}
      {straddle && (
        <label className="toggle home-bar__straddle" title="Post two big blinds whenever the straddle position reaches you (three or more players)">
          <input
            type="checkbox"
            checked={mine.straddle ?? false}
            onChange={(e) => send({ type: "straddle", enabled: e.target.checked })}
            data-testid="straddle-toggle"
          />
          <span>Straddle ({view.config.straddle === "button" ? "on the button" : "under the gun"})</span>
        </label>
      )}
    </div>
  );
}
