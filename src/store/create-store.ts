import { typedDriver, type StoreDriver } from './driver';
import type { Store } from './store';

/** The Store contract, once, over either database's driver. */
export function createStore(driver: StoreDriver): Store {
  const { write, read } = typedDriver(driver);
  return {
    kind: driver.kind,
    record: (entry) => write('recordNotification', entry),
    recordRejection: (entry) => write('recordRejection', entry),
    nextPending: (limit) => read('nextPending', limit),
    markDelivered: (seqs, deliveredAt) => write('markDelivered', seqs, deliveredAt),
    markRetry: (seq, error, nextAttemptAt) => write('markRetry', seq, error, nextAttemptAt),
    markDead: (seq, error) => write('markDead', seq, error),
    requeue: (eventId) => write('requeue', eventId),
    requeueDead: () => write('requeueDead'),
    backlog: (now) => read('backlog', now),
    listEvents: (filter) => read('listEvents', filter),
    getEvent: (eventId) => read('getEvent', eventId),
    listRejections: (limit) => read('listRejections', limit),
    getRejection: (id) => read('getRejection', id),
    markRejectionReprocessed: (id, eventId, at) => write('markRejectionReprocessed', id, eventId, at),
    listConflicts: (limit) => read('listConflicts', limit),
    getConflict: (id) => read('getConflict', id),
    holdsRelayLock: () => driver.holdsRelayLock(),
    ping: () => driver.ping(),
    onNewEvents: (listener) => driver.onNewEvents(listener),
    close: () => driver.close(),
  };
}
