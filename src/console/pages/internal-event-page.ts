import type { DeliveryAttempt, EventDetail } from '../../store/store';
import { maskedJson } from '../format';
import { html, isolated } from '../html';
import { deliveryFacts } from './event-page';
import { deliveryAttemptsSection } from './delivery-attempts-section';
import { stateBadge } from './events-page';
import { actionButton, layout, type Viewer } from './layout';
import { orderHref } from './order-status-badge';

/** The order an event names (the ledger's events carry it as `order`), when it names one. */
function orderOf(event: Record<string, unknown>): { mallId: string; shopOrderNo: string } | null {
  const order = event.order as Record<string, unknown> | undefined;
  return order && typeof order.mallId === 'string' && typeof order.shopOrderNo === 'string' ? { mallId: order.mallId, shopOrderNo: order.shopOrderNo } : null;
}

/**
 * An event this service made itself (the ledger's `order.status_changed` and `ledger.discrepancy`,
 * a command's final state): no notification behind it, so no notiType, source or raw body; what
 * was forwarded is the event itself.
 */
export function internalEventPage(viewer: Viewer, detail: EventDetail, attempts: DeliveryAttempt[], notice: string | null): string {
  const event = detail.event as unknown as Record<string, unknown>;
  const order = orderOf(event);
  const path = `/console/events/${encodeURIComponent(detail.eventId)}`;
  return layout({
    title: detail.eventId,
    section: 'events',
    viewer,
    notice,
    body: html`<p class="kicker">Event · ${detail.type} · made by this service, not a gateway notification</p>
<h1 class="mono">${detail.eventId}</h1>
<div class="actions">${stateBadge(detail.status)} ${actionButton(viewer, `${path}/requeue`, 'Requeue')}
  <span class="muted">sends it to the queue again with the same id</span></div>
<div class="columns">
<section class="card"><h2>Event</h2><table class="facts"><tbody>
  <tr><th>type</th><td>${detail.type}</td></tr>
  ${order ? html`<tr><th>order</th><td><a class="mono" href="${orderHref(order.mallId, order.shopOrderNo)}">${isolated(order.shopOrderNo)}</a> <span class="muted mono">${order.mallId}</span></td></tr>` : ''}
  ${detail.pgCno ? html`<tr><th>pgCno</th><td class="mono">${detail.pgCno}</td></tr>` : ''}
</tbody></table></section>
<section class="card"><h2>Delivery</h2><table class="facts"><tbody>${deliveryFacts(detail)}</tbody></table></section>
</div>
${deliveryAttemptsSection(attempts)}
<section class="card"><h2>Event (as forwarded)</h2><pre>${maskedJson(event)}</pre></section>`,
  });
}
