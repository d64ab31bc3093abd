import { readlinkSync, stat } from 'node:fs';
import { setPriority } from 'node:os';
import { debuglog } from 'node:util';

/**
 * The nice value of the threads whose work is not the ack: the ledger's read and fold, the
 * console's page drawing, a `ledger rebuild` run beside the service. On two cores they took the CPU
 * the acks' event loop and writer would otherwise have (a paced probe's ack p99 2.7-2.9x its alone
 * figure during an order's 2,000 partial cancels or heavy console pages). At 10 the scheduler
 * gives a waiting nice-0 thread about nine times their share, and they still get every idle cycle.
 * Raising a thread's nice needs no privilege; lowering it back would, so nothing here ever does.
 * A constant, not a setting: no operator has a reason to give these threads the acks' priority.
 */
export const BACKGROUND_NICE = 10;

const debug = debuglog('thread-priority');

/**
 * Lowers the calling thread alone (Linux keeps a nice value per thread; `/proc/thread-self` names
 * it). Threads this one starts afterwards inherit the value. Where there is no such file (not
 * Linux) the thread carries on at its priority: a slower ack under load, never a failure.
 */
export function lowerThisThread(nice = BACKGROUND_NICE): void {
  try {
    // libuv's thread pool (files, DNS, crypto) serves every thread of the process and is started
    // by its first user, whose priority its threads inherit: asked for now, it starts at this
    // thread's priority still, not below the main thread's.
    stat('/', () => undefined);
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(tid, nice);
  } catch (error) {
    debug('thread priority left as it is: %s', (error as Error).message);
  }
}
