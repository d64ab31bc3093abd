import { isAmountDetail } from '../../ledger/fold/discrepancy-details';
import type { Discrepancy } from '../../ledger/fold/order-record';
import { html, isolated, type SafeHtml } from '../html';
import type { MessageKey } from '../i18n/catalogues';
import type { Translator } from '../i18n/translator';
import { ACTING_ROLE, roleAllows } from '../roles';
import { csrfField, type Viewer, wordsOf } from './layout';
import { money } from './money';
import { when } from './when';

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


/** The details whose names are words (the rest are the gateway's field names and codes: `pgCno`, `resCd`). */
const DETAIL_NAMES: Readonly<Record<string, MessageKey>> = {
  expected: 'detail.expected', notified: 'detail.notified', computed: 'detail.computed', largestPayment: 'detail.largestPayment',
  payments: 'detail.payments', remaining: 'detail.remaining', approved: 'detail.approved', deposited: 'detail.deposited',
  cancelled: 'detail.cancelled', amount: 'detail.amount', at: 'detail.at', expiresAt: 'detail.expiresAt',
  storedAmount: 'detail.storedAmount', redeliveredAmount: 'detail.redeliveredAmount',
  storedCancelAmount: 'detail.storedCancelAmount', redeliveredCancelAmount: 'detail.redeliveredCancelAmount',
  storedRemainAmount: 'detail.storedRemainAmount', redeliveredRemainAmount: 'detail.redeliveredRemainAmount',
  storedResCd: 'detail.storedResCd', redeliveredResCd: 'detail.redeliveredResCd', rejectionId: 'detail.rejectionId',
  storedMallId: 'detail.storedMallId', redeliveredMallId: 'detail.redeliveredMallId',
  storedShopOrderNo: 'detail.storedShopOrderNo', redeliveredShopOrderNo: 'detail.redeliveredShopOrderNo',
  listedAmount: 'detail.listedAmount', notifiedAmount: 'detail.notifiedAmount', listedStatus: 'detail.listedStatus',
  ledgerStatus: 'detail.ledgerStatus', day: 'detail.day', line: 'detail.line', resendPath: 'detail.resendPath',
  gross: 'detail.gross', fee: 'detail.fee', feeVat: 'detail.feeVat', payout: 'detail.payout', payoutDay: 'detail.payoutDay',
};

/** An instant as the ledger keeps it (the gateway's `+09:00` or the receiver's UTC): shown in KST like every other time. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function detailValue(t: Translator, key: string, value: string | number | null, currency: string): SafeHtml | string {
  if (value === null) return '—';
  // The portal's menu path is the service's own words: said in the page's language.
  if (key === 'resendPath') return t('detail.resendPathValue');
  if (typeof value === 'number') return isAmountDetail(key) ? money(t, value, currency) : t.number(value);
  return ISO_INSTANT.test(value) ? when(t, value) : isolated(value);
}

/**
 * The facts a discrepancy names (`expected`, `notified`…) in the page's words (the JSON name, what
 * the CLI and the API print, kept in `data-detail`); amounts in the order's currency (the expectation's,
 * else the mall's default), times in KST. The gateway's field names (`pgCno`) stay codes.
 */
export function discrepancyDetails(t: Translator, discrepancy: Pick<Discrepancy, 'details'>, currency: string): SafeHtml {
  return html`${Object.entries(discrepancy.details).map(([key, value], i) => {
    const name = DETAIL_NAMES[key];
    const label = name ? html`<span class="detail-name" data-detail="${key}">${t(name)}</span>` : html`<span class="code">${key}</span>`;
    return html`${i > 0 ? ', ' : ''}${label}: ${detailValue(t, key, value, currency)}`;
  })}`;
}
