import type { Discrepancy } from '../../ledger/order-record';
import { minorAmount } from '../format';
import { html, type SafeHtml } from '../html';
import { ACTING_ROLE, roleAllows } from '../roles';
import { csrfField, type Viewer } from './layout';

/**
 * The `Resolve` button with its note: a CSRF-protected POST, not rendered for a viewer
 * (the server refuses their POST anyway). `back`: the page the operator returns to.
 */
export function resolveForm(viewer: Viewer, discrepancy: Discrepancy, back: 'order' | 'list'): SafeHtml {
  if (discrepancy.resolvedAt !== null || !roleAllows(viewer.role, ACTING_ROLE)) return html``;
  return html`<form method="post" action="/console/discrepancies/${encodeURIComponent(discrepancy.id)}/resolve" class="inline resolve">${csrfField(viewer)}
<input type="hidden" name="back" value="${back}">
<label>Note<input name="note" required maxlength="2000" placeholder="what was done (refund repeated, customer refunded…)"></label>
<button type="submit" class="primary">Resolve</button></form>`;
}

/** Counts among a discrepancy's details; every other number there is an amount in minor units. */
const COUNTS = new Set(['payments']);

/**
 * The facts a discrepancy names (`expected`, `notified`…), as text; amounts with the order's
 * currency when it is known, else bare (the list's header says they are minor units).
 */
export function discrepancyDetails(discrepancy: Discrepancy, currency: string | null): string {
  return Object.entries(discrepancy.details)
    .map(([key, value]) => `${key}: ${typeof value === 'number' && currency !== null && !COUNTS.has(key) ? minorAmount(value, currency) : value ?? '—'}`)
    .join(', ');
}
