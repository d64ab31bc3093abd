import { parentPort } from 'node:worker_threads';
import { lowerThisThread } from '../../thread-priority';
import { translatorFor } from '../i18n/translator';
import type { PageReply, PageRequest } from './page-protocol';
import { OFF_LOOP_PAGES } from './page-recipes';

/**
 * The page thread: draws one page at a time from the data the route read. Bodies arrive as
 * Uint8Array (a message carries no Buffer) and are made Buffers again, as the store gives them.
 */
function asBuffers(value: unknown, depth = 0): unknown {
  if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => asBuffers(item, depth + 1));
  for (const [key, field] of Object.entries(value)) (value as Record<string, unknown>)[key] = asBuffers(field, depth + 1);
  return value;
}

// An operator's page may wait; the gateway's acks on the main thread may not.
lowerThisThread();

parentPort!.on('message', (message: PageRequest | 'close') => {
  if (message === 'close') return void process.exit(0);
  const { id, name, viewer, args } = message;
  let reply: PageReply;
  try {
    const page = OFF_LOOP_PAGES[name] as (...all: unknown[]) => string;
    reply = { id, ok: true, html: page({ ...viewer, t: translatorFor(viewer.locale) }, ...args.map((arg) => asBuffers(arg))) };
  } catch (error) {
    reply = { id, ok: false, error: (error as Error).stack ?? String(error) };
  }
  parentPort!.postMessage(reply);
});
