import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchSizer } from './batch-sizer';

/**
 * A sweep's or a rebuild's pages, each one write transaction of the ledger's, sized by time like
 * the projector's batches and followed by a pause as long as the page took. On SQLite a rebuild
 * run by the CLI beside the serving receiver is another process's writer: while it holds the
 * file's write lock, the receiver's acks wait in SQLite's busy handler, which sleeps between its
 * looks; back-to-back pages took the lock again before it looked, and acks failed with `database
 * is locked` after the busy timeout. With short pages and the lock free half the time, an ack
 * waits a page at most.
 */
export function pacedPages(targetMs: number) {
  let sizer: BatchSizer | null = null;
  return async <T>(max: number, page: (limit: number) => Promise<T>, full: (result: T) => boolean): Promise<T> => {
    sizer ??= new BatchSizer(max, targetMs, 1);
    const start = performance.now();
    const result = await page(sizer.limit);
    const ms = performance.now() - start;
    sizer.wrote(ms, full(result));
    await sleep(Math.min(ms, 1000));
    return result;
  };
}
