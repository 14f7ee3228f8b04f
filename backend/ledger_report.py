"""A table session's ledger for its players: each player's chips in and out, the net,
and the settle-up with the fewest payments that square the night.

Net = cashed out + still on the table - (buy-ins + rebuys and top-ups + the host's
adjustments). Chips only move between players in hands, so the nets sum to zero.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

EXACT_UP_TO = 12  # players: 3^12 subset pairs are a fraction of a second
IN_KINDS = {"buy_in": "buy_ins", "rebuy": "rebuys", "adjust": "adjustments"}


class LedgerRow(BaseModel):
    player_id: str
    name: str
    is_bot: bool
    buy_ins: int = 0
    rebuys: int = Field(0, description="rebuys and top-ups")
    adjustments: int = Field(0, description="the host's stack adjustments (negative: taken)")
    cashed_out: int = 0
    on_table: int = Field(0, description="the stack still seated (a live hand: as dealt)")
    net: int = 0


class Payment(BaseModel):
    payer: str
    payee: str
    amount: int


class TableLedger(BaseModel):
    table_id: str
    rows: list[LedgerRow]
    total: int = Field(description="the sum of the nets: always 0")
    settle_up: list[Payment]


def build_ledger(
    table_id: str,
    entries: Iterable[Mapping[str, Any]],
    on_table: Mapping[str, int],
    names: Mapping[str, str],
) -> TableLedger:
    """Entries are deduplicated by `_id` (stored ones and those not yet stored)."""
    rows: dict[str, LedgerRow] = {}

    def row(player_id: str) -> LedgerRow:
        if player_id not in rows:
            rows[player_id] = LedgerRow(
                player_id=player_id,
                name=names.get(player_id, player_id),
                is_bot=player_id.startswith("bot-"),
            )
        return rows[player_id]

    seen: set[str] = set()
    for entry in entries:
        entry_id = str(entry.get("_id", ""))
        if entry_id in seen:
            continue
        seen.add(entry_id)
        target = row(str(entry["player_id"]))
        kind, amount = str(entry["kind"]), int(entry["amount"])
        if kind == "cashout":
            target.cashed_out += amount
        elif kind in IN_KINDS:
            field = IN_KINDS[kind]
            setattr(target, field, getattr(target, field) + amount)
    for player_id, stack in on_table.items():
        row(player_id).on_table = stack
    for r in rows.values():
        r.net = r.cashed_out + r.on_table - r.buy_ins - r.rebuys - r.adjustments
    ordered = sorted(rows.values(), key=lambda r: (-r.net, r.name))
    nets = {r.player_id: r.net for r in ordered}
    return TableLedger(
        table_id=table_id, rows=ordered, total=sum(nets.values()), settle_up=settle_up(nets)
    )


def settle_up(nets: Mapping[str, int]) -> list[Payment]:
    """The fewest payments that bring every net to zero (the nets must sum to zero).

    n players with a nonzero net need n - g payments, g the most groups the players can
    be split into that each sum to zero: found exactly over the subsets (a table has at
    most ten seats, but a night may see more players: beyond 12, whose subsets take too
    long, one group, greedily: still no more than n - 1 payments).
    """
    players = [p for p, n in nets.items() if n != 0]
    if sum(nets[p] for p in players) != 0:
        raise ValueError("the nets do not sum to zero")
    groups = _zero_groups(players, nets) if len(players) <= EXACT_UP_TO else [players]
    payments: list[Payment] = []
    for group in groups:
        payments += _pay_within(group, nets)
    return payments


def _zero_groups(players: list[str], nets: Mapping[str, int]) -> list[list[str]]:
    n = len(players)
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + nets[players[low]]
    # best[mask]: the most zero-sum groups `mask` splits into (-1: it does not sum to 0).
    best = [-1] * (1 << n)
    choice = [0] * (1 << n)
    best[0] = 0
    for mask in range(1, 1 << n):
        if sums[mask] != 0:
            continue
        low = mask & -mask  # the group holding the lowest player: each split counted once
        sub = mask
        while sub:
            rest = best[mask ^ sub]
            if sub & low and sums[sub] == 0 and rest >= 0 and rest + 1 > best[mask]:
                best[mask], choice[mask] = rest + 1, sub
            sub = (sub - 1) & mask
    groups: list[list[str]] = []
    mask = full
    while mask:
        sub = choice[mask]
        groups.append([players[i] for i in range(n) if sub >> i & 1])
        mask ^= sub
    return groups


def _pay_within(group: list[str], nets: Mapping[str, int]) -> list[Payment]:
    """A zero-sum group of k players squares with k - 1 payments: the largest debtor pays
    the largest creditor until one of them is square."""
    debtors = sorted(((-nets[p], p) for p in group if nets[p] < 0), reverse=True)
    creditors = sorted(((nets[p], p) for p in group if nets[p] > 0), reverse=True)
    payments: list[Payment] = []
    d = c = 0
    owe = [a for a, _ in debtors]
    due = [a for a, _ in creditors]
    while d < len(debtors) and c < len(creditors):
        amount = min(owe[d], due[c])
        payments.append(Payment(payer=debtors[d][1], payee=creditors[c][1], amount=amount))
        owe[d] -= amount
        due[c] -= amount
        if owe[d] == 0:
            d += 1
        if due[c] == 0:
            c += 1
    return payments


def to_csv(ledger: TableLedger) -> str:
    """One row per player, then the payments: for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    fields = ["name", "player_id", "bot", "buy_ins", "rebuys", "adjustments"]
    writer.writerow([*fields, "cashed_out", "on_table", "net"])
    for r in ledger.rows:
        writer.writerow(
            [_cell(r.name), r.player_id, "yes" if r.is_bot else "no", r.buy_ins, r.rebuys,
             r.adjustments, r.cashed_out, r.on_table, r.net]
        )  # fmt: skip
    writer.writerow([])
    writer.writerow(["payer", "payee", "amount"])
    names = {r.player_id: r.name for r in ledger.rows}
    for p in ledger.settle_up:
        writer.writerow([_cell(names[p.payer]), _cell(names[p.payee]), p.amount])
    return out.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet must not run a name as a formula (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
