/** Turn a replay step into a TableView, so the replayer draws with the live table's components. */
import type { HandRecord, SeatView, TableView } from "../protocol";
import type { ReplayStep } from "./replay";

export function stepToView(record: HandRecord, steps: ReplayStep[], index: number, viewerSeat: number | null): TableView {
  const step = steps[Math.max(0, Math.min(index, steps.length - 1))]!;
  const last = index >= steps.length - 1;
  const blinds = record.events.filter((e) => e.kind === "small_blind" || e.kind === "big_blind");
  const sb = blinds.find((e) => e.kind === "small_blind")?.seat ?? null;
  const bb = blinds.find((e) => e.kind === "big_blind")?.seat ?? null;
  const next = record.events[step.index];
  const actor = !last && next && next.seat != null && ["fold", "check", "call", "bet", "raise"].includes(next.kind) ? next.seat : null;
  const seats: SeatView[] = step.seats.map((s) => ({
    seat: s.seat,
    player_id: `replay-${s.seat}`,
    name: s.name,
    is_bot: s.isBot,
    bot_style: null,
    stack: s.stack,
    bet: s.bet,
    state: s.folded ? "folded" : s.allIn ? "all_in" : "active",
    has_cards: !s.folded && !last,
    hole_cards: s.cards && (s.shown || s.seat === viewerSeat || s.cards.length) ? s.cards : null,
    waiting_for_big_blind: false,
    leaving: false,
    straddle: false,
  }));
  const bets = step.seats.reduce((sum, s) => sum + s.bet, 0);
  const won: Record<string, number> = {};
  const net: Record<string, number> = {};
  const shown: Record<string, string[]> = {};
  for (const s of step.seats) {
    if (s.won) won[String(s.seat)] = s.won;
    if (s.shown && s.cards) shown[String(s.seat)] = s.cards;
  }
  for (const r of record.seats) net[String(r.seat)] = r.final_stack - r.starting_stack;
  return {
    table_id: record.table_id,
    config: record.config,
    viewer_seat: viewerSeat,
    hand_no: record.hand_no,
    hand_in_progress: !last,
    button: record.button,
    small_blind_seat: sb,
    big_blind_seat: bb,
    street: step.street,
    board: step.board,
    pots: step.pot > 0 ? [{ amount: step.pot, seats: [] }] : [],
    total_pot: step.pot + bets,
    seats,
    actor,
    legal_actions: null,
    events: record.events.slice(0, step.index),
    last_result: last ? { hand_no: record.hand_no, net, winnings: won, shown, board: step.board, boards: record.boards ?? [] } : null,
    boards: last ? (record.boards ?? []) : [],
    runout_voters: [],
    runout_votes: {},
    bomb_pot: record.bomb_pot ?? false,
    bomb_pot_next: false,
    rabbit: last ? (record.rabbit ?? []) : [],
  };
}
