import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Response } from 'express';
import { drainedOrClosed } from '../drained-or-closed';

/** About this much JSON text per turn of the event loop: well under a millisecond to serialize. */
const SLICE_CHARS = 64 * 1024;

/**
 * What `res.json({ [key]: items, ...rest })` sends, byte for byte, serialized a slice of items at a
 * time with the event loop free between slices. The internal API shares its process and event loop
 * with the gateway's listener: a page of 500 order records, one of them an order of 2,000 partial
 * cancels, serialized in one call held every ack waiting behind it. `rest` follows the list, in its
 * own key order (undefined fields left out, as JSON.stringify leaves them).
 */
export async function sendJsonList(res: Response, key: string, items: readonly unknown[], rest: Record<string, unknown> = {}): Promise<void> {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  const tail = JSON.stringify(rest).slice(1);
  let slice = `{${JSON.stringify(key)}:[`;
  for (let i = 0; i < items.length; i++) {
    slice += (i === 0 ? '' : ',') + (JSON.stringify(items[i]) ?? 'null');
    if (slice.length < SLICE_CHARS) continue;
    if (!res.write(slice)) await drainedOrClosed(res);
    slice = '';
    await nextTurn();
    // The caller went away: nobody reads the rest.
    if (res.destroyed) return;
  }
  res.end(`${slice}]${tail === '}' ? tail : `,${tail}`}`);
}
