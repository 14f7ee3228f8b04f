/** A table's REST detail (name, advice rule, the host's invite): null until it arrives. */
import { useEffect, useState } from "react";
import { getTable } from "../api";
import type { TableDetail } from "../protocol";

export function useTableDetail(tableId: string, token: string | null, invite: string | null): TableDetail | null {
  const [detail, setDetail] = useState<TableDetail | null>(null);
  useEffect(() => {
    let cancelled = false;
    getTable(tableId, token, invite)
      .then((d) => !cancelled && setDetail(d))
      .catch(() => {
        /* the socket reports a missing table */
      });
    return () => {
      cancelled = true;
    };
  }, [tableId, token, invite]);
  return detail;
}
