import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { transferFailedNotification } from '../src/simulator/notification-builders';
import { send, type ScenarioOutcome } from './isolation-scenarios';
import { readOne, writeSql } from './store-sql';

/**
 * (h) The alert loop sending one digest of many discrepancies to a chat webhook that takes its time.
 * The discrepancies are opened as the gateway would open them (one event 51, a refund that could
 * not be paid out, per order) while no alert channel is set; the receiver is then started with the
 * webhook set and the channel's digest window held shut, so the loop stores every alert and sends
 * none. The scenario opens the window: the loop's next look sends them all as one message.
 */

export interface SlowWebhook {
  url: string;
  messages: Array<{ at: number; answeredAt: number | null; bytes: number; text: string }>;
  close(): Promise<void>;
}

/** An incoming webhook on this machine that answers 200 only `delayMs` after each message came in whole. */
export async function slowWebhook(delayMs: number): Promise<SlowWebhook> {
  const messages: SlowWebhook['messages'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let text = '';
      try {
        text = (JSON.parse(body.toString('utf8')) as { text?: string }).text ?? '';
      } catch {
        // Counted all the same: the table says what came.
      }
      const message = { at: performance.now(), answeredAt: null as number | null, bytes: body.length, text };
      messages.push(message);
      setTimeout(() => {
        message.answeredAt = performance.now();
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      }, delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/iso-bench`,
    messages,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

interface AlertPosition {
  inbox: number;
  attempt: number;
}

/**
 * `count` orders each told by one event 51, sent while the receiver runs without alerts; done when
 * the ledger opened a discrepancy for each. Returns where the store's rows ended before them.
 */
export async function openTransferFailures(url: string, databaseUrl: string, count: number): Promise<AlertPosition> {
  const ends = await readOne<{ inbox: number | string | null; attempt: number | string | null }>(databaseUrl,
    'SELECT (SELECT MAX(seq) FROM inbox) AS inbox, (SELECT MAX(id) FROM delivery_attempts) AS attempt', []);
  const prefix = `ISO-ALERTS-${Date.now()}-`;
  for (let i = 0; i < count; i += 1) {
    if (!(await send(url, transferFailedNotification({ shopOrderNo: `${prefix}${i}` })))) throw new Error(`event 51 number ${i + 1} was not acked`);
  }
  const deadline = Date.now() + 120_000;
  for (;;) {
    const row = await readOne<{ n: number | string }>(databaseUrl,
      // The ledger's own events name no order in their columns; the order's discrepancy rows, written in the same transaction, do.
      `SELECT COUNT(DISTINCT shop_order_no) AS n FROM ledger_discrepancies WHERE shop_order_no LIKE ? AND kind = 'refund_transfer_failed'`, [`${prefix}%`]);
    if (Number(row?.n ?? 0) >= count) break;
    if (Date.now() > deadline) throw new Error(`${String(row?.n)} of ${count} discrepancies opened after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { inbox: Number(ends?.inbox ?? 0), attempt: Number(ends?.attempt ?? 0) };
}

/**
 * With the receiver stopped: the alerts' follower starts where the store ended before the
 * discrepancies (alerts were never on, so it would start at the first row ever stored), and the
 * webhook's digest window is held shut, as if a message had just gone, until the scenario opens it.
 */
export async function holdAlertWindow(databaseUrl: string, from: AlertPosition): Promise<void> {
  await writeSql(databaseUrl, 'UPDATE alert_position SET inbox_seq = ?, attempt_id = ? WHERE id = 1', [from.inbox, from.attempt]);
  await writeSql(databaseUrl, `INSERT INTO alert_channels (channel, sent_through, last_sent_ms) VALUES ('webhook', (SELECT COALESCE(MAX(id), 0) FROM alerts), ?)
    ON CONFLICT (channel) DO UPDATE SET last_sent_ms = excluded.last_sent_ms`, [Date.now() + 24 * 3600_000]);
}

/** (h) Opens the webhook's window and follows the digest until the receiver recorded it sent (or a minute passed). */
export async function alertDigest(databaseUrl: string, webhook: SlowWebhook, seeded: number): Promise<ScenarioOutcome> {
  const opened = performance.now();
  const since = webhook.messages.length;
  await writeSql(databaseUrl, `UPDATE alert_channels SET last_sent_ms = 0 WHERE channel = 'webhook'`);
  const deadline = Date.now() + 60_000;
  let recordedAt: number | null = null;
  while (Date.now() < deadline) {
    const row = await readOne<{ last_sent_ms: number | string; lease_owner: string | null }>(databaseUrl,
      `SELECT last_sent_ms, lease_owner FROM alert_channels WHERE channel = 'webhook'`, []);
    if (row && Number(row.last_sent_ms) > 0 && row.lease_owner === null) {
      recordedAt = performance.now();
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const messages = webhook.messages.slice(since);
  const first = messages[0];
  if (!first) return { bad: 1, note: `no message reached the webhook within 60 s of its window opening (${seeded} discrepancies seeded)` };
  const counted = /^(\d+) new problems/.exec(first.text)?.[1] ?? '?';
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const answered = first.answeredAt === null ? 'not answered yet' : `answered after ${s(first.answeredAt - first.at)}`;
  const recorded = recordedAt === null ? 'not recorded sent within 60 s' : `recorded sent ${s(recordedAt - opened)} after the window opened`;
  return {
    bad: recordedAt === null ? 1 : 0,
    note: `${messages.length} message(s) to the webhook: a digest of ${counted} alerts (${seeded} discrepancies seeded, the probes' own beside them), ${(first.bytes / 1024).toFixed(1)} KB, sent ${s(first.at - opened)} after the window opened, ${answered}, ${recorded}`,
  };
}
