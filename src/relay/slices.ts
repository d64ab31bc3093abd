import { setImmediate as nextTurnOf } from 'node:timers/promises';
import type { OutboxRecord } from '../store/store';

/**
 * How much stored event JSON one publish carries before the relay lets the event loop run again:
 * building, tracing and serialising a slice's messages is synchronous, and the gateway's acks
 * wait behind it. 256 KiB is a few ms of that work.
 */
export const SLICE_BYTES = 256 * 1024;

/** `rows` cut in order into runs of about `maxBytes` of JSON each, at least one row per run. */
export function slicesOf(rows: readonly OutboxRecord[], maxBytes = SLICE_BYTES): OutboxRecord[][] {
  const slices: OutboxRecord[][] = [];
  let current: OutboxRecord[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (current.length > 0 && bytes + row.eventJson.length > maxBytes) {
      slices.push(current);
      current = [];
      bytes = 0;
    }
    current.push(row);
    bytes += row.eventJson.length;
  }
  if (current.length > 0) slices.push(current);
  return slices;
}

/** Resolves after the timers and I/O waiting now (a gateway POST among them) have had their turn. */
export function nextTurn(): Promise<void> {
  return nextTurnOf();
}
