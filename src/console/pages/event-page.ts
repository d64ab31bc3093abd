import { maskFreeText, type MaskMemo } from '../../observability/mask';
import { eventTypeName } from './event-type-name';
import type { ConflictLink, DeliveryAttempt, EventDetail } from '../../store/store';
import type { BodyView } from '../body-view';
import { maskedJson } from '../format';
import { html, isolated, maskedText, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { bodySection } from './body-section';
import { deliveryAttemptsSection } from './delivery-attempts-section';
import { stateBadge } from './events-page';
import { actionButton, layout, type Viewer, wordsOf } from './layout';
import { money } from './money';

function row(label: string, value: unknown) {
  return html`<tr><th>${label}</th><td>${value === null || value === undefined || value === '' ? html`<span class="muted">—</span>` : isSafe(value) ? value : String(value)}</td></tr>`;
}

/** The gateway's text, isolated; nothing (a dash) when it sent none. */
const outside = (value: string | null | undefined) => (value ? isolated(value) : null);

/** Where the event is on its way to the queue. */
export function deliveryFacts(t: Translator, detail: EventDetail): SafeHtml {
  return html`<tr><th>${t('event.row.state')}</th><td>${stateBadge(detail.status, t)}</td></tr>
  ${row(t('event.row.attempts'), detail.attempts)}
  ${row(t('event.row.delivered'), t.time(detail.deliveredAt))}
  <tr><th>${t('event.row.lastError')}</th><td>${detail.lastError ? html`<span class="error mono">${maskedText(maskFreeText(detail.lastError))}</span>` : html`<span class="muted">${t('common.none')}</span>`}</td></tr>`;
}

const isSafe = (value: unknown): value is SafeHtml => typeof value === 'object' && value !== null && 'text' in value;

/**
 * `currency`: the currency of the event's order (its expectation's, else the mall's default), for
 * the amount: a notification states none. The normalized event below keeps the integer, as forwarded.
 * `memo`: the one `body` was masked with, so that a field shown in both is masked once.
 */
export function eventPage(
  viewer: Viewer,
  detail: EventDetail,
  body: BodyView,
  conflicts: ConflictLink[],
  attempts: DeliveryAttempt[],
  notice: string | null,
  currency = 'KRW',
  memo: MaskMemo = new Map(),
): string {
  const t = wordsOf(viewer);
  const event = detail.event;
  const path = `/console/events/${encodeURIComponent(detail.eventId)}`;
  // The gateway's own words (resMsg, the status message) as they came, marked as such.
  const gatewayText = (code: string, message: string | null | undefined) => html`<span class="mono">${code}</span> <span class="gateway-text">${isolated(message ?? '')}</span>`;
  return layout({
    title: detail.eventId,
    section: 'events',
    viewer,
    notice,
    body: html`<p class="kicker">${t.rich('event.kicker', { type: eventTypeName(t, event.type), order: event.shopOrderNo === null ? '—' : isolated(event.shopOrderNo) })}</p>
<h1 class="mono">${detail.eventId}</h1>
<div class="actions">${stateBadge(detail.status, t)} ${actionButton(viewer, `${path}/requeue`, t('event.requeue'))}
  <span class="muted">${t('event.requeueHint')}</span></div>
<div class="columns">
<section class="card"><h2>${t('event.notification')}</h2><table class="facts"><tbody>
  ${row(t('event.row.type'), event.notiType === undefined ? eventTypeName(t, event.type) : t.rich('event.row.typeValue', { type: eventTypeName(t, event.type), notiType: event.notiType }))}
  ${row(t('event.row.mallId'), event.mallId)}
  ${row(t('event.row.shopOrderNo'), outside(event.shopOrderNo))}
  ${row(t('event.row.pgCno'), outside(event.pgCno))}
  ${row(t('event.row.cancelPgCno'), outside(event.cancelPgCno))}
  ${row(t('event.row.amount'), typeof event.amount === 'number' ? money(t, event.amount, currency) : event.amount)}
  ${row(t('event.row.result'), event.resultCode === undefined ? null : gatewayText(event.resultCode, event.resultMessage))}
  ${row(t('event.row.status'), event.status ? gatewayText(event.status.code, event.status.message) : null)}
  ${row(t('event.row.occurred'), t.time(event.occurredAt))}
  ${row(t('event.row.received'), t.time(detail.receivedAt))}
  ${row(t('event.row.source'), html`<span class="mono">${detail.sourceIp}</span>${event.source ? html` (<span class="code">${event.source.environment}</span>)` : ''}`)}
</tbody></table></section>
<section class="card"><h2>${t('event.delivery')}</h2><table class="facts"><tbody>
  ${deliveryFacts(t, detail)}
  ${row(t('event.row.redeliveries'), detail.redeliveries > 0 ? t('event.redeliveries', { n: detail.redeliveries }) : '0')}
</tbody></table>
<h3>${t('event.conflicts')}</h3>
${conflicts.length === 0
  ? html`<p class="muted">${t('event.noConflicts')}</p>`
  : html`<ul>${conflicts.map((c) => html`<li><a href="/console/conflicts/${c.id}">${t('event.conflictItem', { id: c.id })}</a>${t.rich('event.conflictReceived', { time: t.time(c.receivedAt), ip: html`<span class="mono">${c.sourceIp}</span>` })}</li>`)}</ul>`}
</section>
</div>
${deliveryAttemptsSection(t, attempts)}
${bodySection(t, t('body.rawHeading'), body, detail.contentType)}
<section class="card"><h2>${t('event.normalized')}</h2><pre>${maskedJson(event, memo)}</pre></section>`,
  });
}
