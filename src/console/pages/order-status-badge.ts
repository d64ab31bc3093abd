import type { OrderStatus } from '../../ledger/fold/order-record';
import { playbookOf } from '../discrepancy-playbooks';
import { html, type SafeHtml } from '../html';
import type { Translator } from '../i18n/translator';

/**
 * The console's badge tones: an alarm, money settled, money given back, money not (or not yet)
 * what was expected. Only `paid` is green: a shop that ships on the green badge must not ship an
 * order cancelled in whole or in part, nor one underpaid or overpaid.
 */
const TONE: Record<OrderStatus, string> = {
  ledger_error: 'dead', refund_failed: 'dead', discrepancy: 'dead',
  cancelled: 'reversed', partially_cancelled: 'reversed', paid: 'delivered',
  underpaid: 'pending', overpaid: 'pending', awaiting_deposit: 'pending', awaiting_payment: 'pending',
};

/** A code small beside its human name, for people who search the docs and logs by it; none when the name is the code. */
export const codeBeside = (name: string, code: string): SafeHtml => (name === code ? html`` : html` <code class="code-tag">${code}</code>`);

/** The status's name in a badge, its one-line explanation on hover, and its code beside it. */
export function orderStatusBadge(t: Translator, status: OrderStatus): SafeHtml {
  const name = t(`orderStatus.${status}`);
  return html`<span class="status" title="${t(`orderStatus.${status}.line`)}"><span class="badge ${TONE[status]}">${name}</span>${codeBeside(name, status)}</span>`;
}

/** The simulator's made-up orders say so wherever an order is shown: their money never moved. */
export function simulatedMark(t: Translator, order: { simulated?: true }): SafeHtml {
  return order.simulated ? html` <span class="badge simulated" title="${t('order.simulated.line')}">${t('order.simulated')}</span>` : html``;
}

/**
 * A discrepancy kind: its name, its code, and (with `line`) its one plain line and a link to its
 * playbook, which links back to `order` when given.
 */
export function kindLabel(t: Translator, kind: string, options: { line?: boolean; order?: { mallId: string; shopOrderNo: string } } = {}): SafeHtml {
  const playbook = playbookOf(kind, t.locale);
  const name = playbook?.name ?? kind;
  const about = options.order ? `?${new URLSearchParams({ mall: options.order.mallId, order: options.order.shopOrderNo }).toString()}` : '';
  const link = html`<a href="/console/playbooks${about}#${kind}" class="playbook-link">${t('discrepancies.whatToDo')}</a>`;
  return html`<span class="kind"><strong>${name}</strong>${codeBeside(name, kind)}${options.line && playbook
    ? html` <span class="kind-line">${playbook.line} ${link}</span>` : options.line ? html` ${link}` : ''}</span>`;
}

export const orderHref = (mallId: string, shopOrderNo: string) =>
  `/console/orders/${encodeURIComponent(mallId)}/${encodeURIComponent(shopOrderNo)}`;
