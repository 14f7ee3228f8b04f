/** Realistic table views for tests (shapes as holdem/views.py sends them). */
import type { HandEvent, HandRecord, LegalActions, OpponentRead, SeatView, TableConfig, TableView } from "../protocol";

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
  straddle: "off",
  run_it_max: 1,
  rabbit_hunt: false,
  bomb_pot_ante: 0,
  bomb_pot_every: 0,
};

/** A hand event as the server sends it: every field present, the ones not given empty. */
export function event(partial: Pick<HandEvent, "kind" | "street"> & Partial<HandEvent>): HandEvent {
  return { seat: null, amount: null, cards: [], all_in: false, pot_index: null, run: null, ...partial };
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
    straddle: false,
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
    boards: [],
    runout_voters: [],
    runout_votes: {},
    bomb_pot: false,
    bomb_pot_next: false,
    rabbit: [],
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

/** A lobby row (GET /api/tables) for a six-seat No-Limit table with two bots. */
export function tableSummary(partial: Record<string, unknown> = {}) {
  return {
    table_id: "t1",
    name: "Friday",
    variant: "no-limit",
    small_blind: 50,
    big_blind: 100,
    ante: 0,
    seats: 6,
    seats_taken: 2,
    bots: 2,
    players: 0,
    min_buy_in: 4000,
    max_buy_in: 10000,
    action_timeout: 20,
    time_bank: 30,
    advice_allowed: true,
    hand_no: 0,
    hand_in_progress: false,
    ...partial,
  };
}

/** A finished heads-up hand: Alice (seat 1, KhKd) raises, folds to Bob's flop bet. */
export const FOLDED_TO_A_BET: HandRecord = {
  hand_id: "t1-9",
  table_id: "t1",
  hand_no: 9,
  config: NL_CONFIG,
  button: 1,
  seats: [
    { seat: 1, player_id: "alice", name: "Alice", is_bot: false, starting_stack: 1000, final_stack: 700, hole_cards: ["Kh", "Kd"] },
    { seat: 2, player_id: "bob", name: "Bob", is_bot: true, starting_stack: 1000, final_stack: 1300, hole_cards: ["??", "??"] },
  ],
  board: ["2c", "7d", "9h"],
  boards: [],
  bomb_pot: false,
  rabbit: [],
  tournament_id: null,
  events: [
    event({ kind: "small_blind", street: "preflop", seat: 1, amount: 50 }),
    event({ kind: "big_blind", street: "preflop", seat: 2, amount: 100 }),
    event({ kind: "raise", street: "preflop", seat: 1, amount: 300 }),
    event({ kind: "call", street: "preflop", seat: 2, amount: 200 }),
    event({ kind: "board", street: "flop", cards: ["2c", "7d", "9h"] }),
    event({ kind: "bet", street: "flop", seat: 2, amount: 500 }),
    event({ kind: "fold", street: "flop", seat: 1 }),
    event({ kind: "return", street: "flop", seat: 2, amount: 500 }),
    event({ kind: "win", street: "showdown", seat: 2, amount: 600, pot_index: 0 }),
  ],
};
