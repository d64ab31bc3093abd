import { typedDriver, type StoreDriver } from '../../store/driver';
import { TARGET_WRITE_MS } from '../../ledger/projector/project-off-writer';
import type { OrderKey } from '../../ledger/fold/ledger-facts';
import type { StoredImport } from '../sql/import-lookups';
import type { ReconciliationDay } from '../sql/reconciliation-day';
import type { SavedMapping, StagedUpload } from '../sql/staged-uploads';
import type { ImportPage } from '../sql/store-import';

export type { StoredImport } from '../sql/import-lookups';
export type { ReconciliationDay, Tally } from '../sql/reconciliation-day';
export type { SavedMapping, StagedUpload } from '../sql/staged-uploads';

/** The reconciliation's store verbs over either database (see src/reconciliation/sql). */
export interface ReconciliationStore {
  findImport(id: string): Promise<StoredImport | null>;
  /** The import's own rows: how many are payments and how many cancels. */
  importRowCounts(stored: Pick<StoredImport, 'id' | 'kind'>): Promise<{ payments: number; cancels: number }>;
  listImports(filter: { day: string | null; mallId: string | null; limit: number }): Promise<StoredImport[]>;
  ordersOfPgCnos(mallId: string, pgCnos: readonly string[]): Promise<Array<[string, string]>>;
  ordersOnDays(mallId: string, firstDay: string, lastDay: string): Promise<OrderKey[]>;
  storeImportPage(page: ImportPage): Promise<void>;
  /** How long one page's write should take: as long as one of the projector's batches may hold the store. */
  readonly pageWriteMs: number;
  /** `listsCancels`: a transaction list's rows placed in orders include a cancel (the flag of its listing facts). */
  finishImport(stored: StoredImport, actor: string, listsCancels?: boolean): Promise<{ stored: StoredImport; created: boolean }>;
  /** The day's figures per mall (see `ReconciliationDay`). */
  reconciliationDay(day: string, mallId: string | null, limit?: number): Promise<ReconciliationDay[]>;
  /** Keeps a console upload for its confirmation; answers how many older ones it pruned. */
  stageUpload(upload: StagedUpload): Promise<number>;
  /** A staged upload younger than an hour at `now`, from whichever replica received it. */
  findUpload(id: string, now: string): Promise<StagedUpload | null>;
  dropUpload(id: string): Promise<void>;
  /** Deletes the staged uploads older than an hour at `now`; answers how many. */
  pruneUploads(now: string): Promise<number>;
  /** Saves a mall's column mapping for a kind of list, audited under `actor`. */
  saveMapping(saved: SavedMapping, actor: string): Promise<void>;
  mappingsOf(mallId: string): Promise<SavedMapping[]>;
}

export function createReconciliationStore(driver: StoreDriver): ReconciliationStore {
  const { read, write, ledgerWrite } = typedDriver(driver);
  return {
    findImport: (id) => read('findImport', id),
    importRowCounts: (stored) => read('importRowCounts', { id: stored.id, kind: stored.kind }),
    listImports: (filter) => read('listImports', filter),
    ordersOfPgCnos: (mallId, pgCnos) => read('ordersOfPgCnos', mallId, pgCnos),
    ordersOnDays: (mallId, firstDay, lastDay) => read('ordersOnDays', mallId, firstDay, lastDay),
    // A page is a long write of the ledger's inputs: never in the acks' transaction.
    storeImportPage: (page) => ledgerWrite('storeImportPage', page),
    pageWriteMs: TARGET_WRITE_MS[driver.kind],
    finishImport: (stored, actor, listsCancels = false) => write('finishImport', stored, actor, listsCancels),
    reconciliationDay: (day, mallId, limit = 100) => read('reconciliationDay', day, mallId, limit),
    stageUpload: (upload) => write('stageUpload', upload),
    // A Buffer crosses SQLite's reader thread as a plain Uint8Array.
    findUpload: async (id, now) => {
      const found = await read('findUpload', id, now);
      return found === null ? null : { ...found, bytes: Buffer.from(found.bytes.buffer, found.bytes.byteOffset, found.bytes.byteLength) };
    },
    dropUpload: (id) => write('dropUpload', id),
    pruneUploads: (now) => write('pruneUploads', now),
    saveMapping: (saved, actor) => write('saveMapping', saved, actor),
    mappingsOf: (mallId) => read('mappingsOf', mallId),
  };
}
