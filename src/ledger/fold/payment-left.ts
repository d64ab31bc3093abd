import type { OrderRecord } from './order-record';

/** The command kinds that take money back from a payment. */
export const CANCEL_KINDS = ['wallet-b.cancel', 'van.cancel'] as const;

/** What a cancel command asks of its payment: the payment's pgCno, and an amount (minor units), or null for all that is left. */
export interface CancelClaim {
  pgCno: string;
  amount: number | null;
}

/** A cancel recorded for the payment and not refused for good, with the cancelPgCno the gateway's answer gave it (null before one). */
export interface OpenCancel {
  amount: number | null;
  cancelPgCno: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The claim of a command on its payment, read from its request as sent: a wallet-b partial cancel
 * (`32`) asks its `amountInfo.totAmount`; a full one (`40`) and a VAN cancel (an approval is
 * cancelled whole) ask all that is left. Null when the command is no cancel or names no `pgCno`.
 */
export function cancelClaim(kind: string, request: Record<string, unknown>): CancelClaim | null {
  if (!(CANCEL_KINDS as readonly string[]).includes(kind)) return null;
  const pgCno = text(request.pgCno);
  if (pgCno === null) return null;
  const info = (request.amountInfo ?? {}) as Record<string, unknown>;
  const partial = kind === 'wallet-b.cancel' && request.reviseTypeCode === '32' && typeof info.totAmount === 'number';
  return { pgCno, amount: partial ? (info.totAmount as number) : null };
}

/**
 * What is left to cancel of one payment of the record: its amount less the cancels the gateway's
 * notifications confirmed (the record's figures), less every cancel recorded and not refused for
 * good that no confirmed cancel is yet (matched by the cancelPgCno its answer named, so a
 * confirmed cancel counts once). An open cancel of all that is left leaves nothing. Null when
 * the record has no payment of that pgCno.
 */
export function paymentLeft(order: OrderRecord, pgCno: string, open: readonly OpenCancel[]): number | null {
  const payment = order.payments.find((p) => p.pgCno === pgCno);
  if (payment === undefined) return null;
  const confirmed = new Set(order.cancels.map((c) => c.cancelPgCno).filter((id): id is string => id !== null));
  const cancelled = order.cancels.filter((c) => c.pgCno === pgCno).reduce((sum, c) => sum + (c.amount ?? 0), 0);
  const whole = payment.cancelled ? 0 : Math.max(0, (payment.amount ?? 0) - cancelled);
  const requested = open.filter((c) => c.cancelPgCno === null || !confirmed.has(c.cancelPgCno));
  if (requested.some((c) => c.amount === null)) return 0;
  return Math.max(0, whole - requested.reduce((sum, c) => sum + (c.amount ?? 0), 0));
}
