import { isAmountDetail } from '../../ledger/discrepancy-details';
import type { Discrepancy } from '../../ledger/order-record';
import { html, isolated, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';
import { ACTING_ROLE, roleAllows } from '../roles';
import { csrfField, type Viewer, wordsOf } from './layout';
import { money } from './money';

/**
 * The `Resolve` button with its note: a CSRF-protected POST, not rendered for a viewer
 * (the server refuses their POST anyway). `back`: the page the operator returns to.
 */
export function resolveForm(viewer: Viewer, discrepancy: Discrepancy, back: 'order' | 'list'): SafeHtml {
  if (discrepancy.resolvedAt !== null || !roleAllows(viewer.role, ACTING_ROLE)) return html``;
  const t = wordsOf(viewer);
  return html`<form method="post" action="/console/discrepancies/${encodeURIComponent(discrepancy.id)}/resolve" class="inline resolve">${csrfField(viewer)}
<input type="hidden" name="back" value="${back}">
<label>${t('resolve.note')}<input name="note" required maxlength="2000" placeholder="${t('resolve.placeholder')}"></label>
<button type="submit" class="primary">${t('resolve.button')}</button></form>`;
}


/**
 * The facts a discrepancy names (`expected`, `notified`…): its field names as codes, its amounts
 * in the order's currency (the expectation's, else the mall's default).
 */
export function discrepancyDetails(t: Translator, discrepancy: Discrepancy, currency: string): SafeHtml {
  return html`${Object.entries(discrepancy.details).map(([key, value], i) => html`${i > 0 ? ', ' : ''}<span class="code">${key}</span>: ${
    typeof value === 'number' && isAmountDetail(key) ? money(t, value, currency) : isolated(value ?? '—')}`)}`;
}
