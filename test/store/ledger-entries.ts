import { kstStamp } from '../../src/notifications/kst-date';
import { normalizeNotification } from '../../src/notifications/normalize';
import { validateNotification } from '../../src/notifications/schema';
import {
  approvalNotification, changeNotification, refundNotification, transferFailedNotification,
} from '../../src/simulator/notification-builders';
import type { InboxEntry } from '../../src/store/store';
import { entryFor } from '../helpers/stored-events';

export const MALL = 'T0001234';
/** 2026-11-21 12:00 KST; fixture times are minutes after it. */
export const BASE_MS = Date.UTC(2026, 10, 21, 3, 0, 0);
export const minute = (n: number): string => new Date(BASE_MS + n * 60_000).toISOString();

/**
 * A gateway body through the real validation and normalization, as the receive path stores it, received at `received` minutes;
 * `simulator`: the request carried the simulator's valid mark, as the route found it.
 */
export function entryOf(body: Record<string, string>, received: number, { simulator = false } = {}): InboxEntry {
  const valid = validateNotification(body, { mallIds: [] });
  if (!valid.ok) throw new Error(valid.reasons.join('; '));
  const { event } = normalizeNotification(valid.value, { receivedAt: minute(received), sourceIp: '203.233.72.150', environment: 'production', simulator });
  return entryFor(event);
}

const stamp = (at: number) => kstStamp(new Date(BASE_MS + at * 60_000));

/** Notifications of one order, each happening and received at minute `at`. */
export const paid = (shopOrderNo: string, pgCno: string, amount: number, at = 0, mallId = MALL, receipt: { simulator?: boolean } = {}) =>
  entryOf(approvalNotification({ mallId, shopOrderNo, pgCno, amount: String(amount), transactionDate: stamp(at) }), at, receipt);

export const cancelled = (shopOrderNo: string, pgCno: string, cancelPgCno: string, cancelAmount: number, at = 0, remainAmount?: number) => {
  const body: Record<string, string> = changeNotification({
    mallId: MALL, shopOrderNo, pgCno, cancelPgCno, cancelAmount: String(cancelAmount), amount: String(cancelAmount), cancelDate: stamp(at), statusCode: 'TS06',
  });
  if (remainAmount === undefined) delete body.cancelRemainAmount;
  else body.cancelRemainAmount = String(remainAmount);
  return entryOf(body, at);
};

export const refunded = (shopOrderNo: string, pgCno: string, amount: number, at = 0) =>
  entryOf(refundNotification({ mallId: MALL, shopOrderNo, pgCno, amount: String(amount), refundDate: stamp(at) }), at);

export const transferFailed = (shopOrderNo: string, pgCno: string, amount: number, at = 0, fields: Record<string, string> = {}, receipt: { simulator?: boolean } = {}) =>
  entryOf(transferFailedNotification({ mallId: MALL, shopOrderNo, pgCno, amount: String(amount), refundDate: stamp(at), ...fields }), at, receipt);
