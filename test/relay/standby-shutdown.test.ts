import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/observability/logger';
import type { Publisher } from '../../src/publishers/publisher';
import { startRelay } from '../../src/relay/relay';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';
import { entryFor, sampleEvent } from '../helpers/stored-events';

describe('a standby replica on shutdown', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'noti-standby-'));
    store = openSqliteStore(join(dir, 'receiver.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops its relay at once instead of waiting out the drain time, since another replica owns the backlog', async () => {
    await store.record(entryFor(sampleEvent()));
    // Another replica holds the relay lock: this one must never publish.
    const standby: Store = Object.assign(Object.create(store) as Store, { holdsRelayLock: async () => false });
    const published: string[] = [];
    const publisher: Publisher = {
      kind: 'recording',
      publish: async (event) => void published.push(event.id),
      status: () => ({ connected: true }),
      close: async () => undefined,
    };
    const relay = startRelay({ store: standby, publisher, logger: createLogger({ level: 'error', silent: true }), pollIntervalMs: 20 });

    // A ten-minute drain allowance: before the fix this resolved only when it ran out (jest times out first).
    await relay.stop(600_000);

    expect(relay.state().running).toBe(false);
    expect(published).toEqual([]);
    expect((await store.backlog(Date.now())).pending).toBe(1);
  });
});
