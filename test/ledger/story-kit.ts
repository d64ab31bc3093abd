import { kstStamp } from '../../src/notifications/kst-date';

/** What the payment-story suites share: fresh order numbers, the gateway's KST times around now, the record's shape as read. */
export const MINUTE = 60_000;

/** A new order number per call, unique across runs (the suites share one database on PostgreSQL). */
export function orderNumbers(tag: string): () => string {
  let serial = 0;
  return () => `${tag}-${Date.now()}-${++serial}`;
}

/** The gateway's time (KST, its own format) `offsetMinutes` from now. */
export const stamp = (offsetMinutes = 0): string => kstStamp(new Date(Date.now() + offsetMinutes * MINUTE));

export interface Discrepancy { id: string; kind: string; details: Record<string, unknown>; resolvedAt: string | null; resolvedBy: string | null }
export interface OrderRecord extends Record<string, unknown> { status: string; discrepancies: Discrepancy[] }
export type Event = Record<string, unknown> & { id: string; type: string };
