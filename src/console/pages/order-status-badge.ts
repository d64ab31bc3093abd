import type { OrderStatus } from '../../ledger/order-record';
import { html } from '../html';

/** The console's three badge tones: an alarm, money settled, money still awaited. */
const TONE: Record<OrderStatus, string> = {
  ledger_error: 'dead', refund_failed: 'dead', discrepancy: 'dead',
  cancelled: 'delivered', partially_cancelled: 'delivered', paid: 'delivered',
  awaiting_deposit: 'pending', awaiting_payment: 'pending',
};

export const orderStatusBadge = (status: OrderStatus) => html`<span class="badge ${TONE[status]}">${status}</span>`;

export const orderHref = (mallId: string, shopOrderNo: string) =>
  `/console/orders/${encodeURIComponent(mallId)}/${encodeURIComponent(shopOrderNo)}`;
