import { kstTime } from '../console/format';
import type { OrderRecord } from '../ledger/fold/order-record';
import { detailsText, moneyText, orderCurrency } from './order-money';

/**
 * An order record for a terminal: the figures as money in the order's currency (the default one
 * when no expectation names it, said so), times in KST, then each list in the record's own order.
 */
export function orderText(record: OrderRecord, defaultCurrency: string): string {
  const currency = orderCurrency(record, defaultCurrency);
  const money = (minor: number | null) => moneyText(minor, currency);
  const lines = [`${record.shopOrderNo} (mall ${record.mallId}): ${record.status}`];
  if (record.ledgerError) lines.push(`ledger error (${kstTime(record.ledgerError.at)}): ${record.ledgerError.error}; fix the cause, then 'noti-receiver ledger rebuild'`);
  const e = record.expected;
  lines.push(e
    ? `expected   ${money(e.amount)} ${e.method} (${e.source}${e.expiresAt ? `, expires ${kstTime(e.expiresAt)}` : ''})`
    : `expected   - (amounts in ${currency}, LEDGER_DEFAULT_CURRENCY: no expectation names a currency)`);
  lines.push(`approved ${money(record.approved)}  cancelled ${money(record.cancelled)}  remaining ${money(record.remaining)}  deposited ${money(record.deposited)}`);
  for (const p of record.payments) lines.push(`payment    ${kstTime(p.at)}  ${p.pgCno}  ${money(p.amount)}${p.cancelled ? '  (cancelled)' : ''}  ${p.eventId}`);
  for (const d of record.deposits) lines.push(`deposit    ${kstTime(d.at)}  ${d.pgCno}  ${money(d.amount)}${d.cancelled ? '  (cancelled)' : ''}  ${d.eventId}`);
  for (const c of record.cancels) {
    lines.push(`cancel     ${kstTime(c.at)}  ${c.pgCno}${c.cancelPgCno ? `/${c.cancelPgCno}` : ''}  ${money(c.amount)}  leaves ${money(c.remainingAfter)}  ${c.eventId}`);
  }
  for (const r of record.cancellationsRequested) lines.push(`requested  cancellation ${r.shopTransactionId} of ${r.pgCno}: ${r.state}`);
  if (record.escrow) lines.push(`escrow     ${record.escrow.statusCode ?? '?'} at ${kstTime(record.escrow.at)}`);
  for (const d of record.discrepancies) {
    const state = d.resolvedAt === null ? `OPEN since ${kstTime(d.openedAt)}` : `resolved ${kstTime(d.resolvedAt)} by ${d.resolvedBy}${d.note ? `: ${d.note}` : ''}`;
    lines.push(`discrepancy ${d.id}  ${d.kind}  ${state}  ${detailsText(d.details, currency)}`);
  }
  lines.push(`updated    ${kstTime(record.updatedAt)}`);
  return lines.join('\n');
}
