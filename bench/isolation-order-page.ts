import { performance } from 'node:perf_hooks';
import { approvalNotification } from '../src/simulator/notification-builders';
import { MAX_BODY_BYTES } from '../src/http/read-body';
import { send, type ScenarioOutcome } from './isolation-scenarios';
import { readOne } from './store-sql';

/** The heavy order of (f) and (g): one order number, `payments` approvals of it, each its own pgCno. */
export interface HeavyOrder {
  mallId: string;
  shopOrderNo: string;
  payments: number;
  bodyBytes: number;
}

/**
 * Korean syllables picked by a fixed pseudo-random sequence, three bytes each in UTF-8: text that
 * compresses as prose does, not as one syllable repeated (which an .xlsx's zip shrinks to nothing).
 */
function koreanText(bytes: number): string {
  let state = 0x2545f491;
  let text = '';
  for (let i = 0; i < Math.floor(bytes / 3); i += 1) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    // The 2,350 syllables of KS X 1001 lie among the 11,172 of U+AC00–U+D7A3; any of these is text an operator may read.
    text += String.fromCharCode(0xac00 + ((state >>> 8) % 11_172));
  }
  return text;
}

/**
 * Sends `payments` approvals of one order as the gateway would, each with `fieldKb` KB of Korean
 * text in its product name (a field kept as sent, unchecked), as close to the body limit as the
 * gateway can come; done when the ledger holds every one of them on the order.
 */
export async function postHeavyPayments(url: string, databaseUrl: string, payments: number, fieldKb: number): Promise<HeavyOrder> {
  const shopOrderNo = `ISO-PAYMENTS-${Date.now()}`;
  const productName = koreanText(fieldKb * 1024);
  let bodyBytes = 0;
  let mallId = '';
  for (let i = 0; i < payments; i += 1) {
    const notification = approvalNotification({ shopOrderNo, productName });
    bodyBytes = Buffer.byteLength(JSON.stringify(notification));
    if (bodyBytes > MAX_BODY_BYTES) throw new Error(`a ${fieldKb} KB field makes a ${bodyBytes}-byte body, over the receiver's ${MAX_BODY_BYTES}`);
    mallId = notification.mallId;
    if (!(await send(url, notification))) throw new Error(`heavy payment ${i + 1} of ${payments} was not acked`);
  }
  const deadline = Date.now() + 120_000;
  for (;;) {
    const row = await readOne<{ n: number | string }>(databaseUrl,
      `SELECT COUNT(*) AS n FROM ledger_facts WHERE kind = 'notification' AND order_id = (SELECT order_id FROM ledger_orders WHERE shop_order_no = ?)`, [shopOrderNo]);
    if (Number(row?.n ?? 0) >= payments) break;
    if (Date.now() > deadline) throw new Error(`the heavy order holds ${String(row?.n)} of ${payments} payments after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { mallId, shopOrderNo, payments, bodyBytes };
}

/** (g) The heavy order's page in the console, reloaded one after another until the probe ends. */
export async function orderPages(adminUrl: string, cookie: string, order: HeavyOrder, until: Promise<unknown>): Promise<ScenarioOutcome> {
  let done = false;
  void until.then(() => (done = true));
  const page = `${adminUrl}/console/orders/${encodeURIComponent(order.mallId)}/${encodeURIComponent(order.shopOrderNo)}`;
  const started = performance.now();
  let loads = 0;
  let bad = 0;
  let bytes = 0;
  do {
    try {
      const response = await fetch(page, { headers: { cookie }, redirect: 'manual' });
      bytes += (await response.arrayBuffer()).byteLength;
      if (!response.ok) bad += 1;
    } catch {
      bad += 1;
    }
    loads += 1;
  } while (!done);
  const took = (performance.now() - started) / 1000;
  return { bad, note: `the page of an order of ${order.payments} payments (${(order.bodyBytes / 1024).toFixed(0)} KB notifications): ${loads} loads (${(loads / took).toFixed(1)}/s, ${(bytes / loads / 1024).toFixed(0)} KB each)${bad ? `, ${bad} not 200` : ''}` };
}
