import type { OrderRecord } from '../../ledger/order-record';
import { kstTime, minorAmount } from '../format';
import { html, isolated, isolatedText, type SafeHtml } from '../html';
import { layout, type Viewer } from './layout';
import { orderStatusBadge } from './order-status-badge';
import { discrepancyDetails, resolveForm } from './resolve-form';

interface TimelineEntry {
  /** The event's own time; null for what the record keeps without one (the expectation, a requested cancellation). */
  at: string | null;
  what: string;
  detail: SafeHtml;
  /** Sorts entries of the same moment: the record's own arrays are ordered by time, then id. */
  key: string;
}

const eventLink = (eventId: string) => html`<a class="mono" href="/console/events/${encodeURIComponent(eventId)}">${eventId}</a>`;

function timeline(viewer: Viewer, order: OrderRecord): TimelineEntry[] {
  const currency = order.expected?.currency ?? null;
  const amount = (n: number | null) => minorAmount(n, currency);
  const undated: TimelineEntry[] = [];
  if (order.expected) {
    const e = order.expected;
    undated.push({ at: null, key: 'a', what: 'expectation', detail: html`${minorAmount(e.amount, e.currency)} by ${e.method} (from ${e.source})${e.expiresAt ? html`, expires ${kstTime(e.expiresAt)}` : ''}` });
  }
  for (const c of order.cancellationsRequested) {
    undated.push({ at: null, key: `b${c.shopTransactionId}`, what: 'cancellation requested', detail: html`<a class="mono" href="/console/commands/${encodeURIComponent(c.shopTransactionId)}">${c.shopTransactionId}</a> for pgCno <span class="mono">${c.pgCno}</span>: ${c.state}` });
  }
  const dated: TimelineEntry[] = [
    ...order.payments.map((p) => ({ at: p.at, key: p.eventId, what: 'payment', detail: html`${amount(p.amount)}, pgCno <span class="mono">${p.pgCno}</span> · ${eventLink(p.eventId)}` })),
    ...order.cancels.map((c) => ({ at: c.at, key: c.eventId, what: 'cancel', detail: html`${amount(c.amount)} of pgCno <span class="mono">${c.pgCno}</span>${c.cancelPgCno ? html` (cancelPgCno <span class="mono">${c.cancelPgCno}</span>)` : ''}, ${amount(c.remainingAfter)} left · ${eventLink(c.eventId)}` })),
    ...order.deposits.map((d) => ({ at: d.at, key: d.eventId, what: d.cancelled ? 'deposit (cancelled)' : 'deposit', detail: html`${amount(d.amount)}, pgCno <span class="mono">${d.pgCno}</span> · ${eventLink(d.eventId)}` })),
    ...(order.escrow ? [{ at: order.escrow.at, key: order.escrow.eventId, what: 'escrow', detail: html`status ${order.escrow.statusCode ?? 'unknown'} · ${eventLink(order.escrow.eventId)}` }] : []),
    ...order.discrepancies.flatMap((d) => [
      { at: d.openedAt, key: `z${d.id}`, what: `discrepancy opened: ${d.kind}`, detail: html`<span class="error">${isolated(discrepancyDetails(d, currency))}</span> · events ${d.eventIds.map((id, i) => html`${i > 0 ? ', ' : ''}${eventLink(id)}`)}<div>${resolveForm(viewer, d, 'order')}</div>` },
      ...(d.resolvedAt ? [{ at: d.resolvedAt, key: `z${d.id}r`, what: `discrepancy resolved: ${d.kind}`, detail: html`by ${isolated(d.resolvedBy)}${d.note ? html`: ${isolated(d.note)}` : ''}` }] : []),
    ]),
  ];
  // By the instant, not the text: the gateway's times carry +09:00, the receiver's are UTC.
  const instant = (e: TimelineEntry) => Date.parse(e.at!) || 0;
  dated.sort((a, b) => instant(a) - instant(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return [...undated, ...dated];
}

export function orderPage(viewer: Viewer, order: OrderRecord, notice: string | null): string {
  const currency = order.expected?.currency ?? null;
  const open = order.discrepancies.filter((d) => d.resolvedAt === null);
  const figure = (label: string, value: string) => html`<div class="tile"><span class="tile-value">${value}</span><span class="tile-label">${label}</span></div>`;
  return layout({
    title: isolatedText(order.shopOrderNo),
    section: 'orders',
    viewer,
    notice,
    body: html`<p class="kicker">Order · mall ${order.mallId}</p>
<h1 class="mono">${isolated(order.shopOrderNo)}</h1>
<div class="actions">${orderStatusBadge(order.status)} <span class="muted">updated ${kstTime(order.updatedAt)}${open.length > 0 ? ` · ${open.length} open discrepancy(ies)` : ''}</span></div>
${order.ledgerError ? html`<p class="error">The ledger could not apply this order's inputs (${kstTime(order.ledgerError.at)}): ${order.ledgerError.error}. Its figures are the last it computed; once the cause is fixed, <code>noti-receiver ledger rebuild</code> computes it again.</p>` : ''}
<section class="tiles">
  ${figure('expected', order.expected ? minorAmount(order.expected.amount, order.expected.currency) : 'none')}
  ${figure('approved', minorAmount(order.approved, currency))}
  ${figure('cancelled', minorAmount(order.cancelled, currency))}
  ${figure('remaining', minorAmount(order.remaining, currency))}
  ${figure('deposited', minorAmount(order.deposited, currency))}
</section>
<section class="card"><h2>Timeline</h2>
<table class="timeline">
  <thead><tr><th>when</th><th>what</th><th>detail</th></tr></thead>
  <tbody>${timeline(viewer, order).map((e) => html`<tr><td class="nowrap">${e.at ? kstTime(e.at) : html`<span class="muted">—</span>`}</td><td>${e.what}</td><td>${e.detail}</td></tr>`)}</tbody>
</table></section>`,
  });
}
