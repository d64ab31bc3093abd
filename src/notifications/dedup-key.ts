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

/** Stable across redeliveries, replicas and restarts: consumers de-duplicate on it. */
export function eventIdFor(key: string): string {
  return `evt_${sha256Hex(key).slice(0, 32)}`;
}

/** Field order and JSON spacing must not turn a redelivery into a conflict. */
export function bodyHash(fields: Record<string, unknown>): string {
  const canonical = JSON.stringify(sortedKeys(fields).map((k) => [k, fields[k]]));
  return sha256Hex(canonical);
}
