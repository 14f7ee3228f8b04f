/**
 * TableClient: one table's WebSocket, with automatic reconnect and resync.
 *
 * - Every (re)connection opens /ws/tables/{id}?last_seq=N and sends
 *   `{"type": "auth", "token", "last_seq"}` first: a token never goes in a URL
 *   (URLs are logged). The token is asked for on every (re)connection, so a
 *   refreshed one is used. The server answers `welcome` (resync: true,
 *   missed: n) and then a complete `state`.
 * - States are applied in seq order: one whose seq is not newer than the last
 *   applied one is a duplicate and is dropped, except the first state after a
 *   (re)connection, which is the authoritative resync snapshot.
 * - A dropped connection is retried with capped exponential backoff and
 *   jitter; close codes that mean "you may not be here" (bad credentials,
 *   no such table, replaced by a newer tab) stop the retries.
 * - A ping every two seconds: a socket that has said nothing for two pings is
 *   flagged `stalled` (shown at once: a silent network is otherwise invisible),
 *   and one silent for too long is dropped and reopened (a half-open TCP
 *   connection never fires "close" by itself).
 * - On a cluster (docs/cluster.md §3) a client that follows moves opens its
 *   socket with `?follow=1`; a node that does not own the table closes it with
 *   4010 and the owner's address, and the client opens the same path there at
 *   once (same token, same last_seq: the seat is the player's, not the
 *   socket's). Only that connection moves: a later reconnect goes back where
 *   the client first connected, which sends it to whoever owns the table then.
 *   A move that does not reach a `welcome` (the owner moved again twice, or its
 *   address cannot be opened from here) ends following for the next
 *   connection: it is relayed by the first node, which always works.
 * - The WebSocket constructor is injected, so tests drive it with a fake.
 */
import { decode, encode, type ClientCommand, type OutgoingMessage } from "./messages";
import type {
  AdviceReport,
  Change,
  ChatMessage,
  ConnectionStatus,
  HostState,
  ServerError,
  StatsCounted,
  TableNotice,
  TableView,
  TournamentView,
  TurnClock,
  Welcome,
} from "./types";

/** The part of the browser WebSocket the client uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string; wasClean?: boolean }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type SocketFactory = (url: string) => SocketLike;

/** The access token, or how to get a current one (refreshing it if it is about to expire). */
export type TokenSource = string | null | (() => string | null | Promise<string | null>);

const OPEN = 1;

/** Close codes after which reconnecting cannot help (docs/protocol.md). */
export const CLOSE_POLICY = 1008; // bad credentials or origin, flooding
export const CLOSE_REPLACED = 4000; // the same player opened a newer socket to this table
export const CLOSE_UNKNOWN_TABLE = 4004;
export const CLOSE_MOVED = 4010; // the table is served by another node: the reason is its address
/** Moves followed in a row without a welcome; one more is a loop, and the socket is relayed. */
export const MAX_MOVES = 2;
/**
 * A socket at the owner not open by then is given up and relayed: a page whose CSP does
 * not allow the owner's address gets, in Chromium, a socket that never says anything.
 */
export const FOLLOW_OPEN_MS = 5_000;
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([CLOSE_POLICY, CLOSE_REPLACED, CLOSE_UNKNOWN_TABLE]);

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
}

export interface TableClientOptions {
  /** ws:// or wss:// URL of the table socket, without credentials. */
  url: string;
  token: TokenSource;
  /** a private table's invite token (from its link): sent with `auth`, never in the URL */
  invite?: string;
  /** ask a cluster's node to send the socket to the table's owner (close 4010) instead of relaying it */
  follow?: boolean;
  createSocket?: SocketFactory;
  backoff?: Partial<BackoffOptions>;
  /** 0..1, for jitter; injectable for tests. */
  random?: () => number;
  /** ping period; 0 disables the heartbeat */
  pingIntervalMs?: number;
  /** a socket silent for this long is dropped and reopened */
  silenceTimeoutMs?: number;
  /** a socket silent for this long is flagged stalled (default: two ping periods) */
  stallAfterMs?: number;
}

export interface TableClientSnapshot {
  status: ConnectionStatus;
  view: TableView | null;
  /** the actor's clock with the last state */
  clock: TurnClock | null;
  /** what caused the last state */
  cause: Change | null;
  /** who runs the table and what they set, with the last state */
  host: HostState | null;
  /** the table's tournament (level, clock, field), with the last state; null: a cash table */
  tournament: TournamentView | null;
  /** the run-it-twice vote's end (server epoch ms), with the last state (#34) */
  runoutDeadline: number | null;
  /** the last seq applied */
  seq: number | null;
  /** server time minus local time (ms), measured on the last state */
  clockOffset: number;
  /** from the last welcome */
  welcome: Welcome | null;
  /** reconnect attempts since the last successful open */
  attempts: number;
  /** when the next reconnect attempt is due (epoch ms) */
  retryAt: number | null;
  /** why the connection stopped for good */
  fatal: ServerError | null;
  /** set while the table is paused (the server cannot store its changes yet) */
  paused: TableNotice | null;
  /** open, but nothing heard from the server for a while (a stalled network) */
  stalled: boolean;
}

/** Before the first connection; snapshots are replaced on every change, never mutated. */
export const INITIAL_SNAPSHOT: TableClientSnapshot = Object.freeze({
  status: "idle",
  view: null,
  clock: null,
  cause: null,
  host: null,
  tournament: null,
  runoutDeadline: null,
  seq: null,
  clockOffset: 0,
  welcome: null,
  attempts: 0,
  retryAt: null,
  fatal: null,
  paused: null,
  stalled: false,
});

export type TableClientEvent =
  | { type: "snapshot"; snapshot: TableClientSnapshot }
  | { type: "error"; error: ServerError }
  | { type: "advice"; report: AdviceReport }
  | { type: "chat"; message: ChatMessage }
  | { type: "welcome"; welcome: Welcome }
  | { type: "stats"; stats: StatsCounted }
  | { type: "state"; view: TableView; previous: TableView | null; cause: Change | null; resync: boolean };

export type TableClientListener = (event: TableClientEvent) => void;

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 10_000, factor: 2 };

let refCounter = 0;
export function nextRef(): string {
  refCounter += 1;
  return `c${Date.now().toString(36)}${refCounter.toString(36)}`;
}

export function defaultSocketFactory(url: string): SocketLike {
  return new WebSocket(url) as unknown as SocketLike;
}

/** Build the table socket URL for the page's origin: /ws/tables/{id}. */
export function tableSocketUrl(tableId: string, location: { protocol: string; host: string } = window.location): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}

export class TableClient {
  private readonly options: TableClientOptions;
  private readonly backoff: BackoffOptions;
  private readonly createSocket: SocketFactory;
  private readonly random: () => number;
  private readonly listeners = new Set<TableClientListener>();
  private socket: SocketLike | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private lastHeard = 0;
  private stopped = true;
  private closedByUser = false;
  private awaitingResync = false;
  /** the owner's socket URL to open next (a 4010's address), else the options' URL */
  private movedTo: string | null = null;
  /** moves followed since the last welcome */
  private moves = 0;
  /** a move went wrong: the next connection is relayed (no `follow`) */
  private relayNext = false;
  private snapshot: TableClientSnapshot = INITIAL_SNAPSHOT;

  constructor(options: TableClientOptions) {
    this.options = options;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.createSocket = options.createSocket ?? defaultSocketFactory;
    this.random = options.random ?? Math.random;
  }

  // ------------------------------------------------------------ public API

  getSnapshot = (): TableClientSnapshot => this.snapshot;

  subscribe = (listener: TableClientListener): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  connect(): void {
    if (!this.stopped) return;
    this.closedByUser = false;
    this.stopped = false;
    this.open();
  }

  /** Close for good (leaving the page); no reconnect. */
  close(): void {
    this.closedByUser = true;
    this.stopped = true;
    this.clearRetry();
    this.stopHeartbeat();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      this.detach(socket);
      socket.close(1000, "bye");
    }
    this.update({ status: "closed", retryAt: null });
  }

  /**
   * Skip the backoff wait (the browser came back online, or the user asked).
   * `force` also reconnects after a fatal close (e.g. "take this table back" after 4000).
   */
  reconnectNow(force = false): void {
    if (this.closedByUser) return;
    if (this.snapshot.fatal && !force) return;
    if (this.snapshot.fatal) this.update({ fatal: null });
    this.stopped = false;
    if (this.socket && this.socket.readyState === OPEN) return;
    this.clearRetry();
    this.stopHeartbeat();
    this.movedTo = null;
    if (this.socket) {
      this.detach(this.socket);
      this.socket.close(1000, "reconnect");
      this.socket = null;
    }
    this.open();
  }

  /**
   * Send a command. Returns its ref, or null when not connected (an error
   * event explains why; commands are never queued: they would be stale).
   */
  send(command: ClientCommand): string | null {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN || this.snapshot.status !== "open") {
      this.emit({
        type: "error",
        error: { code: "not_connected", message: "Not connected to the table: reconnecting…" },
      });
      return null;
    }
    const ref = nextRef();
    socket.send(encode({ ...command, ref } as OutgoingMessage));
    return ref;
  }

  /** Server time now, by the offset measured on the last state. */
  serverNow(): number {
    return Date.now() + this.snapshot.clockOffset;
  }

  // ------------------------------------------------------------ internals

  private open(): void {
    this.clearRetry();
    this.update({
      status: this.snapshot.view === null && this.snapshot.attempts === 0 ? "connecting" : "reconnecting",
      retryAt: null,
    });
    let socket: SocketLike;
    try {
      socket = this.createSocket(this.urlWithSeq());
    } catch {
      // The page may not open the owner's address (its CSP: a node without CLUSTER_URLS
      // throws here): relayed next time, or each reconnect would be sent there again.
      if (this.movedTo !== null) this.misdirected();
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.awaitingResync = true;
      this.lastHeard = Date.now();
      this.authenticate(socket);
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.lastHeard = Date.now();
      if (this.snapshot.stalled) this.update({ stalled: false });
      if (typeof event.data === "string") this.handle(event.data);
    };
    socket.onerror = () => {
      /* a close event follows; nothing to do here */
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.detach(socket);
      this.stopHeartbeat();
      if (this.stopped) return;
      const moved = this.movedTo !== null;
      this.movedTo = null; // a reconnect goes where the client first connected
      if (event.code === CLOSE_MOVED && this.follow(event.reason)) return;
      // Sent on more than MAX_MOVES times, a bad address, or an owner that could not be
      // reached or dropped the socket before its welcome: relayed next time, not looped.
      if (event.code === CLOSE_MOVED || (moved && this.moves > 0)) this.misdirected();
      if (FATAL_CLOSE_CODES.has(event.code)) {
        const error: ServerError = {
          code: `closed_${event.code}`,
          message: event.reason || closeCodeMessage(event.code),
        };
        this.stopped = true;
        this.update({ status: "closed", fatal: error, retryAt: null });
        this.emit({ type: "error", error });
        return;
      }
      this.scheduleReconnect();
    };
  }

  /** The socket URL with `follow` and, when reconnecting, the last seq seen (never the token). */
  private urlWithSeq(): string {
    const url = this.movedTo ?? this.options.url;
    const params: string[] = [];
    if (this.options.follow && !this.relayNext) params.push("follow=1");
    if (this.snapshot.seq !== null) params.push(`last_seq=${this.snapshot.seq}`);
    if (params.length === 0) return url;
    return `${url}${url.includes("?") ? "&" : "?"}${params.join("&")}`;
  }

  private misdirected(): void {
    this.moves = 0;
    this.relayNext = true;
  }

  /** A 4010: open the table's path at the owner's address now; false if it is not followed. */
  private follow(reason: string): boolean {
    if (!this.options.follow || this.relayNext || this.moves >= MAX_MOVES) return false;
    const target = ownerSocketUrl(reason, this.options.url);
    if (target === null) return false;
    this.moves += 1;
    this.movedTo = target;
    this.open();
    const socket = this.socket;
    if (socket !== null) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (this.socket !== socket || socket.readyState === OPEN) return;
        this.socket = null;
        this.detach(socket);
        try {
          socket.close();
        } catch {
          /* never opened */
        }
        this.misdirected();
        this.scheduleReconnect();
      }, FOLLOW_OPEN_MS);
    }
    return true;
  }

  /**
   * The first message: `auth`. Commands may follow only once it is sent ("open").
   * A token at hand is sent at once; one being refreshed, when it comes.
   */
  private authenticate(socket: SocketLike): void {
    const source = this.options.token;
    let token: string | null | Promise<string | null>;
    try {
      token = typeof source === "function" ? source() : source;
    } catch {
      token = null; // the server then refuses the socket (1008) and says why
    }
    if (token instanceof Promise) {
      token.then(
        (value) => this.sendAuth(socket, value),
        () => this.sendAuth(socket, null),
      );
    } else {
      this.sendAuth(socket, token);
    }
  }

  private sendAuth(socket: SocketLike, token: string | null): void {
    if (this.socket !== socket || socket.readyState !== OPEN) return;
    if (token) {
      const invite = this.options.invite;
      socket.send(JSON.stringify({ type: "auth", token, last_seq: this.snapshot.seq, ...(invite ? { invite } : {}) }));
    }
    this.startHeartbeat();
    this.update({ status: "open", attempts: 0, retryAt: null, fatal: null, stalled: false });
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    const period = this.options.pingIntervalMs ?? 2_000;
    if (!period) return;
    const silence = this.options.silenceTimeoutMs ?? period * 5 + 5_000;
    const stallAfter = this.options.stallAfterMs ?? period * 2;
    this.pingTimer = setInterval(() => {
      const socket = this.socket;
      if (!socket || socket.readyState !== OPEN) return;
      const quiet = Date.now() - this.lastHeard;
      if (quiet >= stallAfter && !this.snapshot.stalled) this.update({ stalled: true });
      if (quiet > silence) {
        // Half-open connection: drop it and reconnect.
        this.socket = null;
        this.detach(socket);
        this.stopHeartbeat();
        try {
          socket.close(4000, "silent");
        } catch {
          /* already gone */
        }
        this.scheduleReconnect();
        return;
      }
      socket.send(encode({ type: "ping" }));
    }, period);
  }

  private stopHeartbeat(): void {
    if (this.pingTimer !== null) {
      clearInterval(this.pingTimer);
      this.pingTimer = null;
    }
  }

  private scheduleReconnect(): void {
    this.movedTo = null; // where the client first connected
    const attempts = this.snapshot.attempts + 1;
    const base = Math.min(
      this.backoff.maxMs,
      this.backoff.initialMs * this.backoff.factor ** (attempts - 1),
    );
    const delay = Math.round(base * (0.5 + 0.5 * this.random()));
    this.update({ status: "reconnecting", attempts, retryAt: Date.now() + delay, stalled: false });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.open();
    }, delay);
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
  }

  private detach(socket: SocketLike): void {
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
  }

  private handle(text: string): void {
    const message = decode(text);
    switch (message.kind) {
      case "welcome":
        // A paused table sends welcome only once it has resumed.
        this.moves = 0;
        this.relayNext = false;
        this.update({ welcome: message.welcome, paused: null });
        this.emit({ type: "welcome", welcome: message.welcome });
        return;
      case "state": {
        const { state } = message;
        const last = this.snapshot.seq;
        const resync = this.awaitingResync;
        if (!resync && last !== null && state.seq <= last) return; // duplicate or stale
        this.awaitingResync = false;
        const previous = this.snapshot.view;
        this.update({
          view: state.view,
          clock: state.clock,
          cause: state.cause,
          host: state.host,
          tournament: state.tournament ?? null,
          runoutDeadline: state.runout_deadline ?? null,
          seq: state.seq,
          clockOffset: state.at !== null ? state.at - Date.now() : this.snapshot.clockOffset,
        });
        this.emit({ type: "state", view: state.view, previous, cause: state.cause, resync });
        return;
      }
      case "error":
        this.emit({ type: "error", error: message.error });
        return;
      case "advice":
        this.emit({ type: "advice", report: message.report });
        return;
      case "chat":
        this.emit({ type: "chat", message: message.message });
        return;
      case "notice":
        this.update({ paused: message.notice.paused ? message.notice : null });
        return;
      case "stats":
        this.emit({ type: "stats", stats: message.stats });
        return;
      default:
        return;
    }
  }

  private update(patch: Partial<TableClientSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    this.emit({ type: "snapshot", snapshot: this.snapshot });
  }

  private emit(event: TableClientEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

/**
 * The socket URL of `path`'s table at the node a 4010 names (its `http(s)://host:port`),
 * or null for anything else: another scheme, or plain ws from a page on wss.
 */
export function ownerSocketUrl(address: string, current: string): string | null {
  let owner: URL;
  let here: URL;
  try {
    owner = new URL(address);
    here = new URL(current);
  } catch {
    return null;
  }
  const scheme = owner.protocol === "https:" ? "wss:" : owner.protocol === "http:" ? "ws:" : null;
  if (scheme === null || (here.protocol === "wss:" && scheme !== "wss:")) return null;
  if (owner.username || owner.password || owner.search || owner.hash) return null;
  return `${scheme}//${owner.host}${owner.pathname.replace(/\/+$/, "")}${here.pathname}`;
}

export function closeCodeMessage(code: number): string {
  switch (code) {
    case CLOSE_POLICY:
      return "The server refused this connection (sign-in expired or not allowed).";
    case CLOSE_REPLACED:
      return "This table was opened in another tab or window.";
    case CLOSE_UNKNOWN_TABLE:
      return "This table does not exist (any more).";
    default:
      return `The connection was closed (${code}).`;
  }
}
