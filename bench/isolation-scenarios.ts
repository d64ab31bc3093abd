import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { approvalNotification, changeNotification, nextPgCno, type JsonNotification } from '../src/simulator/notification-builders';
import { readOne } from './store-sql';

/**
 * What runs beside the isolation bench's probe: (a) one order's partial cancels as fast as they are
 * acked, (b) an operator reloading the console's heaviest pages, (c) the CLI's ledger rebuild. Each
 * runs until `until` resolves (the probe's end) or until it is done, and reports what it did.
 */
export interface ScenarioOutcome {
  /** Answers that were not 2xx, or (for notifications) not a `0000` ack, or connection errors. */
  bad: number;
  /** What the scenario did and how long it took, for the table's last column. */
  note: string;
}

/** Posts one JSON notification; true when it was acked `0000` with a 2xx. */
export async function send(url: string, notification: JsonNotification): Promise<boolean> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(notification) });
    const text = await response.text();
    return response.ok && text.includes('0000');
  } catch {
    return false;
  }
}

export const seconds = (fromMs: number) => ((performance.now() - fromMs) / 1000).toFixed(1);

/**
 * (a) One approval of `count` won, then `count` partial cancels of 1 won each (event 20, each its own
 * cancelPgCno, remainAmount falling to 0), one after another as each is acked. Done when the
 * order's record holds all of them (its notification facts: the approval and every cancel).
 */
export async function partialCancels(url: string, databaseUrl: string, count: number): Promise<ScenarioOutcome> {
  const shopOrderNo = `ISO-CANCELS-${Date.now()}`;
  const pgCno = nextPgCno();
  let bad = (await send(url, approvalNotification({ shopOrderNo, pgCno, amount: String(count) }))) ? 0 : 1;
  const started = performance.now();
  for (let i = 1; i <= count; i += 1) {
    const cancel = changeNotification({ shopOrderNo, pgCno, cancelAmount: '1', amount: '1', cancelRemainAmount: String(count - i) });
    if (!(await send(url, cancel))) bad += 1;
  }
  const acked = seconds(started);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const row = await readOne<{ n: number | string }>(databaseUrl,
      `SELECT COUNT(*) AS n FROM ledger_facts WHERE kind = 'notification' AND order_id = (SELECT order_id FROM ledger_orders WHERE shop_order_no = ?)`, [shopOrderNo]);
    if (Number(row?.n ?? 0) >= count + 1) break;
    if (Date.now() > deadline) return { bad, note: `${count} cancels acked in ${acked} s; not all projected within 120 s (${String(row?.n)})` };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { bad, note: `${count} cancels acked in ${acked} s, projected in ${seconds(started)} s` };
}

/**
 * (s) The control of (a): as many notifications, sent the same way (one after another as each is
 * acked), spread over `count / 10` orders of one approval and nine partial cancels each, round
 * robin. The acks' own load is (a)'s; only the long history is gone, so (a) against (s) is what one
 * order's history costs the probe, and (s) against the probe alone is what the 2,000 acks cost it.
 */
export async function spreadCancels(url: string, databaseUrl: string, count: number): Promise<ScenarioOutcome> {
  const prefix = `ISO-SPREAD-${Date.now()}-`;
  const orders = Array.from({ length: Math.max(1, Math.floor(count / 10)) }, (_, i) => ({ shopOrderNo: `${prefix}${i}`, pgCno: nextPgCno(), sent: 0 }));
  const started = performance.now();
  let bad = 0;
  let total = 0;
  for (let round = 0; round < 10; round += 1) {
    for (const order of orders) {
      const { shopOrderNo, pgCno } = order;
      const notification = round === 0
        ? approvalNotification({ shopOrderNo, pgCno, amount: '9' })
        : changeNotification({ shopOrderNo, pgCno, cancelAmount: '1', amount: '1', cancelRemainAmount: String(10 - round - 1) });
      if (!(await send(url, notification))) bad += 1;
      total += 1;
    }
  }
  const acked = seconds(started);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const row = await readOne<{ n: number | string }>(databaseUrl,
      `SELECT COUNT(*) AS n FROM ledger_facts WHERE kind = 'notification' AND order_id IN (SELECT order_id FROM ledger_orders WHERE shop_order_no LIKE ?)`, [`${prefix}%`]);
    if (Number(row?.n ?? 0) >= total) break;
    if (Date.now() > deadline) return { bad, note: `${total} notifications on ${orders.length} orders acked in ${acked} s; not all projected within 120 s (${String(row?.n)})` };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { bad, note: `${total} notifications on ${orders.length} orders acked in ${acked} s, projected in ${seconds(started)} s` };
}

/** A notification whose product name (a field kept as sent, unchecked) is 40 KB of UTF-8, the heaviest event page an operator can open; its event id. */
export async function postHeavyNotification(url: string, databaseUrl: string): Promise<string> {
  const shopOrderNo = `ISO-HEAVY-${Date.now()}`;
  if (!(await send(url, approvalNotification({ shopOrderNo, productName: '가'.repeat(Math.floor((40 * 1024) / 3)) })))) {
    throw new Error('the 40 KB notification was not acked');
  }
  const row = await readOne<{ event_id: string }>(databaseUrl, 'SELECT event_id FROM inbox WHERE shop_order_no = ?', [shopOrderNo]);
  if (!row) throw new Error('the 40 KB notification is not in the inbox');
  return row.event_id;
}

/** The bootstrap admin's session cookie, signed in as a browser would (the Origin check passes). */
export async function signIn(adminUrl: string, token: string): Promise<string> {
  const response = await fetch(`${adminUrl}/console/sign-in`, {
    method: 'POST', redirect: 'manual', body: new URLSearchParams({ token }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: adminUrl },
  });
  const cookie = response.headers.get('set-cookie');
  if (response.status !== 303 || !cookie) throw new Error(`sign-in answered ${response.status}`);
  return cookie.split(';')[0]!;
}

/** (b) The event page of the 40 KB notification, the orders page and the audit page, in a loop, one at a time. */
export async function consolePages(adminUrl: string, cookie: string, heavyEventId: string, until: Promise<unknown>): Promise<ScenarioOutcome> {
  let done = false;
  void until.then(() => (done = true));
  const pages = [`/console/events/${heavyEventId}`, '/console/orders', '/console/audit'];
  const started = performance.now();
  let loads = 0;
  let bad = 0;
  let bytes = 0;
  while (!done) {
    for (const page of pages) {
      try {
        const response = await fetch(`${adminUrl}${page}`, { headers: { cookie }, redirect: 'manual' });
        bytes += (await response.arrayBuffer()).byteLength;
        if (!response.ok) bad += 1;
      } catch {
        bad += 1;
      }
      loads += 1;
    }
  }
  const took = (performance.now() - started) / 1000;
  return { bad, note: `${loads} pages (${(loads / took).toFixed(1)}/s, ${(bytes / loads / 1024).toFixed(0)} KB each on average)` };
}

/** (c) The CLI's rebuild on the same store, until it ends. */
export async function ledgerRebuild(dist: string, databaseUrl: string): Promise<ScenarioOutcome> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(dist, 'cli', 'receiver-cli.js'), 'ledger', 'rebuild'], {
    env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { bad: 0, note: `rebuild exited ${code ?? 'by a signal'} after ${seconds(started)} s` };
}
