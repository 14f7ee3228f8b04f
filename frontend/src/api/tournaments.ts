/** The tournaments REST API (#35): backend/tournament/schemas.py, written by hand. */
import type { TournamentView } from "../protocol";
import { request } from "./http";

export type TournamentStatus = "registering" | "running" | "finished";

export interface TournamentSummary {
  tournament_id: string;
  name: string;
  status: TournamentStatus;
  kind: "sng" | "mtt";
  registered: number;
  max_players: number;
  buy_in: number;
  prize_pool: number;
  structure: string;
  starting_chips: number;
}

export interface TournamentLevel {
  small_blind: number;
  big_blind: number;
  ante: number;
  big_blind_ante: boolean;
}

export interface TournamentPlayer {
  player_id: string;
  name: string;
  is_bot: boolean;
  chips: number;
  table_id: string | null;
  place: number | null;
  prize: number;
  rebuys: number;
  add_on: boolean;
  /** Busted in the rebuy period: out unless they rebuy before it ends. */
  awaiting_rebuy: boolean;
  may_rebuy: boolean;
  may_add_on: boolean;
}

export interface TournamentDetail extends TournamentSummary {
  levels: TournamentLevel[];
  levels_by: "time" | "hands";
  level_seconds: number;
  level_hands: number;
  prizes: number[];
  players: TournamentPlayer[];
  tables: { table_id: string; players: number; chips: number }[];
  clock: TournamentView | null;
  moves: number;
  hands: number;
  /** Rebuys in the first this many levels (0: a freezeout). */
  rebuy_levels: number;
  rebuy_chips: number;
  max_rebuys: number;
  /** The add-on's chips (0: none). */
  add_on: number;
  rebuys: number;
  add_ons: number;
  rebuy_open: boolean;
  add_on_open: boolean;
}

export interface CreateTournamentRequest {
  name: string;
  players: number;
  bots: number;
  buy_in: number;
  structure: "turbo" | "regular" | "deep";
  levels_by: "time" | "hands";
  prizes: "winner_takes_all" | "top2" | "top3" | "standard";
  seats_per_table?: number;
  level_hands?: number;
  rebuy_levels?: number;
  add_on?: number;
}

export interface TournamentRecord {
  player_id: string;
  played: number;
  cashes: number;
  wins: number;
  buy_ins: number;
  prizes: number;
  roi: number | null;
  results: {
    tournament_id: string;
    name: string;
    place: number | null;
    prize: number;
    buy_in: number;
    entrants: number;
  }[];
}

const base = "/api/tournaments";
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const listTournaments = (status: TournamentStatus | null = null): Promise<TournamentSummary[]> =>
  request<TournamentSummary[]>(status ? `${base}?status=${status}` : base);

export const getTournament = (id: string): Promise<TournamentDetail> => request<TournamentDetail>(one(id));

export const createTournament = (body: CreateTournamentRequest, token: string | null): Promise<TournamentDetail> =>
  request<TournamentDetail>(base, { method: "POST", body, token });

export const registerTournament = (id: string, token: string | null): Promise<TournamentDetail> =>
  request<TournamentDetail>(`${one(id)}/register`, { method: "POST", token });

export const unregisterTournament = (id: string, token: string | null): Promise<TournamentDetail> =>
  request<TournamentDetail>(`${one(id)}/register`, { method: "DELETE", token });

export const startTournament = (id: string, token: string | null): Promise<TournamentDetail> =>
  request<TournamentDetail>(`${one(id)}/start`, { method: "POST", token });

export const rebuyTournament = (id: string, token: string | null): Promise<TournamentDetail> =>
  request<TournamentDetail>(`${one(id)}/rebuy`, { method: "POST", token });

export const addOnTournament = (id: string, token: string | null): Promise<TournamentDetail> =>
  request<TournamentDetail>(`${one(id)}/add-on`, { method: "POST", token });

export const playerTournaments = (playerId: string): Promise<TournamentRecord> =>
  request<TournamentRecord>(`/api/players/${encodeURIComponent(playerId)}/tournaments`);
