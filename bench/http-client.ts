import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One request as it goes on the wire. */
export interface WireRequest {
  body: Buffer;
  contentType: string;
}

export interface ResponseOutcome {
  /** Milliseconds from the request's first byte written to the response's last byte read. */
  latencyMs: number;
  status: number;
}

/**
 * One keep-alive HTTP/1.1 connection with at most one request in flight, as the gateway's
 * client behaves. Requests are written as prebuilt bytes and responses parsed only as far as
 * the status and Content-Length, so the load generator costs far less CPU per request than
 * the servers it measures (it shares their two vCPUs).
 */
export class BenchConnection {
  private readonly socket: Socket;
  private pending: Buffer | null = null;
  private expected = -1;
  private status = 0;
  private sentAt = 0;
  private waiter: ((outcome: ResponseOutcome) => void) | null = null;
  private failer: ((error: Error) => void) | null = null;
  readonly ready: Promise<void>;

  constructor(private readonly host: string, private readonly port: number, private readonly path: string) {
    this.socket = connect(port, host);
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
  }

  /** False once the server closed it (e.g. its keep-alive timeout after a quiet spell). */
  get open(): boolean {
    return !this.socket.destroyed && this.socket.writable;
  }

  send(request: WireRequest): Promise<ResponseOutcome> {
    if (!this.open) return Promise.reject(new Error('connection closed'));
    const head = Buffer.from(
      `POST ${this.path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\nContent-Type: ${request.contentType}\r\n` +
        `Content-Length: ${request.body.length}\r\n\r\n`,
      'latin1',
    );
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failer = reject;
      this.sentAt = performance.now();
      this.socket.write(Buffer.concat([head, request.body]));
    });
  }

  close(): void {
    this.waiter = null;
    this.failer = null;
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    if (this.expected === -1) {
      const headerEnd = this.pending.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const head = this.pending.toString('latin1', 0, headerEnd);
      this.status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
      this.expected = headerEnd + 4 + Number(length ?? 0);
    }
    if (this.pending.length < this.expected) return;
    const outcome = { latencyMs: performance.now() - this.sentAt, status: this.status };
    this.pending = null;
    this.expected = -1;
    const waiter = this.waiter;
    this.waiter = null;
    this.failer = null;
    waiter?.(outcome);
  }

  private fail(error: Error): void {
    const failer = this.failer;
    this.waiter = null;
    this.failer = null;
    failer?.(error);
  }
}

export async function openConnections(url: string, count: number): Promise<BenchConnection[]> {
  const { hostname, port, pathname } = new URL(url);
  const connections = Array.from({ length: count }, () => new BenchConnection(hostname, Number(port), pathname));
  await Promise.all(connections.map((c) => c.ready));
  return connections;
}
