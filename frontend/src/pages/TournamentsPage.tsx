/** The lobby's tournaments tab: registering, running and finished; create one. */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "react-router";
import { createTournament, listTournaments, type CreateTournamentRequest, type TournamentStatus } from "../api/tournaments";
import { useSession } from "../hooks/useSession";
import { paths } from "../routes";

const STATES: [TournamentStatus, string][] = [
  ["registering", "Registering"],
  ["running", "Running"],
  ["finished", "Finished"],
];

function CreateTournament({ onDone }: { onDone: () => void }) {
  const { session } = useSession();
  const navigate = useNavigate();
  const [spec, setSpec] = useState<CreateTournamentRequest>({
    name: session ? `${session.name}'s sit-and-go` : "Sit-and-go",
    players: 6,
    bots: 5,
    buy_in: 100,
    structure: "turbo",
    levels_by: "time",
    prizes: "top3",
  });
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<CreateTournamentRequest>) => setSpec((s) => ({ ...s, ...patch }));
  const submit = async () => {
    try {
      const created = await createTournament(spec, session?.token ?? null);
      onDone();
      navigate(paths.tournament(created.tournament_id));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <form
      className="form-grid"
      data-testid="create-tournament"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label>
        Name <input value={spec.name} onChange={(e) => set({ name: e.target.value })} data-testid="tournament-name" />
      </label>
      <label>
        Players{" "}
        <input
          type="number"
          min={2}
          max={1000}
          value={spec.players}
          onChange={(e) => set({ players: Number(e.target.value) })}
          data-testid="tournament-players"
        />
      </label>
      <label>
        Bots{" "}
        <input
          type="number"
          min={0}
          max={spec.players}
          value={spec.bots}
          onChange={(e) => set({ bots: Number(e.target.value) })}
          data-testid="tournament-bots"
        />
      </label>
      <label>
        Buy-in <input type="number" min={0} value={spec.buy_in} onChange={(e) => set({ buy_in: Number(e.target.value) })} />
      </label>
      <label>
        Structure
        <select
          value={spec.structure}
          onChange={(e) =>
            set({
              structure: e.target.value as CreateTournamentRequest["structure"],
            })
          }
          data-testid="tournament-structure"
        >
          <option value="turbo">Turbo</option>
          <option value="regular">Regular</option>
          <option value="deep">Deep</option>
        </select>
      </label>
      <label>
        Levels by
        <select value={spec.levels_by} onChange={(e) => set({ levels_by: e.target.value as "time" | "hands" })} data-testid="tournament-levels-by">
          <option value="time">Time</option>
          <option value="hands">Hands</option>
        </select>
      </label>
      {spec.levels_by === "hands" && (
        <label>
          Hands per level{" "}
          <input
            type="number"
            min={1}
            max={1000}
            value={spec.level_hands ?? 6}
            onChange={(e) => set({ level_hands: Number(e.target.value) })}
            data-testid="tournament-level-hands"
          />
        </label>
      )}
      <label>
        Prizes
        <select value={spec.prizes} data-testid="tournament-prizes" onChange={(e) => set({ prizes: e.target.value as CreateTournamentRequest["prizes"] })}>
          <option value="winner_takes_all">Winner takes all</option>
          <option value="top2">Top 2</option>
          <option value="top3">Top 3</option>
          <option value="standard">Standard (about 15% paid)</option>
        </select>
      </label>
      <label>
        Rebuy levels{" "}
        <input
          type="number"
          min={0}
          max={100}
          value={spec.rebuy_levels ?? 0}
          onChange={(e) => {
            const levels = Number(e.target.value);
            set(levels > 0 ? { rebuy_levels: levels } : { rebuy_levels: 0, add_on: 0 }); // no period, no add-on
          }}
          data-testid="tournament-rebuy-levels"
        />
      </label>
      {(spec.rebuy_levels ?? 0) > 0 && (
        <label>
          Add-on chips (0: none){" "}
          <input
            type="number"
            min={0}
            value={spec.add_on ?? 0}
            onChange={(e) => set({ add_on: Number(e.target.value) })}
            data-testid="tournament-add-on"
          />
        </label>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="btn btn--primary" data-testid="create-tournament-submit">
          Create
        </button>{" "}
        <button type="button" className="btn btn--ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function TournamentsPage() {
  const [state, setState] = useState<TournamentStatus>("registering");
  const [creating, setCreating] = useState(false);
  const queries = useQueryClient();
  const list = useQuery({
    queryKey: ["tournaments", state],
    queryFn: () => listTournaments(state),
    refetchInterval: 3000,
  });
  return (
    <div className="lobby" data-testid="tournaments">
      <div className="lobby__head">
        <div>
          <h1>Tournaments</h1>
          <p className="muted">Sit-and-go and multi-table: bots fill the seats nobody takes.</p>
        </div>
        {!creating && (
          <button type="button" className="btn btn--primary" onClick={() => setCreating(true)} data-testid="open-create-tournament">
            + New tournament
          </button>
        )}
      </div>
      {creating && (
        <div className="panel">
          <CreateTournament
            onDone={() => {
              setCreating(false);
              void queries.invalidateQueries({ queryKey: ["tournaments"] });
            }}
          />
        </div>
      )}
      <div className="tabs" role="tablist">
        {STATES.map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={state === key}
            className={`tab${state === key ? " is-on" : ""}`}
            onClick={() => setState(key)}
            data-testid={`tournaments-${key}`}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="panel">
        {list.data === undefined ? (
          <p className="muted">Loading…</p>
        ) : list.data.length === 0 ? (
          <p className="muted" data-testid="no-tournaments">
            None {state}.
          </p>
        ) : (
          <table className="table-list" data-testid="tournament-list">
            <thead>
              <tr>
                <th>Tournament</th>
                <th>Players</th>
                <th className="hide-sm">Buy-in</th>
                <th>Prize pool</th>
                <th className="hide-sm">Structure</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((t) => (
                <tr key={t.tournament_id} data-testid="tournament-row">
                  <td>
                    <Link to={paths.tournament(t.tournament_id)}>{t.name}</Link> <span className="tag">{t.kind.toUpperCase()}</span>
                  </td>
                  <td className="num">
                    {t.registered}/{t.max_players}
                  </td>
                  <td className="num hide-sm">{t.buy_in}</td>
                  <td className="num">{t.prize_pool}</td>
                  <td className="hide-sm">{t.structure}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
