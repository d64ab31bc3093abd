import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NOTI_TYPES } from '../src/notifications/event-types';
import type { InboxEntry } from '../src/store/store';
import type { BenchStore } from './ledger-bench-store';
import { inboxEntries } from './inbox-entries';
import { loadSource, type LoadSource } from './load';
import { backendPids, backendsCpuUs } from './postgres-server';
import { cpuSince, type CpuSnapshot } from './thread-cpu';

/** Per notification of the measured part of a steady mix: its acks and its projection. */
export interface MixCost {
  notifications: number;
  cpu: CpuSnapshot;
  /** SQLite: WAL frames (pages) per notification, counted from the wal-index by a child process. */
  walPages: number | null;
  walRewinds: number | null;
  serverUs: number | null;
  /** The rate the store was fed at, as achieved. */
  perSecond: number;
}

/** Records in flight at most: the pace is the bench's, a slow commit does not pile up records without end. */
const IN_FLIGHT = 64;

/**
 * The benches' mix of every event type (one in five a redelivery, each event-20 and -40 walking
 * its payment through several notifications) fed at `rate` a second: `warmup` notifications
 * unmeasured, then `measured`, the figures taken from the first measured record until the
 * projector applied the last.
 */
export async function mixCost(bench: BenchStore, warmup: number, measured: number, rate: number): Promise<MixCost> {
  const source = loadSource(inboxEntries(NOTI_TYPES, warmup + measured));
  const { store } = bench.stores;
  await feed(source, warmup, rate, (entry) => store.record(entry));
  await bench.caughtUp();
  const wal = bench.file ? await startWalCounter(`${bench.file}-shm`) : null;
  try {
    const pids = bench.kind === 'postgres' ? await backendPids(bench.url) : [];
    const frames0 = await wal?.read();
    const server0 = backendsCpuUs(pids);
    const cpu0 = bench.cpu.snapshot();
    const started = performance.now();
    await feed(source, measured, rate, (entry) => store.record(entry));
    const fed = (performance.now() - started) / 1000;
    await bench.caughtUp();
    const cpu = cpuSince(cpu0, bench.cpu.snapshot());
    const serverUs = backendsCpuUs(pids) - server0;
    const frames1 = await wal?.read();
    const per = (n: number) => n / measured;
    return {
      notifications: measured,
      cpu: { totalUs: per(cpu.totalUs), mainUs: per(cpu.mainUs), storeUs: per(cpu.storeUs) },
      walPages: frames0 && frames1 ? per(frames1.frames - frames0.frames) : null,
      walRewinds: frames0 && frames1 ? frames1.rewinds - frames0.rewinds : null,
      serverUs: bench.kind === 'postgres' ? per(serverUs) : null,
      perSecond: measured / fed,
    };
  } finally {
    await wal?.stop();
  }
}

async function feed(source: LoadSource<InboxEntry>, count: number, rate: number, record: (entry: InboxEntry) => Promise<unknown>): Promise<void> {
  const started = performance.now();
  let inFlight = 0;
  let freed: (() => void) | null = null;
  const all: Array<Promise<unknown>> = [];
  for (let i = 0; i < count; i += 1) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    while (inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => (freed = resolve));
    inFlight += 1;
    all.push(record(source.next()).finally(() => {
      inFlight -= 1;
      freed?.();
      freed = null;
    }));
  }
  await Promise.all(all);
}

interface WalCounter {
  read(): Promise<{ frames: number; rewinds: number }>;
  stop(): Promise<void>;
}

async function startWalCounter(shmPath: string): Promise<WalCounter> {
  const child: ChildProcess = fork(join(__dirname, 'wal-poller.js'), [shmPath], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await once(child, 'message');
  return {
    async read() {
      child.send('read');
      const [answer] = (await once(child, 'message')) as [{ frames: number; rewinds: number }];
      return answer;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
