import { performance } from 'node:perf_hooks';
import type { ProjectedBatch } from '../src/ledger/sql/project-ledger';
import type { BenchStore } from './ledger-bench-store';
import { inboxEntry } from './inbox-entries';
import { OneOrder } from './one-order';
import { readAll } from './store-sql';

export interface LongOrder {
  cancels: number;
  rate: number;
  /** The projector's time on the first and the last `block` cancels (see `blockTimes`). */
  firstMs: number;
  lastMs: number;
  /** The longest any cancel waited, from its ack to the batch that applied it: the ledger's greatest lag. */
  greatestLagS: number;
  batches: number;
}

interface Applied {
  /** When the batch committed (performance.now()). */
  at: number;
  /** The inbox position the projector stood at after it. */
  inboxSeq: number;
}

/**
 * `cancels` one-won partial cancels of one payment, stored through the store at `rate` a second
 * while the projector runs, each made (and stamped received) as it is sent.
 */
export async function longOrder(bench: BenchStore, cancels: number, rate: number, block: number): Promise<LongOrder> {
  const { store, ledger } = bench.stores;
  const order = new OneOrder(cancels + 1);
  await store.record(inboxEntry(order.payment()));
  await bench.caughtUp();
  let seq = (await ledger.position()).applied.inboxSeq;
  const applied: Applied[] = [];
  // Every batch here goes past inbox rows only (the cancels and the ledger's own entries), so its
  // rows move the projector's inbox position by as many.
  ledger.projector!.onBatch((batch: ProjectedBatch) => applied.push({ at: performance.now(), inboxSeq: (seq += batch.rows) }));

  const ackedAt = new Map<string, number>();
  const pending: Array<Promise<void>> = [];
  const started = performance.now();
  for (let i = 0; i < cancels; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(store.record(inboxEntry(order.cancel())).then((result) => void ackedAt.set(result.eventId, performance.now())));
  }
  await Promise.all(pending);
  await bench.caughtUp();
  const finalSeq = (await ledger.position()).applied.inboxSeq;
  if (finalSeq !== seq) process.stderr.write(`[ledger-cost] batches' rows put the projector at ${seq}, the store says ${finalSeq}: the block times are off\n`);

  const rows = await readAll<{ seq: number | string; event_id: string }>(bench.url,
    `SELECT seq, event_id FROM inbox WHERE shop_order_no = ? AND source_ip <> 'internal' ORDER BY seq`, [order.shopOrderNo]);
  const inputs = rows.filter((row) => ackedAt.has(row.event_id)).map((row) => ({ seq: Number(row.seq), ackedAt: ackedAt.get(row.event_id)! }));
  const appliedAt = inputs.map(() => 0);
  const batchOf = inputs.map(() => 0);
  let b = 0;
  inputs.forEach((input, i) => {
    while (b < applied.length - 1 && applied[b]!.inboxSeq < input.seq) b += 1;
    appliedAt[i] = applied[b]!.at;
    batchOf[i] = b;
  });
  const times = blockTimes(applied.map((a) => a.at), inputs.map((input) => input.ackedAt), batchOf);
  return {
    cancels,
    rate,
    firstMs: times.slice(0, block).reduce((sum, t) => sum + t, 0),
    lastMs: times.slice(-block).reduce((sum, t) => sum + t, 0),
    greatestLagS: Math.max(...inputs.map((input, i) => appliedAt[i]! - input.ackedAt)) / 1000,
    batches: applied.length,
  };
}

/**
 * Each input's share of the projector's time: a batch ran from the later of the previous batch's
 * commit and its first input's ack (the commit woke the projector) to its own commit, and that
 * time is split evenly among the inputs it applied. `batchOf[i]` is the batch that applied input i.
 */
export function blockTimes(batchEnds: readonly number[], ackedAt: readonly number[], batchOf: readonly number[]): number[] {
  const firstAck = new Map<number, number>();
  const count = new Map<number, number>();
  batchOf.forEach((batch, i) => {
    firstAck.set(batch, Math.min(firstAck.get(batch) ?? Infinity, ackedAt[i]!));
    count.set(batch, (count.get(batch) ?? 0) + 1);
  });
  return batchOf.map((batch) => {
    const start = Math.max(batch > 0 ? batchEnds[batch - 1]! : -Infinity, firstAck.get(batch)!);
    return Math.max(0, batchEnds[batch]! - start) / count.get(batch)!;
  });
}
