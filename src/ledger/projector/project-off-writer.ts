import { performance } from 'node:perf_hooks';
import type { LedgerSettings } from '../../config/ledger-settings';
import { typedDriver, type StoreDriver } from '../../store/driver';
import type { ProjectedBatch } from '../sql/project-ledger';
import { BatchSizer } from './batch-sizer';

/**
 * How long one batch's write may hold SQLite's only writer, which the acks queued behind it wait
 * for. PostgreSQL's acks wait for a batch's write only while it draws its events' seqs and
 * commits, so its batches may be larger.
 */
export const TARGET_WRITE_MS = { sqlite: 10, postgres: 100 } as const;

/**
 * One projector batch in two phases: the reads and the fold on the projector's own thread and
 * connection (`computeLedgerBatch`), then only the resulting writes on the writer
 * (`applyLedgerBatch`), which re-checks the position it was read at. A batch whose position moved
 * meanwhile (another replica's projector, a sweep or a rebuild page) is discarded whole and
 * computed again; nothing of it was written. The batch size follows how long the last writes took
 * (BatchSizer), so no one batch's write holds the store for long.
 */
export function projectOffWriter(driver: StoreDriver, settings: LedgerSettings, traced: boolean) {
  const { ledgerRead, ledgerWrite } = typedDriver(driver);
  let sizer: BatchSizer | null = null;
  return async (max: number, now: string): Promise<ProjectedBatch> => {
    sizer ??= new BatchSizer(max, TARGET_WRITE_MS[driver.kind]);
    for (let discarded = 0; ; discarded += 1) {
      const { batch, write } = await ledgerRead('computeLedgerBatch', sizer.limit, now, settings, traced);
      if (write === null) return batch;
      const start = performance.now();
      const applied = await ledgerWrite('applyLedgerBatch', write);
      const writeMs = performance.now() - start;
      if (applied) {
        sizer.wrote(writeMs, batch.more);
        return { ...batch, writeMs, ...(discarded > 0 ? { discarded } : {}) };
      }
    }
  };
}
