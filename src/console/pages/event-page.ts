import { maskFreeText } from '../../observability/mask';
import type { ConflictRow, DeliveryAttempt, EventDetail } from '../../store/store';
import type { BodyView } from '../body-view';
import { kstTime, maskedJson } from '../format';
import { html, isolated, type SafeHtml } from '../html';
import { bodySection } from './body-section';
import { deliveryAttemptsSection } from './delivery-attempts-section';
import { stateBadge } from './events-page';
import { actionButton, layout, type Viewer } from './layout';

function row(label: string, value: SafeHtml | string | number | null | undefined) {
  return html`<tr><th>${label}</th><td>${value === null || value === undefined || value === '' ? html`<span class="muted">—</span>` : value}</td></tr>`;
}

/** The gateway's text, isolated; nothing (a dash) when it sent none. */
const outside = (value: string | null | undefined) => (value ? isolated(value) : null);

/** Where the event is on its way to the queue. */
export function deliveryFacts(detail: EventDetail) {
  return html`<tr><th>state</th><td>${stateBadge(detail.status)}</td></tr>
  ${row('attempts', detail.attempts)}
  ${row('delivered', kstTime(detail.deliveredAt))}
  <tr><th>last error</th><td>${detail.lastError ? html`<span class="error mono">${maskFreeText(detail.lastError)}</span>` : html`<span class="muted">none</span>`}</td></tr>`;
}

export function eventPage(
  viewer: Viewer,
  detail: EventDetail,
  body: BodyView,
  conflicts: ConflictRow[],
  attempts: DeliveryAttempt[],
  notice: string | null,
): string {
  const event = detail.event;
  const path = `/console/events/${encodeURIComponent(detail.eventId)}`;
  return layout({
    title: detail.eventId,
    section: 'events',
    viewer,
    notice,
    body: html`<p class="kicker">Event · ${event.type} · order ${event.shopOrderNo === null ? '—' : isolated(event.shopOrderNo)}</p>
<h1 class="mono">${detail.eventId}</h1>
<div class="actions">${stateBadge(detail.status)} ${actionButton(viewer, `${path}/requeue`, 'Requeue')}
  <span class="muted">sends it to the queue again with the same id</span></div>
<div class="columns">
<section class="card"><h2>Notification</h2><table class="facts"><tbody>
  ${row('type', `${event.type} (notiType ${event.notiType})`)}
  ${row('mallId', event.mallId)}
  ${row('shopOrderNo', outside(event.shopOrderNo))}
  ${row('pgCno', outside(event.pgCno))}
  ${row('cancelPgCno', outside(event.cancelPgCno))}
  ${row('amount', event.amount)}
  ${row('result', html`${event.resultCode} ${isolated(event.resultMessage)}`)}
  ${row('status', event.status ? html`${event.status.code} ${isolated(event.status.message)}` : null)}
  ${row('occurred', kstTime(event.occurredAt))}
  ${row('received', kstTime(detail.receivedAt))}
  ${row('source', `${detail.sourceIp} (${event.source.environment})`)}
</tbody></table></section>
<section class="card"><h2>Delivery</h2><table class="facts"><tbody>
  ${deliveryFacts(detail)}
  ${row('redeliveries', detail.redeliveries > 0 ? `${detail.redeliveries} (the gateway sent the same notification again; acked, not forwarded again)` : '0')}
</tbody></table>
<h3>Conflicts</h3>
${conflicts.length === 0
  ? html`<p class="muted">No redelivery differed from this body.</p>`
  : html`<ul>${conflicts.map((c) => html`<li><a href="/console/conflicts/${c.id}">conflict ${c.id}</a> received ${kstTime(c.receivedAt)} from ${c.sourceIp}</li>`)}</ul>`}
</section>
</div>
${deliveryAttemptsSection(attempts)}
${bodySection('Raw body as received', body, detail.contentType)}
<section class="card"><h2>Normalized event (as forwarded)</h2><pre>${maskedJson(event)}</pre></section>`,
  });
}
