import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/sandbox-app';
import type { NotificationEntry, TimelineEntry } from '../../src/sandbox/timeline';
import { eventually } from '../helpers/eventually';
import { startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

export const SECRET_KEY = 'sandbox-test-key';
export const MALL_ID = 'T0001234';

/** A sandbox on a free port whose notifications are retried every few milliseconds. */
export function sandboxForTests(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ secretKeyFor: () => SECRET_KEY, ...options, schedule: { intervalMs: 20, ...options.schedule } });
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export const msgAuth = (pgCno: string, shopTransactionId: string, encoding: 'hex' | 'base64' = 'hex') =>
  createHmac('sha256', SECRET_KEY).update(`${pgCno}|${shopTransactionId}`).digest(encoding);

let counter = 0;
export const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

export function tradeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mallId: MALL_ID,
    shopTransactionId: uniqueId('tx'),
    shopOrderNo: uniqueId('ORD'),
    goodsName: 'Merino socks',
    amountInfo: { totalAmount: 1203, currency: 'USD' },
    tradeType: 'mweb',
    ...overrides,
  };
}

export function cancelBody(pgCno: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const shopTransactionId = (overrides.shopTransactionId as string | undefined) ?? uniqueId('cx');
  return {
    mallId: MALL_ID,
    pgCno,
    shopTransactionId,
    reviseTypeCode: '32',
    amountInfo: { totAmount: 300, currency: 'USD' },
    cancelReqDate: '20261122',
    msgAuthValue: msgAuth(pgCno, shopTransactionId),
    memo: 'customer returned one pair',
    regId: 'ops',
    ...overrides,
  };
}

export const notificationsIn = (entries: readonly TimelineEntry[]) => entries.filter((e): e is NotificationEntry => e.kind === 'notification');

/** Waits until the sandbox has finished delivering `n` notifications (acked or given up). */
export function settledNotifications(sandbox: RunningSandbox, n: number): Promise<NotificationEntry[]> {
  return eventually(() => {
    const list = notificationsIn(sandbox.context.timeline.entries());
    return list.length >= n && list.every((e) => e.state !== 'sending') && list;
  }, 15_000, `${n} settled notifications`);
}

/**
 * The real receiver (real app, SQLite file, file sink, relay) on a real socket, letting in
 * 127.0.0.1 by EXTRA_ALLOWED_IPS as a developer runs it beside the sandbox.
 */
export interface ListeningReceiver extends TestReceiver {
  notifyUrl: string;
  listen(port?: number): Promise<number>;
  stopListening(): Promise<void>;
  shutdown(): Promise<void>;
}

export async function receiverForSandbox(): Promise<ListeningReceiver> {
  const receiver = await startTestReceiver({ EXTRA_ALLOWED_IPS: '127.0.0.1', TRUST_PROXY: '' });
  let server: Server | null = null;
  const self: ListeningReceiver = {
    ...receiver,
    notifyUrl: '',
    async listen(port = 0) {
      server = receiver.app.listen(port, '127.0.0.1');
      await once(server, 'listening');
      const bound = (server.address() as AddressInfo).port;
      self.notifyUrl = `http://127.0.0.1:${bound}${receiver.config.NOTIFY_PATH}`;
      return bound;
    },
    async stopListening() {
      const s = server;
      server = null;
      if (!s) return;
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    },
    async shutdown() {
      await self.stopListening();
      await receiver.close();
    },
  };
  return self;
}
