import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFilePublisher } from '../../src/publishers/file-publisher';
import type { OutboundEvent, Publisher } from '../../src/publishers/publisher';
import { SLICE_BYTES } from '../../src/relay/slices';
import { createLogger } from '../../src/observability/logger';
import { startRelay, type Relay } from '../../src/relay/relay';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';
import { eventually } from '../helpers/eventually';
import { inboxEntry } from '../helpers/stored-events';

/**
 * A backlog of large events is drained in slices with the event loop's other work between them
 * (a gateway POST's ack among it), never in one long synchronous run, and still arrives once, in order.
 */
describe('relay draining large events', () => {
  let dir: string;
  let store: Store | null = null;
  let relay: Relay | null = null;
  let publisher: Publisher | null = null;
  afterEach(async () => {
    await relay?.stop(0);
    await publisher?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('lets other turns of the event loop run between its slices, and delivers everything once in order', async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-relay-slices-'));
    const file = join(dir, 'events.ndjson');
    const real = await openFilePublisher(file);
    // A probe that counts turns of the event loop while the relay works: each publish notes the count.
    let turns = 0;
    let probing = true;
    const probe = () => {
      turns += 1;
      if (probing) setImmediate(probe);
    };
    const publishes: Array<{ turn: number; bytes: number; events: number }> = [];
    const note = (events: readonly OutboundEvent[]) =>
      publishes.push({ turn: turns, bytes: events.reduce((sum, event) => sum + event.json.length, 0), events: events.length });
    publisher = {
      ...real,
      publish: async (event) => {
        note([event]);
        await real.publish(event);
      },
      publishBatch: async (events) => {
        note(events);
        await real.publishBatch!(events);
      },
    };
    // The backlog is stored before the relay starts: 40 events of 64 KiB, 2.6 MB waiting at once.
    store = openSqliteStore(join(dir, 'receiver.db'));
    const entries = Array.from({ length: 40 }, (_, i) => inboxEntry({ pgCno: `BIG${String(i).padStart(4, '0')}`, data: { shopValue1: 'x'.repeat(64 * 1024) } }));
    for (const entry of entries) await store.record(entry);
    const events = entries.map((entry) => entry.event);
    setImmediate(probe);
    relay = startRelay({ store, publisher, logger: createLogger({ level: 'error', silent: true }), pollIntervalMs: 100 });
    const drained = store;
    await eventually(async () => ((await drained.backlog(Date.now())).pending === 0 ? true : undefined), 20_000, 'the outbox to drain');
    probing = false;

    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
    expect(lines).toEqual(events.map((event) => event.id));
    // 2.6 MB of events went out in many publishes, none past a slice (or one event), each in a later turn.
    expect(publishes.length).toBeGreaterThan(4);
    for (const publish of publishes) expect(publish.events === 1 || publish.bytes <= SLICE_BYTES).toBe(true);
    for (let i = 1; i < publishes.length; i++) expect(publishes[i]!.turn).toBeGreaterThan(publishes[i - 1]!.turn);
  });
});
