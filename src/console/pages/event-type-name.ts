import { html, type SafeHtml } from '../html';
import type { MessageKey } from '../i18n/catalogues';
import type { Translator } from '../i18n/translator';

/** Every event type the queue carries (the gateway's and the service's own), with the key of its name. */
const EVENT_TYPE_NAMES: Readonly<Record<string, MessageKey>> = {
  'payment.approved': 'eventType.paymentApproved',
  'payment.changed': 'eventType.paymentChanged',
  'vaccount.deposited': 'eventType.deposited',
  'vaccount.deposit_cancelled': 'eventType.depositCancelled',
  'escrow.changed': 'eventType.escrowChanged',
  'refund.completed': 'eventType.refundCompleted',
  'refund.transfer_failed': 'eventType.refundTransferFailed',
  'unionpay.confirmed': 'eventType.unionPayConfirmed',
  'wallet.cancel.succeeded': 'eventType.walletCancelSucceeded',
  'wallet.cancel.failed': 'eventType.walletCancelFailed',
  'van.net_cancel.failed': 'eventType.vanNetCancelFailed',
  'order.status_changed': 'eventType.orderStatusChanged',
  'order.updated': 'eventType.orderUpdated',
  'ledger.discrepancy': 'eventType.ledgerDiscrepancy',
};

/** A type's name in the page's words; English keeps the code (what the queue, the logs and the filter say). */
export function eventTypeText(t: Translator, type: string): string {
  const key = Object.prototype.hasOwnProperty.call(EVENT_TYPE_NAMES, type) ? EVENT_TYPE_NAMES[type] : undefined;
  return key && t.locale !== 'en' ? t(key) : type;
}

/** The type's name with its code small beside, so the docs and the logs can be searched by it. */
export function eventTypeName(t: Translator, type: string): SafeHtml {
  const name = eventTypeText(t, type);
  return name === type ? html`<span class="code">${type}</span>` : html`${name} <code class="code-tag">${type}</code>`;
}
