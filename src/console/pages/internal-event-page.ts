import { orderNamedBy } from '../../ledger/fold/own-event-order';
import { eventTypeName } from './event-type-name';
import type { DeliveryAttempt, EventDetail } from '../../store/store';
import { maskedJson } from '../format';
import { html, isolated } from '../html';
import { deliveryFacts } from './event-page';
import { deliveryAttemptsSection } from './delivery-attempts-section';
import { stateBadge } from './events-page';
import { actionButton, layout, type Viewer, wordsOf } from './layout';
import { orderHref } from './order-status-badge';

/**
 * An event this service made itself (the ledger's `order.status_changed` and `ledger.discrepancy`,
 * a command's final state): no notification behind it, so no notiType, source or raw body; what
 * was forwarded is the event itself.
 */
export function internalEventPage(viewer: Viewer, detail: EventDetail, attempts: DeliveryAttempt[], notice: string | null): string {
  const t = wordsOf(viewer);
  const event = detail.event as unknown as Record<string, unknown>;
  const order = orderNamedBy(event);
  const path = `/console/events/${encodeURIComponent(detail.eventId)}`;
  return layout({
    title: detail.eventId,
    section: 'events',
    viewer,
    notice,
    body: html`<p class="kicker">${t.rich('event.internal.kicker', { type: eventTypeName(t, detail.type) })}</p>
<h1 class="mono">${detail.eventId}</h1>
<div class="actions">${stateBadge(detail.status, t)} ${actionButton(viewer, `${path}/requeue`, t('event.requeue'))}
  <span class="muted">${t('event.requeueHint')}</span></div>
<div class="columns">
<section class="card"><h2>${t('event.internal.heading')}</h2><table class="facts"><tbody>
  <tr><th>${t('event.row.type')}</th><td>${eventTypeName(t, detail.type, 'code')}</td></tr>
  ${order ? html`<tr><th>${t('event.row.order')}</th><td><a class="mono order-no" href="${orderHref(order.mallId, order.shopOrderNo)}">${isolated(order.shopOrderNo)}</a> <span class="muted mono">${order.mallId}</span></td></tr>` : ''}
  ${detail.pgCno ? html`<tr><th>${t('event.row.pgCno')}</th><td class="mono">${isolated(detail.pgCno)}</td></tr>` : ''}
</tbody></table></section>
<section class="card"><h2>${t('event.delivery')}</h2><table class="facts"><tbody>${deliveryFacts(t, detail)}</tbody></table></section>
</div>
${deliveryAttemptsSection(t, attempts)}
<section class="card"><h2>${t('event.internal.forwarded')}</h2><pre>${maskedJson(event)}</pre></section>`,
  });
}
