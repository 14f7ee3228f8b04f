/** The lobby: tables (variant, stakes, seats taken, bots), join or watch, create a table. */
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "react-router";
import { createTable } from "../api";
import type { CreateTableRequest } from "../protocol";
import { formatChips } from "../lib/chips";
import { paths } from "../routes";
import { useSession } from "../hooks/useSession";
import { TABLES_KEY, useTables } from "../hooks/useTables";
import { CreateTableForm } from "./CreateTableForm";
import { Leaderboard } from "./Leaderboard";
import { useTableStats } from "../hooks/useStats";
import { NO_DATA } from "../lib/statsFormat";

export function Lobby() {
  const { session } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useTables();
  // The last list stays shown when a poll fails; the error says why it may be stale.
  const tables = list.data ?? null;
  const error = list.error?.message ?? null;
  const [creating, setCreating] = useState(false);
  const figures = useTableStats().data;

  const onCreate = async (spec: CreateTableRequest) => {
    const table = await createTable(spec, session?.token ?? null);
    setCreating(false);
    void queryClient.invalidateQueries({ queryKey: TABLES_KEY });
    // A private table's host keeps the invite in the URL: the link to copy to friends.
    navigate(paths.table(table.table_id, "join", table.invite ?? null));
  };

  return (
    <div className="lobby" data-testid="lobby">
      <div className="lobby__head">
        <div>
          <h1>Lobby</h1>
          <p className="muted">Pick a table, or start your own with bots of your choice.</p>
          <p>
            <Link to={paths.tournaments()} data-testid="lobby-tournaments">
              Tournaments: sit-and-go and multi-table →
            </Link>
          </p>
        </div>
        {!creating && (
          <button type="button" className="btn btn--primary" onClick={() => setCreating(true)} data-testid="open-create-table">
            + New table
          </button>
        )}
      </div>

      {creating && (
        <div className="panel">
          <CreateTableForm onCreate={onCreate} onCancel={() => setCreating(false)} defaultName={session ? `${session.name}'s table` : ""} />
        </div>
      )}

      {error && (
        <p className="error-text" role="alert" data-testid="lobby-error">
          {error}
        </p>
      )}

      <div className="panel">
        {tables === null ? (
          <p className="muted">Loading tables…</p>
        ) : tables.length === 0 ? (
          <div className="lobby__empty" data-testid="no-tables">
            <p>No tables yet.</p>
            {!creating && (
              <button type="button" className="btn btn--primary" onClick={() => setCreating(true)}>
                Create the first one
              </button>
            )}
          </div>
        ) : (
          <table className="table-list" data-testid="table-list">
            <thead>
              <tr>
                <th>Table</th>
                <th className="hide-sm">Game</th>
                <th>Stakes</th>
                <th>Seats</th>
                <th className="hide-sm">Bots</th>
                <th className="hide-sm">Buy-in</th>
                <th className="hide-sm" title="Average pot">Avg pot</th>
                <th className="hide-sm">Hands/h</th>
                <th className="hide-sm" title="Players who saw the flop, per flop dealt">Plrs/flop</th>
                <th aria-label="actions" />
              </tr>
            </thead>
            <tbody>
              {tables.map((t) => {
                const unit = t.config.chip_unit;
                const full = t.seats_taken >= t.config.seats;
                const f = figures?.get(t.table_id);
                return (
                  <tr key={t.table_id} data-testid="table-row" data-table-id={t.table_id}>
                    <td className="table-list__name">
                      {t.name}
                      <span className={`tag tag--${t.config.variant} show-sm`}>{t.config.variant === "limit" ? "FL" : "NL"}</span>
                    </td>
                    <td className="hide-sm">
                      <span className={`tag tag--${t.config.variant}`}>{t.config.variant === "limit" ? "FL" : "NL"}</span> Hold'em
                    </td>
                    <td className="num">
                      {formatChips(t.config.small_blind, unit)}/{formatChips(t.config.big_blind, unit)}
                      {t.config.ante ? <small className="muted"> ante {formatChips(t.config.ante, unit)}</small> : null}
                    </td>
                    <td className="num" data-testid="table-seats">
                      <span className="seats-meter hide-sm" aria-hidden="true">
                        {Array.from({ length: t.config.seats }, (_, i) => (
                          <span key={i} className={i < t.seats_taken ? "is-taken" : ""} />
                        ))}
                      </span>
                      {t.seats_taken}/{t.config.seats}
                      {t.sitting_out ? (
                        <small className="muted" data-testid="table-sitting-out" title="Seats whose player sits out: freed if their player stays away">
                          {" "}
                          ({t.sitting_out} out)
                        </small>
                      ) : null}
                    </td>
                    <td className="num hide-sm">{t.bots}</td>
                    <td className="num hide-sm">
                      {formatChips(t.config.min_buy_in, unit)}–{formatChips(t.config.max_buy_in, unit)}
                    </td>
                    <td className="num hide-sm" data-testid="table-avg-pot">{f?.average_pot != null ? formatChips(Math.round(f.average_pot), unit) : NO_DATA}</td>
                    <td className="num hide-sm" data-testid="table-hands-hour">{f?.hands_per_hour != null ? Math.round(f.hands_per_hour) : NO_DATA}</td>
                    <td className="num hide-sm" data-testid="table-players-flop">{f?.players_per_flop != null ? f.players_per_flop.toFixed(1) : NO_DATA}</td>
                    <td className="table-list__actions">
                      <button
                        type="button"
                        className="btn btn--primary btn--small"
                        disabled={full}
                        onClick={() => navigate(paths.table(t.table_id, "join"))}
                        data-testid="join-table"
                      >
                        {full ? "Full" : "Join"}
                      </button>
                      <button
                        type="button"
                        className="btn btn--ghost btn--small"
                        onClick={() => navigate(paths.table(t.table_id, "watch"))}
                        data-testid="watch-table"
                      >
                        Watch
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
      <Leaderboard />
    </div>
  );
}
