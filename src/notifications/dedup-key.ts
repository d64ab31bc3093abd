import { sha256Hex } from '../sha256-hex';
import { sortedKeys } from '../sorted-keys';

export interface DedupParts {
  mallId: string;
  notiType: string;
  pgCno: string;
  /** Each (partial) cancel of one payment has its own; without it two cancels would collapse into one. */
  cancelPgCno: string | null;
  /** Event 40 reports several escrow statuses for one pgCno; each is its own event. */
  statusCode: string | null;
}

/** A JSON array, so no field value can forge another key by containing a separator. */
export function dedupKey(parts: DedupParts): string {
  return JSON.stringify([parts.mallId, parts.notiType, parts.pgCno, parts.cancelPgCno ?? '', parts.statusCode ?? '']);
}

/** Every event id, a notification's or a command's, starts with it. */
export const EVENT_ID_PREFIX = 'evt_';

/** Stable across redeliveries, replicas and restarts: consumers de-duplicate on it. */
export function eventIdFor(key: string): string {
  return `${EVENT_ID_PREFIX}${sha256Hex(key).slice(0, 32)}`;
}

/**
 * True when `eventId` and `pgCno` are the ones `key` gives. The store's unique key on SQLite is
 * (pg_cno, event_id): it decides exactly as the event id alone only while both come from the key.
 */
export function derivedFromKey(key: string, eventId: string, pgCno: string): boolean {
  return eventId === eventIdFor(key) && (JSON.parse(key) as string[])[2] === pgCno;
}

/** Field order and JSON spacing must not turn a redelivery into a conflict. */
export function bodyHash(fields: Record<string, unknown>): string {
  const canonical = JSON.stringify(sortedKeys(fields).map((k) => [k, fields[k]]));
  return sha256Hex(canonical);
}
