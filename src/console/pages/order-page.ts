import { orderCurrency } from '../../ledger/fold/order-currency';
import { playbookOf } from '../discrepancy-playbooks';
import type { GatewayFileFact, GatewayListingFact, GatewaySettlementFact } from '../../ledger/fold/ledger-facts';
import type { Discrepancy, OrderRecord } from '../../ledger/fold/order-record';
import { maskFreeText } from '../../observability/mask';
import { html, isolated, isolatedText, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { layout, type Viewer, wordsOf } from './layout';
import { money } from './money';
import { codeBeside, kindLabel, orderHref, orderStatusBadge, simulatedMark } from './order-status-badge';
import type { PaymentView, RequestedCancel } from '../payment-cancel';
import type { PaymentPage } from '../payment-page';
import { COMMAND_STATES, type CommandState } from '../../store/command-types';
import { auditActor } from './audit-words';
import { CANCEL_FORM_SCRIPT, COPY_SCRIPT, paymentSection } from './payment-section';
import { discrepancyDetails, resolveForm } from './resolve-form';
import { resolutionText } from './resolution-text';
import { when } from './when';

interface TimelineEntry {
  /** The event's own time; null for what the record lists apart (the expectation, a requested cancellation). */
  at: string | null;
  /** For those listed apart: when this service stored them, where known. */
  storedAt?: string | null;
  what: SafeHtml | string;
  detail: SafeHtml;
  /** Sorts entries of the same moment: the record's own arrays are ordered by time, then id. */
  key: string;
}

const eventLink = (eventId: string) => html`<a class="mono" href="/console/events/${encodeURIComponent(eventId)}">${eventId}</a>`;


/** Who asked for a cancel: the operator the console's audit names, the console when its row is gone, else the internal API. */
function cancelBy(t: Translator, request: RequestedCancel | undefined): SafeHtml {
  if (request?.requestedVia === 'console') return request.requestedBy ? t.rich('timeline.byOperator', { who: auditActor(t, request.requestedBy) }) : t.rich('timeline.byConsole');
  return t.rich('timeline.byApi');
}

function commandStateName(t: Translator, state: string): SafeHtml {
  if (!(COMMAND_STATES as readonly string[]).includes(state)) return html`<span class="code">${state}</span>`;
  const name = t(`commandState.${state as CommandState}`);
  return html`${name}${codeBeside(name, state)}`;
}

/** A failed refund's message from the bank (the event 51's `resMsg`), masked: it may carry the account it could not pay. */
function bankSaid(t: Translator, d: Discrepancy, bankMessages: Record<string, string>): SafeHtml | string {
  const said = d.eventIds.map((id) => bankMessages[id]).filter((m): m is string => m !== undefined);
  if (d.kind !== 'refund_transfer_failed' || said.length === 0) return '';
  return html`<div class="bank-said">${t.rich('order.bankMessage', { message: html`<span class="gateway-text">${isolated(maskFreeText(said.join(' / ')))}</span>` })}</div>`;
}

function timeline(viewer: Viewer, order: OrderRecord, currency: string, requests: RequestedCancel[], bankMessages: Record<string, string>): TimelineEntry[] {
  const t = wordsOf(viewer);
  const amount = (n: number | null) => money(t, n, currency);
  // English keeps the code (what the logs and alerts say); other languages name the kind in their words.
  const kindName = (kind: string) => (t.locale === 'en' ? kind : playbookOf(kind, t.locale)?.name ?? kind);
  const undated: TimelineEntry[] = [];
  if (order.expected) {
    const e = order.expected;
    // Either source is the shop's system through the internal API: a PUT, or the wallet-a trade it created.
    const source = e.source === 'expectation' ? t('timeline.expectation') : html`<span class="code">${e.source}</span>`;
    undated.push({
      at: null, storedAt: e.setAt ?? null, key: 'a', what: t('timeline.expectation'),
      detail: html`${t.rich('timeline.expectationDetail', { amount: money(t, e.amount, e.currency), method: t(`method.${e.method}`), source })}${t.rich('timeline.setBy', { by: t.rich('timeline.byApi') })}${e.expiresAt ? t('timeline.expires', { time: t.time(e.expiresAt) }) : ''}`,
    });
  }
  for (const c of order.cancellationsRequested) {
    const command = html`<a class="mono" href="/console/commands/${encodeURIComponent(c.shopTransactionId)}">${c.shopTransactionId}</a>`;
    const request = requests.find((r) => r.shopTransactionId === c.shopTransactionId);
    undated.push({
      at: null, storedAt: request?.requestedAt ?? null, key: `b${c.shopTransactionId}`, what: t('timeline.cancellationRequested'),
      detail: html`${t.rich('timeline.cancellationDetail', { command, pgCno: c.pgCno, state: commandStateName(t, c.state) })}${t.rich('timeline.askedBy', { by: cancelBy(t, request) })}`,
    });
  }
  const dated: TimelineEntry[] = [
    ...order.payments.map((p) => ({ at: p.at, key: p.eventId, what: p.cancelled ? t('timeline.paymentCancelled') : t('timeline.payment'), detail: html`${t.rich('timeline.paymentDetail', { amount: amount(p.amount), pgCno: p.pgCno })} · ${eventLink(p.eventId)}` })),
    ...order.cancels.map((c) => ({ at: c.at, key: c.eventId, what: t('timeline.cancel'), detail: html`${t.rich('timeline.cancelDetail', { amount: amount(c.amount), pgCno: c.pgCno })}${c.cancelPgCno ? t.rich('timeline.cancelPgCno', { cancelPgCno: c.cancelPgCno }) : ''}${t.rich('timeline.left', { amount: amount(c.remainingAfter) })} · ${eventLink(c.eventId)}` })),
    ...order.deposits.map((d) => ({ at: d.at, key: d.eventId, what: d.cancelled ? t('timeline.depositCancelled') : t('timeline.deposit'), detail: html`${t.rich('timeline.depositDetail', { amount: amount(d.amount), pgCno: d.pgCno })} · ${eventLink(d.eventId)}` })),
    ...(order.escrow ? [{ at: order.escrow.at, key: order.escrow.eventId, what: t('timeline.escrow'), detail: html`${t('timeline.escrowDetail', { statusCode: order.escrow.statusCode ?? t('timeline.unknown') })} · ${eventLink(order.escrow.eventId)}` }] : []),
    ...order.discrepancies.flatMap((d) => [
      { at: d.openedAt, key: `z${d.id}`, what: t('timeline.opened', { kind: kindName(d.kind) }), detail: html`${kindLabel(t, d.kind, { line: true, order })}<div class="error">${discrepancyDetails(t, d, currency)}</div>${bankSaid(t, d, bankMessages)}<div>${t('timeline.events')} ${d.eventIds.map((id, i) => html`${i > 0 ? ', ' : ''}${eventLink(id)}`)}</div><div>${resolveForm(viewer, d, 'order')}</div>` },
      ...(d.resolvedAt ? [{ at: d.resolvedAt, key: `z${d.id}r`, what: t('timeline.resolved', { kind: kindName(d.kind) }), detail: resolvedDetail(t, d) }] : []),
    ]),
  ];
  // By the instant, not the text: the gateway's times carry +09:00, the receiver's are UTC.
  const instant = (e: TimelineEntry) => Date.parse(e.at!) || 0;
  dated.sort((a, b) => instant(a) - instant(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return [...undated, ...dated];
}

function resolvedDetail(t: Translator, d: Discrepancy): SafeHtml {
  const { by, note } = resolutionText(t, d);
  return note ? t.rich('timeline.byWithNote', { by, note }) : t.rich('timeline.by', { by });
}

/** `defaultCurrency`: LEDGER_DEFAULT_CURRENCY, the figures' currency when the order's expectation names none. */
/** `payments`: each payment as the gateway described it, and whether this viewer may cancel (the order route reads both). */
/** `bankMessages`: each failed refund's message from the bank by event id, as stored (masked here). */
export function orderPage(
  viewer: Viewer, order: OrderRecord, notice: string | null, defaultCurrency: string,
  payments?: { views: PaymentView[]; canCancel: boolean; page?: Omit<PaymentPage, 'shown'> }, bankMessages: Record<string, string> = {},
  listings: readonly GatewayFileFact[] = [],
): string {
  const t = wordsOf(viewer);
  const currency = orderCurrency(order, defaultCurrency);
  const open = order.discrepancies.filter((d) => d.resolvedAt === null);
  const figure = (label: string, value: SafeHtml | string) => html`<div class="tile"><span class="tile-value">${value}</span><span class="tile-label">${label}</span></div>`;
  return layout({
    title: isolatedText(order.shopOrderNo),
    section: 'orders',
    viewer,
    notice,
    scripts: payments ? [COPY_SCRIPT, CANCEL_FORM_SCRIPT] : [],
    body: html`<p class="kicker">${t('order.kicker', { mallId: order.mallId })}</p>
<h1 class="mono">${isolated(order.shopOrderNo)}</h1>
<div class="actions">${orderStatusBadge(t, order.status)}${simulatedMark(t, order)} <span class="muted">${t('order.updatedAt', { time: t.time(order.updatedAt) })}${open.length > 0 ? ` · ${t('order.openCount', { count: open.length })}` : ''}</span></div>
${order.ledgerError ? html`<p class="error">${t('order.ledgerError', { time: t.time(order.ledgerError.at) })} <code lang="en">${order.ledgerError.error}</code></p>` : ''}
<section class="tiles">
  ${figure(t('orders.col.expected'), order.expected ? t.money(order.expected.amount, order.expected.currency) : t('common.none'))}
  ${figure(t('orders.col.approved'), t.money(order.approved, currency))}
  ${figure(t('orders.col.cancelled'), t.money(order.cancelled, currency))}
  ${figure(t('orders.col.remaining'), money(t, order.remaining, currency))}
  ${figure(t('orders.col.deposited'), t.money(order.deposited, currency))}
</section>
${payments ? paymentSection(viewer, payments.views, currency, orderHref(order.mallId, order.shopOrderNo), payments.canCancel, payments.page) : ''}
${gatewayRows(t, listings)}
<section class="card"><h2>${t('order.timeline')}</h2>
<table class="timeline">
  <thead><tr><th>${t('order.col.when')}</th><th>${t('order.col.what')}</th><th>${t('order.col.detail')}</th></tr></thead>
  <tbody>${timeline(viewer, order, currency, payments?.views.flatMap((v) => v.requests) ?? [], bankMessages).map((e) => {
    const at = e.at ?? e.storedAt;
    return html`<tr><td>${at ? when(t, at) : html`<span class="muted">—</span>`}</td><td>${e.what}</td><td>${e.detail}</td></tr>`;
  })}</tbody>
</table></section>`,
  });
}

/**
 * The gateway's own rows for the order, as each imported transaction list gave them (the latest
 * list first), and then as each settlement statement did, beside the notifications above: the
 * amount and status the gateway's portal shows, what it charged and pays out. The files are in won.
 */
function gatewayRows(t: Translator, files: readonly GatewayFileFact[]): SafeHtml | '' {
  if (files.length === 0) return '';
  const listings = files.filter((f): f is GatewayListingFact => f.kind === 'gateway_listing');
  const statements = files.filter((f): f is GatewaySettlementFact => f.kind === 'gateway_settlement');
  return html`<section class="card gateway-rows"><h2>${t('order.gatewayRows')}</h2>
${listings.length === 0 ? '' : html`<div class="table-wrap"><table class="listed-rows">
<thead><tr><th>${t('order.gatewayRows.list')}</th><th>${t('order.gatewayRows.row')}</th><th><span class="code">pgCno</span></th><th><span class="code">cancelPgCno</span></th><th class="num">${t('order.gatewayRows.amount')}</th><th>${t('order.gatewayRows.status')}</th><th>${t('order.col.when')}</th></tr></thead>
<tbody>${listings.flatMap((listing) => {
    const days = listing.firstDay === listing.lastDay ? listing.firstDay : `${listing.firstDay} ~ ${listing.lastDay}`;
    if (listing.rows.length === 0) return [html`<tr data-import="${listing.importId}"><td>${days}</td><td colspan="6" class="muted">${t('order.gatewayRows.none')}</td></tr>`];
    return listing.rows.map((row) => html`<tr data-import="${listing.importId}"><td>${days}</td><td class="num">${t.number(row.line)}</td><td class="mono">${row.pgCno}</td><td class="mono">${row.cancelPgCno ?? '—'}</td>
<td class="num">${money(t, row.amount, 'KRW')}</td><td data-status="${row.status}">${t(`order.gatewayRows.${row.kind}`)} · ${t(`order.gatewayRows.status.${row.status}`)}</td><td>${when(t, row.at)}</td></tr>`);
  })}</tbody></table></div>`}
${statements.length === 0 ? '' : settlementRows(t, statements)}</section>`;
}

/** Each statement's rows for the order, the latest statement first: the one whose row for a transaction the ledger matches. */
function settlementRows(t: Translator, statements: readonly GatewaySettlementFact[]): SafeHtml {
  const m = (amount: number) => money(t, amount, 'KRW');
  return html`<h3>${t('order.settlementRows')}</h3>
<div class="table-wrap"><table class="settlement-rows">
<thead><tr><th>${t('order.settlementRows.payoutDay')}</th><th>${t('order.gatewayRows.row')}</th><th><span class="code">pgCno</span></th><th><span class="code">cancelPgCno</span></th><th>${t('order.settlementRows.day')}</th><th class="num">${t('reconcile.col.gross')}</th><th class="num">${t('reconcile.col.fee')}</th><th class="num">${t('reconcile.col.feeVat')}</th><th class="num">${t('reconcile.col.payout')}</th></tr></thead>
<tbody>${statements.flatMap((statement) => statement.rows.map((row) => html`<tr data-import="${statement.importId}"><td>${row.payoutDay}</td><td class="num">${t.number(row.line)}</td><td class="mono">${row.pgCno}</td><td class="mono">${row.cancelPgCno ?? '—'}</td><td>${row.transactionDay ?? '—'}</td>
<td class="num">${m(row.gross)}</td><td class="num">${m(row.fee)}</td><td class="num">${m(row.feeVat)}</td><td class="num">${m(row.payout)}</td></tr>`))}</tbody></table></div>`;
}
