import type { Writable } from 'node:stream';

/**
 * Resolves when `out` asks for more (`drain`) or goes away (`close`), whichever comes first: a
 * writer that paused on a full buffer must not wait forever for a client that left.
 */
export function drainedOrClosed(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}
