import { performance } from 'node:perf_hooks';
import type { Store } from '../src/store/store';
import type { BenchStore } from './ledger-bench-store';
import { recordAll } from './ledger-bench-store';
import { inboxEntry } from './inbox-entries';
import { OneOrder } from './one-order';
import { backendPids, backendsCpuUs, ledgerToastBytes } from './postgres-server';
import { SqliteWalGuard } from './sqlite-wal-guard';
import { cpuSince, type CpuSnapshot } from './thread-cpu';

/** What one more input costs on an order of `facts` facts, per input (means over the repeats). */
export interface AppendCost {
  facts: number;
  repeats: number;
  cpu: CpuSnapshot;
  /** SQLite: WAL frames and bytes the input added (its ack and its projection). */
  walFrames: number | null;
  walBytes: number | null;
  /** PostgreSQL: CPU of the backends serving the store, and the ledger's TOAST growth. */
  serverUs: number | null;
  toastBytes: number | null;
  /** From the ack's call to the projector having applied everything it caused. */
  wallMs: number;
}

/** Unmeasured additions first: the code paths of a one-more-input batch compiled, the WAL's first rewind done. */
const WARM_REPEATS = 3;

/**
 * An order of `facts` facts (a payment then one-won partial cancels) stored through the store's
 * receive path (`seed`) and projected, then `repeats` more cancels, each alone: recorded, then
 * waited for until the projector has applied it and whatever it stored in turn; on SQLite as
 * many again for the WAL alone.
 */
export function appendCost(facts: number, repeats: number): { seed(store: Store): Promise<void>; measure(bench: BenchStore): Promise<AppendCost> } {
  const order = new OneOrder(facts + 2 * (WARM_REPEATS + repeats));
  return {
    seed: (store) => recordAll((entry) => store.record(entry), [order.payment(), ...Array.from({ length: facts - 1 }, () => order.cancel())].map((wire) => inboxEntry(wire))),
    measure: (bench) => addedInputs(bench, order, facts, repeats),
  };
}

async function addedInputs(bench: BenchStore, order: OneOrder, facts: number, repeats: number): Promise<AppendCost> {
  const { store } = bench.stores;
  await bench.caughtUp();
  const addOne = async () => {
    const entry = inboxEntry(order.cancel());
    const started = performance.now();
    await store.record(entry);
    await bench.caughtUp();
    return performance.now() - started;
  };
  for (let i = 0; i < WARM_REPEATS; i += 1) await addOne();

  const total: CpuSnapshot = { totalUs: 0, mainUs: 0, storeUs: 0 };
  let serverUs = 0;
  let wallMs = 0;
  const toastBefore = bench.kind === 'postgres' ? await ledgerToastBytes(bench.url) : 0;
  for (let i = 0; i < repeats; i += 1) {
    const pids = bench.kind === 'postgres' ? await backendPids(bench.url) : [];
    const server0 = backendsCpuUs(pids);
    const cpu0 = bench.cpu.snapshot();
    wallMs += await addOne();
    const cpu = cpuSince(cpu0, bench.cpu.snapshot());
    serverUs += backendsCpuUs(pids) - server0;
    total.totalUs += cpu.totalUs;
    total.mainUs += cpu.mainUs;
    total.storeUs += cpu.storeUs;
  }
  const toastAfter = bench.kind === 'postgres' ? await ledgerToastBytes(bench.url) : 0;

  // The WAL on repeats of their own: emptying the WAL before each makes the next write extend the
  // file again, which costs the writer CPU the figures above must not include.
  let frames = 0;
  let bytes = 0;
  const wal = bench.file ? new SqliteWalGuard(bench.file) : null;
  try {
    for (let i = 0; wal && i < repeats; i += 1) {
      await wal.begin();
      await addOne();
      const growth = wal.end();
      frames += growth.frames;
      bytes += growth.bytes;
    }
  } finally {
    wal?.close();
  }
  const per = (n: number) => n / repeats;
  return {
    facts,
    repeats,
    cpu: { totalUs: per(total.totalUs), mainUs: per(total.mainUs), storeUs: per(total.storeUs) },
    walFrames: wal ? per(frames) : null,
    walBytes: wal ? per(bytes) : null,
    serverUs: bench.kind === 'postgres' ? per(serverUs) : null,
    toastBytes: bench.kind === 'postgres' ? per(toastAfter - toastBefore) : null,
    wallMs: per(wallMs),
  };
}
