/** Realistic table views for tests (shapes as holdem/views.py sends them). */
import type { HandEvent, LegalActions, OpponentRead, SeatView, TableConfig, TableView } from "../protocol";

export const NL_CONFIG: TableConfig = {
  variant: "no-limit",
  seats: 6,
  small_blind: 50,
  big_blind: 100,
  ante: 0,
  ante_mode: "every_seat",
  small_bet: 0,
  big_bet: 0,
  raise_cap: 4,
  min_buy_in: 4000,
  max_buy_in: 10000,
  chip_unit: "1",
};

/** A hand event as the server sends it: every field present, the ones not given empty. */
export function event(partial: Pick<HandEvent, "kind" | "street"> & Partial<HandEvent>): HandEvent {
  return { seat: null, amount: null, cards: [], all_in: false, pot_index: null, ...partial };
}

/** An opponent read as the server sends it: statistics not given are null. */
export function read(partial: Pick<OpponentRead, "seat"> & Partial<OpponentRead>): OpponentRead {
  return {
    label: "", vpip: null, pfr: null, aggression: null, fold_to_bet: null, note: "",
    hands: null, predicted: null, range_grid: null, ...partial,
  };
}

export const LIMIT_CONFIG: TableConfig = {
  ...NL_CONFIG,
  variant: "limit",
  small_blind: 1,
  big_blind: 2,
  small_bet: 2,
  big_bet: 4,
  min_buy_in: 80,
  max_buy_in: 200,
};

export function seat(partial: Partial<SeatView> & { seat: number; name: string }): SeatView {
  return {
    player_id: `p-${partial.seat}`,
    is_bot: false,
    bot_style: null,
    stack: 10000,
    bet: 0,
    state: "active",
    has_cards: true,
    hole_cards: null,
    waiting_for_big_blind: false,
    leaving: false,
    ...partial,
  };
}

export function legal(partial: Partial<LegalActions> = {}): LegalActions {
  return {
    seat: 1,
    can_fold: true,
    can_check: false,
    call_amount: 100,
    can_call: true,
    raise_kind: "raise",
    min_to: 200,
    max_to: 9950,
    committed: 0,
    stack: 9950,
    ...partial,
  };
}

/** Preflop, 4 players: Alice (seat 1, the viewer) to act facing the big blind. */
export function makeView(partial: Partial<TableView> = {}): TableView {
  return {
    table_id: "t1",
    config: NL_CONFIG,
    viewer_seat: 1,
    hand_no: 3,
    hand_in_progress: true,
    button: 4,
    small_blind_seat: 2,
    big_blind_seat: 3,
    street: "preflop",
    board: [],
    pots: [],
    total_pot: 150,
    seats: [
      seat({ seat: 1, name: "Alice", player_id: "alice", hole_cards: ["Ah", "Kd"], stack: 9950 + 50 }),
      seat({ seat: 2, name: "Ada", is_bot: true, bot_style: "aggressive", bet: 50, stack: 9950 }),
      seat({ seat: 3, name: "Bert", is_bot: true, bot_style: "cautious", bet: 100, stack: 9900 }),
      seat({ seat: 4, name: "Cleo", is_bot: true, bot_style: "poki", stack: 8000 }),
    ],
    actor: 1,
    legal_actions: legal({ seat: 1, stack: 10000, max_to: 10000 }),
    events: [
      event({ kind: "small_blind", street: "preflop", seat: 2, amount: 50 }),
      event({ kind: "big_blind", street: "preflop", seat: 3, amount: 100 }),
    ],
    last_result: null,
    ...partial,
  };
}

export function stateMessage(seq: number, view: TableView, extra: Record<string, unknown> = {}) {
  return { type: "state", seq, at: Date.now(), table_id: view.table_id, view, clock: null, cause: null, ...extra };
}
