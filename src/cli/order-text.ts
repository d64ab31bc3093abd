import type { OrderRecord } from '../ledger/order-record';

/** An order record for a terminal: the figures, then each list in the record's own order. */
export function orderText(record: OrderRecord): string {
  const lines = [`${record.shopOrderNo} (mall ${record.mallId}): ${record.status}`];
  if (record.ledgerError) lines.push(`ledger error (${record.ledgerError.at}): ${record.ledgerError.error}; fix the cause, then 'noti-receiver ledger rebuild'`);
  const e = record.expected;
  lines.push(e ? `expected   ${e.amount} ${e.currency} ${e.method} (${e.source}${e.expiresAt ? `, expires ${e.expiresAt}` : ''})` : 'expected   -');
  lines.push(`approved ${record.approved}  cancelled ${record.cancelled}  remaining ${record.remaining}  deposited ${record.deposited}`);
  for (const p of record.payments) lines.push(`payment    ${p.at}  ${p.pgCno}  ${p.amount ?? '?'}  ${p.eventId}`);
  for (const d of record.deposits) lines.push(`deposit    ${d.at}  ${d.pgCno}  ${d.amount ?? '?'}${d.cancelled ? '  (cancelled)' : ''}  ${d.eventId}`);
  for (const c of record.cancels) lines.push(`cancel     ${c.at}  ${c.pgCno}${c.cancelPgCno ? `/${c.cancelPgCno}` : ''}  ${c.amount ?? '?'}  leaves ${c.remainingAfter}  ${c.eventId}`);
  for (const r of record.cancellationsRequested) lines.push(`requested  cancellation ${r.shopTransactionId} of ${r.pgCno}: ${r.state}`);
  if (record.escrow) lines.push(`escrow     ${record.escrow.statusCode ?? '?'} at ${record.escrow.at}`);
  for (const d of record.discrepancies) {
    const state = d.resolvedAt === null ? `OPEN since ${d.openedAt}` : `resolved ${d.resolvedAt} by ${d.resolvedBy}${d.note ? `: ${d.note}` : ''}`;
    lines.push(`discrepancy ${d.id}  ${d.kind}  ${state}  ${JSON.stringify(d.details)}`);
  }
  lines.push(`updated    ${record.updatedAt}`);
  return lines.join('\n');
}
