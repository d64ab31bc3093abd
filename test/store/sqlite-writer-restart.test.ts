import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import workerThreads, { type Worker, type WorkerOptions } from 'node:worker_threads';
import { createStore } from '../../src/store/create-store';
import { openSqliteDriver } from '../../src/store/sqlite/sqlite-store';
import { StoreUnavailable } from '../../src/store/store';
import { eventually } from '../helpers/eventually';
import { entryFor, sampleEvent } from '../helpers/stored-events';

/**
 * Every worker thread started while `body` runs, with the module it runs, so a test can end the real
 * writer thread the way its heap limit or a native crash would: from outside, without its consent.
 */
async function watchingWorkers<T>(body: (started: Array<{ worker: Worker; file: string }>) => Promise<T>): Promise<T> {
  const Original = workerThreads.Worker;
  const started: Array<{ worker: Worker; file: string }> = [];
  class Recorded extends Original {
    constructor(filename: string | URL, options?: WorkerOptions) {
      super(filename, options);
      started.push({ worker: this, file: String(filename) });
    }
  }
  workerThreads.Worker = Recorded;
  try {
    return await body(started);
  } finally {
    workerThreads.Worker = Original;
  }
}

const isWriter = (file: string) => /writer-worker/.test(file);

describe('a SQLite writer thread that dies', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'noti-writer-restart-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is replaced by a new one: later writes commit again, nothing committed before is lost, and both are reported', async () => {
    await watchingWorkers(async (started) => {
      const background: Error[] = [];
      const driver = openSqliteDriver(join(dir, 'receiver.db'), { onBackgroundError: (error) => background.push(error) });
      const store = createStore(driver);
      try {
        const before = sampleEvent();
        expect((await store.record(entryFor(before))).outcome).toBe('accepted');
        const writers = () => started.filter(({ file }) => isWriter(file));
        expect(writers()).toHaveLength(1);

        // A write in flight when the thread ends fails (503: the gateway resends it).
        const inFlight = store.record(entryFor(sampleEvent()));
        await writers()[0]!.worker.terminate();
        await expect(inFlight).rejects.toThrow(StoreUnavailable);
        expect(background[0]).toBeInstanceOf(StoreUnavailable);
        expect(background[0]!.message).toBe('sqlite writer stopped');

        const after = sampleEvent();
        const outcome = await eventually(
          () => store.record(entryFor(after)).then((result) => result.outcome, () => undefined),
          10_000,
          'a write to commit on a new writer thread',
        );
        expect(outcome).toBe('accepted');
        expect(writers()).toHaveLength(2);
        await store.ping();
        expect(background.map((error) => error.message)).toContain('sqlite writer thread restarted after: sqlite writer stopped');
        expect((await store.getEvent(before.id))?.eventId).toBe(before.id);
        expect((await store.getEvent(after.id))?.eventId).toBe(after.id);
      } finally {
        await store.close();
      }
    });
  });

  it('killed while batches are queued and committing leaves no lock behind: the new writer commits, and every write answered committed is stored', async () => {
    await watchingWorkers(async (started) => {
      const store = createStore(openSqliteDriver(join(dir, 'receiver.db')));
      try {
        await store.record(entryFor(sampleEvent()));
        const writer = started.find(({ file }) => isWriter(file))!.worker;
        // Writes in many turns, so many batches; the thread ends once a few have committed, while
        // the rest are queued or in a transaction.
        let committed = 0;
        const writes: Array<Promise<unknown>> = [];
        let terminated: Promise<number> | null = null;
        const writeTurn = () => {
          for (let i = 0; i < 100; i++) writes.push(store.record(entryFor(sampleEvent())).then(() => (committed += 1), () => undefined));
        };
        for (let turn = 0; turn < 1000 && !terminated; turn++) {
          writeTurn();
          // A busy machine commits more slowly than turns go by: wait for the writer, not for a turn.
          await new Promise((resolve) => setTimeout(resolve, turn % 10 === 9 ? 5 : 0));
          if (committed >= 200) {
            // One more turn queued in the same tick as the end, so writes are surely queued when the
            // thread dies: a writer fast enough to drain every turn between two ticks left none.
            writeTurn();
            terminated = writer.terminate();
          }
        }
        expect(terminated).not.toBeNull();
        await terminated;
        await Promise.all(writes);
        expect(committed).toBeLessThan(writes.length);
        const after = sampleEvent();
        await eventually(
          () => store.record(entryFor(after)).then((result) => result.outcome, () => undefined),
          10_000,
          'a write to commit on a new writer thread',
        );
        // Every write answered committed is stored. A batch may have committed just before the end
        // without its answer getting out: those callers got 503 and the gateway's resend is a duplicate.
        const stored = (await store.eventCounts()).pending;
        expect(stored).toBeGreaterThanOrEqual(1 + committed + 1);
        expect(stored).toBeLessThanOrEqual(1 + writes.length + 1);
      } finally {
        await store.close();
      }
    });
  });

  it('that keeps dying is replaced each time, the store serving again after each', async () => {
    await watchingWorkers(async (started) => {
      const store = createStore(openSqliteDriver(join(dir, 'receiver.db')));
      try {
        for (let death = 1; death <= 3; death++) {
          const writers = started.filter(({ file }) => isWriter(file));
          expect(writers).toHaveLength(death);
          await writers[death - 1]!.worker.terminate();
          await eventually(
            () => store.record(entryFor(sampleEvent())).then((result) => result.outcome, () => undefined),
            15_000,
            `the store to take writes after death ${death}`,
          );
        }
      } finally {
        await store.close();
      }
    });
  });
});
