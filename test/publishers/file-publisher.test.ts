import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NormalizedEvent } from '../../src/notifications/normalized-event';
import { openFilePublisher } from '../../src/publishers/file-publisher';
import { outboundEvent } from '../../src/publishers/publisher';
import { eventually } from '../helpers/eventually';
import { entryFor, sampleEvent } from '../helpers/stored-events';
import { inContract, oneOfEveryKind } from '../helpers/event-contract';
import { canMountTmpfs, mountTmpfs } from '../helpers/tmpfs';
import { expectInOrderWithoutGaps, RelayHarness } from '../relay/relay-harness';

/** The file as a consumer reads it: the whole lines, and whatever follows the last newline. */
function readSink(path: string): { ids: string[]; tail: string } {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const cut = text.lastIndexOf('\n') + 1;
  const lines = text.slice(0, cut).split('\n').filter(Boolean);
  // A glued or torn line does not parse: that is the failure this suite is about.
  return { ids: inContract(lines.map((line) => JSON.parse(line) as NormalizedEvent)).map((event) => event.id), tail: text.slice(cut) };
}

async function recordEvents(harness: RelayHarness, count: number, padding = 0): Promise<NormalizedEvent[]> {
  const events: NormalizedEvent[] = [];
  for (let i = 0; i < count; i += 1) {
    const event = sampleEvent();
    if (padding > 0) event.data.note = 'x'.repeat(padding);
    const result = await harness.store.record(entryFor(event));
    if (result.outcome !== 'accepted') throw new Error(`event ${event.id} was ${result.outcome}`);
    events.push(event);
  }
  return events;
}

async function deliveredIds(harness: RelayHarness): Promise<string[]> {
  return (await harness.store.listEvents({ status: 'delivered', limit: 10_000 })).map((row) => row.eventId);
}

const fullDiskSuite = 'file sink on a disk that fills up';
(canMountTmpfs(fullDiskSuite) ? describe : describe.skip)(fullDiskSuite, () => {
  it('delivers an event only once its whole line is fsynced, never leaves a broken line, and catches up when space returns', async () => {
    const disk = mountTmpfs(256);
    let harness: RelayHarness | null = null;
    try {
      const sink = join(disk.dir, 'events.ndjson');
      const filler = join(disk.dir, 'filler');
      writeFileSync(filler, Buffer.alloc(200 * 1024));
      harness = new RelayHarness(await openFilePublisher(sink));
      // About 2 KB each: ~28 fit in what is left, so the first batch's write comes up short.
      const events = await recordEvents(harness, 60, 1800);

      await eventually(async () => {
        const { pending } = await harness!.store.backlog(Date.now());
        return pending > 0 && /ENOSPC|disk full/.test(harness!.relay.state().lastError ?? '') ? true : undefined;
      }, 15_000, 'the relay to hit the full disk');
      // Read the store first: anything delivered by then must already be a whole line in the file.
      const delivered = await deliveredIds(harness);
      const duringFault = readSink(sink);
      expect(delivered.length).toBeLessThan(events.length);
      expect(duringFault.ids).toEqual(expect.arrayContaining(delivered));
      expect(harness.publisher.status()).toMatchObject({ connected: false });

      unlinkSync(filler);
      await harness.waitForDrain();
      const after = readSink(sink);
      expect(after.tail).toBe('');
      expectInOrderWithoutGaps(after.ids, events);
      expect(await deliveredIds(harness)).toHaveLength(events.length);
    } finally {
      await harness?.close();
      disk.unmount();
    }
  });
});

describe('file sink and log rotation', () => {
  let dir: string;
  let sink: string;
  let harness: RelayHarness;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-sink-'));
    sink = join(dir, 'events.ndjson');
    harness = new RelayHarness(await openFilePublisher(sink));
  });
  afterEach(async () => {
    await harness.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('after the file is renamed under the running relay, new events go to a new file at the path', async () => {
    const before = await recordEvents(harness, 3);
    await harness.waitForDrain();
    renameSync(sink, `${sink}.1`);
    const after = await recordEvents(harness, 3);
    harness.relay.wake();
    await harness.waitForDrain();
    expect(readSink(`${sink}.1`).ids).toEqual(before.map((e) => e.id));
    expect(readSink(sink).ids).toEqual(after.map((e) => e.id));
  });

  it('after the file is deleted under the running relay, it is created again', async () => {
    await recordEvents(harness, 2);
    await harness.waitForDrain();
    unlinkSync(sink);
    const after = await recordEvents(harness, 2);
    harness.relay.wake();
    await harness.waitForDrain();
    expect(readSink(sink).ids).toEqual(after.map((e) => e.id));
  });

  it('reopen() (SIGHUP) creates the file at the path at once, before any new event', async () => {
    await recordEvents(harness, 1);
    await harness.waitForDrain();
    renameSync(sink, `${sink}.1`);
    await harness.publisher.reopen!();
    expect(readFileSync(sink, 'utf8')).toBe('');
  });
});

describe('file sink lines', () => {
  it('are every event type of docs/asyncapi.json, as the document describes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-sink-'));
    try {
      const sink = join(dir, 'events.ndjson');
      const publisher = await openFilePublisher(sink);
      const events = oneOfEveryKind();
      await publisher.publishBatch!(events);
      await publisher.close();
      expect(readSink(sink)).toEqual({ ids: events.map((event) => event.id), tail: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('file sink left with a torn last line', () => {
  it('cuts the torn line off when it opens, so the next event starts on its own line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-sink-'));
    try {
      const sink = join(dir, 'events.ndjson');
      const whole = sampleEvent();
      writeFileSync(sink, `${JSON.stringify(whole)}\n{"id":"evt_torn","data":{"cardNo":"53`);
      const publisher = await openFilePublisher(sink);
      const next = sampleEvent();
      await publisher.publish(outboundEvent(next));
      await publisher.close();
      expect(readSink(sink)).toEqual({ ids: [whole.id, next.id], tail: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
