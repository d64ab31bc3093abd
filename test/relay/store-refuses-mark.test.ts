import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger';
import type { OutboundEvent, Publisher } from '../../src/publishers/publisher';
import { startRelay } from '../../src/relay/relay';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';
import { eventually } from '../helpers/eventually';
import { entryFor, sampleEvent } from '../helpers/stored-events';

/**
 * The queue took a batch but the store cannot mark it delivered (disk full, database locked).
 * Republishing is allowed (at least once) but must back off like any failure, not repeat
 * every poll interval.
 */
describe('relay when marking rows delivered fails', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'relay-mark-'));
    store = openSqliteStore(join(dir, 'r.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function countingPublisher() {
    const published: string[] = [];
    const publisher: Publisher = {
      kind: 'counting',
      publish: async (event: OutboundEvent) => void published.push(event.id),
      publishBatch: async (events) => void published.push(...events.map((event) => event.id)),
      status: () => ({ connected: true }),
      close: async () => undefined,
    };
    return { publisher, published };
  }

  function capturedLogger() {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    return { logger: createLogger({ level: 'warn', stream }), lines };
  }

  it('backs off with growing delays, retrying the mark and not the publish, then delivers once the store takes it', async () => {
    const event = sampleEvent();
    await store.record(entryFor(event));
    let refusals = 3;
    const markDelivered = store.markDelivered.bind(store);
    store.markDelivered = async (seqs, at) => {
      if (refusals-- > 0) throw new Error('database or disk is full');
      return markDelivered(seqs, at);
    };
    const { publisher, published } = countingPublisher();
    const { logger, lines } = capturedLogger();
    const relay = startRelay({ store, publisher, logger, pollIntervalMs: 5, backoff: { baseMs: 40, maxMs: 10_000 } });

    await eventually(async () => ((await store.backlog(Date.now())).pending === 0 ? true : undefined), 10_000, 'the mark to succeed');
    await relay.stop();

    const failures = lines.filter((line) => line.message === 'relay pass failed; retrying');
    expect(failures.map((line) => line.attempt)).toEqual([1, 2, 3]);
    failures.forEach((line, i) => {
      const step = 40 * 2 ** i;
      expect(line.retryInMs).toBeGreaterThanOrEqual(step / 2);
      expect(line.retryInMs).toBeLessThanOrEqual(step);
    });
    // The queue confirmed it once; the three retries only asked the store for the mark again.
    expect(published).toEqual([event.id]);
  });

  it.each([
    ['a batch publisher', true],
    ['a one-at-a-time publisher', false],
  ])('publishes each event once through %s while the store refuses the mark, and blames the store, not the queue', async (_kind, batches) => {
    const events = Array.from({ length: 10 }, () => sampleEvent());
    for (const event of events) await store.record(entryFor(event));
    const markDelivered = store.markDelivered.bind(store);
    let refuse = true;
    let refusals = 0;
    store.markDelivered = async (seqs, at) => {
      if (refuse) {
        refusals += 1;
        throw new Error('sqlite write failed: database or disk is full');
      }
      return markDelivered(seqs, at);
    };
    const { publisher, published } = countingPublisher();
    if (!batches) delete publisher.publishBatch;
    const { logger } = capturedLogger();
    const relay = startRelay({ store, publisher, logger, pollIntervalMs: 5, backoff: { baseMs: 5, maxMs: 20 } });

    await eventually(() => (refusals >= 20 ? true : undefined), 10_000, 'many refused marks');
    const failing = relay.state();
    expect(failing.storeError).toMatch(/disk is full/);
    expect(failing.lastError).toBeNull();
    expect(failing.confirmedUnmarked).toBeGreaterThan(0);
    refuse = false;
    await eventually(async () => ((await store.backlog(Date.now())).pending === 0 ? true : undefined), 10_000, 'the marks to succeed');
    await relay.stop();

    const timesPublished = new Map<string, number>();
    for (const id of published) timesPublished.set(id, (timesPublished.get(id) ?? 0) + 1);
    expect([...timesPublished.keys()]).toEqual(events.map((event) => event.id));
    expect(new Set(timesPublished.values())).toEqual(new Set([1]));
    expect(relay.state()).toMatchObject({ storeError: null, lastError: null, confirmedUnmarked: 0 });
  });

  it('does not republish while the back-off runs, however often new commits wake it', async () => {
    await store.record(entryFor(sampleEvent()));
    const markDelivered = store.markDelivered.bind(store);
    let refuse = true;
    store.markDelivered = async (seqs, at) => {
      if (refuse) throw new Error('database is locked');
      return markDelivered(seqs, at);
    };
    const { publisher, published } = countingPublisher();
    const { logger, lines } = capturedLogger();
    const relay = startRelay({ store, publisher, logger, pollIntervalMs: 5, backoff: { baseMs: 60_000, maxMs: 60_000 } });

    await eventually(() => lines.some((line) => line.message === 'relay pass failed; retrying'), 10_000, 'the first refusal');
    for (let i = 0; i < 5; i += 1) await store.record(entryFor(sampleEvent()));
    // 5 commits, each a wake-up, and many poll intervals later: still the one publish.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(published).toHaveLength(1);
    refuse = false;
    await relay.stop(5_000);
    expect((await store.backlog(Date.now())).pending).toBe(0);
  });
});
