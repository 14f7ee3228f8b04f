/** A WebSocket stand-in for the protocol client's boundary. */
import type { SocketFactory, SocketLike } from "../protocol";

export class FakeSocket implements SocketLike {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 3;
  /** every socket made through `new WebSocket(...)` when stubbed globally */
  static instances: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  readonly url: string;
  readonly sent: string[] = [];
  closedWith: { code?: number; reason?: string } | null = null;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string; wasClean?: boolean }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(url: string) {
    this.url = url;
    FakeSocket.instances.push(this);
  }

  send(data: string): void {
    if (this.readyState !== FakeSocket.OPEN) throw new Error("send on a socket that is not open");
    this.sent.push(data);
  }

  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
    this.readyState = FakeSocket.CLOSED;
  }

  // ---- driven by the test, as the server/network would

  open(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.({});
  }

  receive(message: unknown): void {
    this.onmessage?.({ data: typeof message === "string" ? message : JSON.stringify(message) });
  }

  drop(code = 1006, reason = ""): void {
    this.readyState = FakeSocket.CLOSED;
    this.onerror?.({});
    this.onclose?.({ code, reason, wasClean: false });
  }

  sentMessages(): Array<Record<string, unknown>> {
    return this.sent.map((s) => JSON.parse(s) as Record<string, unknown>);
  }

  params(): URLSearchParams {
    return new URL(this.url).searchParams;
  }
}

export function fakeSockets(): { factory: SocketFactory; sockets: FakeSocket[]; last: () => FakeSocket } {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    factory: (url: string) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    last: () => {
      const s = sockets[sockets.length - 1];
      if (!s) throw new Error("no socket yet");
      return s;
    },
  };
}
