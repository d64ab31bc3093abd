import { performance } from 'node:perf_hooks';
import iconv from 'iconv-lite';
import { kstStamp } from '../src/notifications/kst-date';
import { approvalNotification } from '../src/simulator/notification-builders';
import { seconds, send, type ScenarioOutcome } from './isolation-scenarios';
import { readOne } from './store-sql';

/**
 * (i) The gateway's transaction list of yesterday (KST), as the merchant portal gives it (a CP949
 * CSV), posted to the internal API as an operator's script would, while the acks are measured: the
 * receiver reads and stores it, and its ledger's projector then applies one input per order of the
 * day, behind the acks. Yesterday's orders are the bench's own, sent before the probe alone: the
 * probe's orders are today's, which the list says nothing of.
 */
const HEADER = '거래일시,PG거래번호,취소거래번호,주문번호,승인번호,결제수단,상태,거래금액,취소금액';
const KST_MS = 9 * 3600_000;
const DAY_MS = 86_400_000;
const IN_FLIGHT = 32;

export interface ListedDay {
  mallId: string;
  day: string;
  orders: number;
  /** The list's bytes: every order of the day, as notified. */
  bytes: Buffer;
  /** How long the day's notifications took to send and project. */
  seconds: number;
}

/** Waits until `done` holds, reading the store every 100 ms; false after `ms`. */
async function until(done: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** The projector has applied everything stored up to now of `table`'s kind (the inbox's notifications, the ledger's other inputs). */
const caughtUp = (databaseUrl: string, stored: string, applied: string) => async () => {
  const row = await readOne<{ stored: number | string | null; applied: number | string }>(databaseUrl,
    `SELECT (${stored}) AS stored, (SELECT ${applied} FROM ledger_projector WHERE id = 1) AS applied`, []);
  return Number(row?.stored ?? 0) <= Number(row?.applied ?? 0);
};

/** Sends `orders` approvals of yesterday (KST), IN_FLIGHT at a time, and waits until the ledger holds them. */
export async function postListedDay(url: string, databaseUrl: string, orders: number): Promise<ListedDay> {
  const started = performance.now();
  const dayStart = Math.floor((Date.now() + KST_MS) / DAY_MS) * DAY_MS - DAY_MS - KST_MS;
  const lines = [HEADER];
  let mallId = '';
  let next = 0;
  const sender = async () => {
    while (next < orders) {
      const i = next++;
      const at = new Date(dayStart + Math.floor((i * DAY_MS) / orders));
      const amount = String(1000 + (i % 50) * 100);
      const notification = approvalNotification({ shopOrderNo: `ISO-LIST-${dayStart}-${i}`, amount, approvalNo: String(30_000_000 + i), transactionDate: kstStamp(at) });
      if (!(await send(url, notification))) throw new Error(`yesterday's approval ${i + 1} of ${orders} was not acked`);
      mallId = notification.mallId;
      const wall = new Date(at.getTime() + KST_MS).toISOString().slice(0, 19).replace('T', ' ');
      lines.push(`${wall},${notification.pgCno},,${notification.shopOrderNo},${notification.approvalNo},신용카드,승인,${amount},0`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  if (!(await until(caughtUp(databaseUrl, `SELECT MAX(seq) FROM inbox WHERE origin = 'gateway'`, 'inbox_seq'), 300_000))) throw new Error(`yesterday's ${orders} approvals were not projected within 300 s`);
  const day = new Date(dayStart + KST_MS).toISOString().slice(0, 10);
  return { mallId, day, orders, bytes: iconv.encode(`${lines.join('\r\n')}\r\n`, 'cp949'), seconds: (performance.now() - started) / 1000 };
}

/** (i) Posts the day's list and waits until the ledger has matched it (every ledger input stored so far applied). */
export async function importList(apiUrl: string, apiToken: string, databaseUrl: string, list: ListedDay): Promise<ScenarioOutcome> {
  const started = performance.now();
  const response = await fetch(`${apiUrl}/v1/reconciliation/imports?mall=${encodeURIComponent(list.mallId)}&fileName=${encodeURIComponent(`transactions-${list.day}.csv`)}`, {
    method: 'POST', headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'text/csv' }, body: list.bytes,
  });
  const answer = (await response.json().catch(() => ({}))) as { differences?: Record<string, number> | null };
  const answered = seconds(started);
  const what = `a list of ${list.orders.toLocaleString('en-US')} orders of ${list.day} (CP949 CSV, ${(list.bytes.length / 1024 / 1024).toFixed(1)} MB)`;
  if (response.status !== 201) return { bad: 1, note: `${what} was answered ${response.status} after ${answered} s` };
  if (!(await until(caughtUp(databaseUrl, 'SELECT MAX(seq) FROM ledger_inputs', 'input_seq'), 600_000))) return { bad: 1, note: `${what} answered 201 in ${answered} s; not matched within 600 s` };
  const told = answer.differences ? Object.entries(answer.differences).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind}`).join(', ') || 'none' : 'not told yet';
  return { bad: 0, note: `${what}: answered 201 in ${answered} s, matched in ${seconds(started)} s; differences ${told}` };
}
