import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the fake gateway does with one call. */
export type Behaviour =
  | { answer: Record<string, unknown>; status?: number }
  /** Never answers: the client's time-out must fire. */
  | { hang: true }
  /** Drops the connection without an answer (ECONNRESET / socket hang up). */
  | { reset: true }
  /** Answers these bytes as they are (something that is not the gateway's JSON, or JSON in another charset). */
  | { raw: string | Buffer; status?: number; contentType?: string }
  /** Answers a redirect to `location` with a `0000` body, as a proxy or a hijacked name might. */
  | { redirect: string; status: 301 | 302 | 303 | 307 | 308 }
  /**
   * Answers `0000` padded to `bytes` (endless when unset), chunk by chunk as the client reads
   * (backpressure honoured), counting into `meter` what the client took before it hung up.
   */
  | { flood: true; bytes?: number; meter: FloodMeter }
  /** Waits for `until` before doing `then` (the default answer when unset): a slow round held open by the test. */
  | { until: Promise<unknown>; then?: Behaviour };

export interface FloodMeter {
  written: number;
  closed: boolean;
}

export const WARMUP_PATH = '/__warmup';

/** A gate the test opens: the gateway holds the calls scripted with `{ until: gate.opened }` until then. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

export interface GatewayCall {
  path: string;
  body: Record<string, unknown>;
  at: number;
}

export const PATHS = {
  trade: '/api/trades/wallet-a',
  revise: '/api/trades/wallet-b/revise',
  approve: '/smpy/vanpay/reqAprv',
  netCancel: '/smpy/vanpay/reqRtran',
  vanCancel: '/smpy/vanpay/reqCancel',
} as const;

export interface FakeGateway {
  url: string;
  /** Queues behaviours for a path, used one per call in order; after them the default answer. */
  script(path: string, ...behaviours: Behaviour[]): void;
  calls(path?: string): GatewayCall[];
  waitForCalls(path: string, n: number, timeoutMs?: number): Promise<GatewayCall[]>;
  close(): Promise<void>;
}

/**
 * A scripted gateway over real HTTP: times out, resets, answers retry codes or garbage as told,
 * records every call, and (given the key) checks msgAuthValue as the real one would.
 */
export async function startFakeGateway(options: { hmacKey?: string; encoding?: 'hex' | 'base64' } = {}): Promise<FakeGateway> {
  const scripts = new Map<string, Behaviour[]>();
  const calls: GatewayCall[] = [];
  const sockets = new Set<Socket>();
  let closed = false;

  const defaultAnswer = (path: string, body: Record<string, unknown>): Record<string, unknown> => {
    if (path === PATHS.revise && options.hmacKey) {
      const expected = createHmac('sha256', options.hmacKey).update(`${body.pgCno}|${body.shopTransactionId}`).digest(options.encoding ?? 'hex');
      if (body.msgAuthValue !== expected) return { resCd: 'M114', resMsg: 'msgAuthValue mismatch' };
    }
    const base = { resCd: '0000', resMsg: 'SUCCESS', shopTransactionId: body.shopTransactionId };
    if (path === PATHS.trade) return { ...base, pgCno: 'PG0000000001', paymentPageUrl: `weixin://wxpay/bizpayurl?pr=${String(body.shopTransactionId)}` };
    return base;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // A client warming its connection pool, not a call to the gateway: not recorded.
    if (req.url === WARMUP_PATH) return void res.writeHead(204).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      /* recorded as empty */
    }
    const path = req.url ?? '';
    calls.push({ path, body, at: Date.now() });
    let behaviour = scripts.get(path)?.shift() ?? { answer: defaultAnswer(path, body) };
    while ('until' in behaviour) {
      await behaviour.until;
      behaviour = behaviour.then ?? { answer: defaultAnswer(path, body) };
    }
    if ('hang' in behaviour) return;
    if ('redirect' in behaviour) {
      res.writeHead(behaviour.status, { Location: behaviour.redirect, 'Content-Type': 'application/json; charset=utf-8' });
      return void res.end(JSON.stringify({ resCd: '0000', resMsg: 'SUCCESS' }));
    }
    if ('flood' in behaviour) return void flood(res, behaviour.bytes, behaviour.meter);
    if ('reset' in behaviour) return void req.socket.destroy();
    if ('raw' in behaviour) {
      res.writeHead(behaviour.status ?? 200, { 'Content-Type': behaviour.contentType ?? 'text/html' });
      return void res.end(behaviour.raw);
    }
    res.writeHead(behaviour.status ?? 200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(behaviour.answer));
  };

  const flood = async (res: ServerResponse, bytes: number | undefined, meter: FloodMeter) => {
    res.on('close', () => void (meter.closed = true));
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    const head = Buffer.from('{"resCd":"0000","resMsg":"SUCCESS","pad":"');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    res.write(head);
    meter.written += head.length;
    while (!res.destroyed && (bytes === undefined || meter.written < bytes)) {
      meter.written += chunk.length;
      if (!res.write(chunk)) await new Promise((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
    }
    if (!res.destroyed) res.end('"}');
  };

  const server: Server = createServer((req, res) => void handle(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    script: (path, ...behaviours) => void scripts.set(path, [...(scripts.get(path) ?? []), ...behaviours]),
    calls: (path) => calls.filter((call) => path === undefined || call.path === path),
    async waitForCalls(path, n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (calls.filter((c) => c.path === path).length < n) {
        // A test that failed and closed the gateway must not leave this loop keeping jest alive.
        if (closed) throw new Error(`gateway closed after ${calls.filter((c) => c.path === path).length} calls to ${path}, expected ${n}`);
        if (Date.now() > deadline) throw new Error(`gateway saw ${calls.filter((c) => c.path === path).length} calls to ${path}, expected ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return calls.filter((c) => c.path === path);
    },
    async close() {
      closed = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
