/** The table session's ledger and settle-up (#34): each player's buy-ins, top-ups, the
 * host's adjustments, cash-outs and what is still on the table; the net always sums to
 * zero; the fewest payments that square the night; a CSV download. */
import { useEffect, useState } from "react";
import { downloadLedgerCsv, getLedger } from "../api";
import type { TableLedger } from "../protocol";
import { formatChips } from "../lib/chips";
import { saveText } from "../lib/download";
import { Icon } from "./Icon";

export function LedgerPanel({
  tableId,
  token,
  unit,
  refreshKey,
}: {
  tableId: string;
  token: string | null;
  unit: string;
  /** Changes when the ledger may have (a hand ended, a seat changed): fetched again. */
  refreshKey: string;
}) {
  const [ledger, setLedger] = useState<TableLedger | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    getLedger(tableId, token)
      .then((l) => {
        if (!live) return;
        setLedger(l);
        setError(null);
      })
      .catch((e: Error & { status?: number }) => {
        if (live) setError(e.status === 404 ? "The ledger opens to the table's players once they have bought in." : e.message);
      });
    return () => {
      live = false;
    };
  }, [tableId, token, refreshKey]);
  if (error) return <p className="muted" data-testid="ledger-error">{error}</p>;
  if (!ledger) return <p className="muted">Loading the ledger…</p>;
  const names = new Map(ledger.rows.map((r) => [r.player_id, r.name]));
  const chips = (n: number) => formatChips(n, unit);
  const signed = (n: number) => (n > 0 ? `+${chips(n)}` : n < 0 ? `−${chips(-n)}` : chips(0));
  return (
    <div className="ledger" data-testid="ledger">
      <div className="ledger__scroll">
        <table className="ledger__table">
          <thead>
            <tr>
              <th scope="col">Player</th>
              <th scope="col" title="Buy-ins, top-ups and the host's adjustments">In</th>
              <th scope="col" title="Cashed out, plus what is still on the table">Out</th>
              <th scope="col">Net</th>
            </tr>
          </thead>
          <tbody>
            {ledger.rows.map((r) => (
              <tr key={r.player_id} data-testid={`ledger-row-${r.player_id}`}>
                <th scope="row">
                  {r.name}
                  {r.is_bot ? " (bot)" : ""}
                </th>
                <td>
                  {chips(r.buy_ins + r.rebuys + r.adjustments)}
                  <small className="ledger__detail">
                    {[`${chips(r.buy_ins)} buy-in`, r.rebuys ? `${chips(r.rebuys)} top-ups` : "", r.adjustments ? `${signed(r.adjustments)} adjusted` : ""].filter(Boolean).join(", ")}
                  </small>
                </td>
                <td>
                  {chips(r.cashed_out + r.on_table)}
                  <small className="ledger__detail">
                    {[r.cashed_out ? `${chips(r.cashed_out)} cashed out` : "", r.on_table ? `${chips(r.on_table)} on the table` : ""].filter(Boolean).join(", ") || "–"}
                  </small>
                </td>
                <td className={r.net > 0 ? "is-up" : r.net < 0 ? "is-down" : ""} data-testid="ledger-net">
                  {signed(r.net)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td colSpan={2} />
              <td data-testid="ledger-total">{signed(ledger.total)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <h4>Settle up</h4>
      {ledger.settle_up.length === 0 ? (
        <p className="muted" data-testid="settle-up-none">Nobody owes anybody.</p>
      ) : (
        <ul className="ledger__payments" data-testid="settle-up">
          {ledger.settle_up.map((p) => (
            <li key={`${p.payer}-${p.payee}`}>
              <strong>{names.get(p.payer) ?? p.payer}</strong> pays <strong>{names.get(p.payee) ?? p.payee}</strong> {chips(p.amount)}
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="btn btn--ghost btn--small"
        onClick={() => {
          downloadLedgerCsv(tableId, token)
            .then((text) => saveText(`ledger-${tableId}.csv`, text, "text/csv"))
            .catch((e: Error) => setError(e.message));
        }}
        data-testid="ledger-csv"
      >
        <Icon name="download" size={14} /> CSV
      </button>
    </div>
  );
}
