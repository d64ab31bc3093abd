import { backoffDelay, type BackoffOptions } from '../backoff';
import { StoreUnavailable } from '../store/store';

/** SQLite's answer when another connection held the write lock past the store's busy timeout. */
const LOCKED = /database is locked|SQLITE_BUSY/;
const BACKOFF: BackoffOptions = { baseMs: 100, maxMs: 2000 };
const ATTEMPTS = 40;

/**
 * A step of background work (a rebuild's page) tried again while SQLite's write lock is held by
 * someone else past the store's busy timeout: a serving receiver's writer under load, its
 * checkpoint, another command. Each page is its own transaction and recomputes from the stored
 * facts, so trying it again changes nothing but when it lands; the receiver's acks keep the lock
 * first, and the rebuild (at a lower priority) waits its turn instead of failing after a second.
 * It says so on stderr once, and gives up after a minute or two of being locked out (forty tries).
 */
export async function whileBusy<T>(step: () => Promise<T>, say: (text: string) => void, sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof StoreUnavailable) || !LOCKED.test(error.message) || attempt >= ATTEMPTS) throw error;
      if (attempt === 1) say('noti-receiver: the database is busy (a serving receiver holds its write lock); trying the page again\n');
      await sleep(backoffDelay(attempt, BACKOFF));
    }
  }
}
