import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProjectedBatch } from '../src/ledger/sql/project-ledger';
import type { Stores } from '../src/ledger/projector/open-stores';
import { createBenchSchema } from './postgres-schema';
import type { Store } from '../src/store/store';
import { ThreadCpu } from './thread-cpu';

type OpenStores = typeof import('../src/ledger/projector/open-stores').openStores;

/** A build to measure: its dist/ (with its migrations/ beside it), loaded into this process. */
export interface Build {
  name: string;
  openStores: OpenStores;
}

export function loadBuild(name: string, dist: string): Build {
  // A build from before the ledger's runtime left store/ keeps openStores there.
  const file = ['ledger/projector', 'ledger-projector', 'store'].map((folder) => join(dist, folder, 'open-stores.js')).find((path) => existsSync(path));
  if (!file) throw new Error(`no open-stores.js under ${dist}`);
  return { name, openStores: (require(file) as { openStores: OpenStores }).openStores };
}

export type StoreKind = 'sqlite' | 'postgres';

/** A fresh store of one build, its projector running with the receiver's defaults. */
export interface BenchStore {
  kind: StoreKind;
  url: string;
  /** SQLite: the database file. */
  file: string | null;
  stores: Stores;
  cpu: ThreadCpu;
  /** Resolves once the projector has applied everything stored (the ledger's own entries too). */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `seed`, given, stores an order's history before the measured store opens: with the projector
 * off, then projected in one batch by a store opened for that alone. Projected as it arrives, a
 * long history would cost its own length at every small batch (what the bench measures), and
 * seeding would take minutes.
 */
export async function openBenchStore(build: Build, kind: StoreKind, postgresUrl: string | undefined, seed?: (store: Store) => Promise<void>): Promise<BenchStore> {
  let url: string;
  let file: string | null = null;
  let drop: () => Promise<void>;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-cost-'));
    file = join(dir, 'receiver.db');
    url = `sqlite:${file}`;
    drop = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    if (!postgresUrl) throw new Error('PostgreSQL needs BENCH_POSTGRES_URL or TEST_POSTGRES_URL');
    const schema = await createBenchSchema(postgresUrl);
    url = schema.url;
    drop = schema.drop;
  }
  if (seed) {
    const off = await build.openStores(url, { projector: false });
    await seed(off.store).finally(() => off.store.close());
    const once = await build.openStores(url, { projector: { batch: 1_000_000 } });
    await caughtUpOf(once)().finally(() => once.store.close());
  }
  const threads = ThreadCpu.threadsNow();
  const stores = await build.openStores(url);
  stores.ledger.projector!.onFailure((error) => process.stderr.write(`[ledger-cost] projector batch failed: ${error.message}\n`));
  return {
    kind, url, file, stores,
    cpu: new ThreadCpu(threads),
    caughtUp: caughtUpOf(stores),
    async close() {
      try {
        await stores.store.close();
      } finally {
        await drop();
      }
    },
  };
}

/** A wait that resolves once the projector has applied everything stored (the ledger's own entries too). */
function caughtUpOf(stores: Stores): () => Promise<void> {
  const waiting: Array<() => void> = [];
  stores.ledger.projector!.onBatch((_batch: ProjectedBatch) => waiting.splice(0).forEach((resolve) => resolve()));
  return async () => {
    for (;;) {
      const { applied, stored } = await stores.ledger.position();
      if (applied.inboxSeq >= stored.inboxSeq && applied.inputSeq >= stored.inputSeq && applied.conflictId >= stored.conflictId && applied.rejectionId >= stored.rejectionId) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        waiting.push(() => (clearTimeout(timer), resolve()));
      });
    }
  };
}

/** `entries` through the store's own receive path, `inFlight` at a time, in order. */
export async function recordAll<T>(record: (entry: T) => Promise<unknown>, entries: readonly T[], inFlight = 16): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < entries.length) await record(entries[next++]!);
  }));
}
