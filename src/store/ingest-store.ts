import type { WriteName } from './procedures';
import { inboxRow } from './procedures/inbox-outbox/inbox-row';
import type { Store } from './store';

/** What the gateway's listener needs of the store: the ack's commit and a rejection's, nothing else. */
export type IngestStore = Pick<Store, 'kind' | 'record' | 'recordRejection'>;

/** The listener's two writes over a driver's (or another thread's) write, for createStore and the ingest thread alike. */
export function ingestWrites(kind: Store['kind'], write: (name: WriteName, args: unknown[]) => Promise<unknown>): IngestStore {
  return {
    kind,
    record: (entry) => write('recordNotification', [inboxRow(entry)]) as ReturnType<Store['record']>,
    recordRejection: (entry) => write('recordRejection', [entry]) as ReturnType<Store['recordRejection']>,
  };
}
