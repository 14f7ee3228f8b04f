/** Players' statistics, results graphs and the leaderboard (backend/api/routes/players.py). */
import { request } from "./http";

export type Variant = "limit" | "no-limit";

export interface Game {
  variant: Variant;
  small_blind: number;
  big_blind: number;
  ante: number;
  stakes: string;
}

/** Shares are 0..1; null where the player never had the chance yet. */
export interface Figures {
  vpip: number | null;
  pfr: number | null;
  three_bet: number | null;
  fold_to_three_bet: number | null;
  aggression_factor: number | null;
  aggression_frequency: number | null;
  cbet: number | null;
  fold_to_cbet: number | null;
  wtsd: number | null;
  wsd: number | null;
  bb_per_100: number | null;
  allin_ev_bb_per_100: number | null;
}

export interface StatLine {
  game: Game | null;
  hands: number;
  counts: Record<string, number>;
  figures: Figures;
}

export interface PlayerStatsPage {
  player_id: string;
  name: string | null;
  is_bot: boolean;
  total: StatLine;
  items: StatLine[];
  total_items: number;
}

export interface ResultPoint {
  hands: number;
  first_at: string;
  last_at: string;
  won: number;
  won_showdown: number;
  won_no_showdown: number;
  allin_ev: number;
  won_bb: number;
  won_showdown_bb: number;
  won_no_showdown_bb: number;
  allin_ev_bb: number;
}

export interface ResultsPage {
  player_id: string;
  hands_per_point: number;
  items: ResultPoint[];
  total: number;
}

export interface LeaderRow {
  rank: number;
  player_id: string;
  name: string | null;
  is_bot: boolean;
  hands: number;
  bb_per_100: number;
}

export interface LeaderboardPage {
  variant: Variant;
  min_hands: number;
  items: LeaderRow[];
  total: number;
}

export interface GameFilter {
  variant?: Variant | undefined;
  bigBlind?: number | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : "";
}

export const statsPaths = {
  stats: (playerId: string, f: GameFilter = {}) =>
    `/api/players/${encodeURIComponent(playerId)}/stats${query({ variant: f.variant, big_blind: f.bigBlind, limit: 100 })}`,
  results: (playerId: string, f: GameFilter = {}) =>
    `/api/players/${encodeURIComponent(playerId)}/results${query({ variant: f.variant, big_blind: f.bigBlind, since: f.since, until: f.until })}`,
  leaderboard: (variant: Variant, minHands: number) => `/api/leaderboard${query({ variant, min_hands: minHands, limit: 20 })}`,
};

export function getPlayerStats(playerId: string, filter: GameFilter = {}, signal?: AbortSignal): Promise<PlayerStatsPage> {
  return request<PlayerStatsPage>(statsPaths.stats(playerId, filter), signal ? { signal } : {});
}

export function getPlayerResults(playerId: string, filter: GameFilter = {}, signal?: AbortSignal): Promise<ResultsPage> {
  return request<ResultsPage>(statsPaths.results(playerId, filter), signal ? { signal } : {});
}

export function getLeaderboard(variant: Variant, minHands: number, signal?: AbortSignal): Promise<LeaderboardPage> {
  return request<LeaderboardPage>(statsPaths.leaderboard(variant, minHands), signal ? { signal } : {});
}

/** A table's lobby figures (GET /api/table-stats). */
export interface TableFigures {
  table_id: string;
  hands: number;
  average_pot: number | null;
  hands_per_hour: number | null;
  players_per_flop: number | null;
}

export interface TableStatsPage {
  items: TableFigures[];
  total: number;
  limit: number;
  offset: number;
}

const TABLE_STATS_PAGE = 100; // the server's largest page

/** Every open table's figures: the lobby lists them all, so this walks the pages. */
export async function getTableStats(signal?: AbortSignal): Promise<TableFigures[]> {
  const all: TableFigures[] = [];
  for (;;) {
    const path = `/api/table-stats${query({ limit: TABLE_STATS_PAGE, offset: all.length })}`;
    const page = await request<TableStatsPage>(path, signal ? { signal } : {});
    all.push(...page.items);
    if (!page.items.length || all.length >= page.total) return all;
  }
}
