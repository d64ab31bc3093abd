import { typedDriver, type StoreDriver } from '../../store/driver';
import type { OrderKey } from '../../ledger/fold/ledger-facts';
import type { StoredImport } from '../sql/import-lookups';
import type { ReconciliationDay } from '../sql/reconciliation-day';
import type { ImportPage } from '../sql/store-import';

export type { StoredImport } from '../sql/import-lookups';
export type { ReconciliationDay, Tally } from '../sql/reconciliation-day';

/** The reconciliation's store verbs over either database (see src/reconciliation/sql). */
export interface ReconciliationStore {
  findImport(id: string): Promise<StoredImport | null>;
  listImports(filter: { day: string | null; mallId: string | null; limit: number }): Promise<StoredImport[]>;
  ordersOfPgCnos(mallId: string, pgCnos: readonly string[]): Promise<Array<[string, string]>>;
  ordersOnDays(mallId: string, firstDay: string, lastDay: string): Promise<OrderKey[]>;
  storeImportPage(page: ImportPage): Promise<void>;
  finishImport(stored: StoredImport, actor: string): Promise<{ stored: StoredImport; created: boolean }>;
  /** The day's figures per mall (see `ReconciliationDay`). */
  reconciliationDay(day: string, mallId: string | null, limit?: number): Promise<ReconciliationDay[]>;
}

export function createReconciliationStore(driver: StoreDriver): ReconciliationStore {
  const { read, write } = typedDriver(driver);
  return {
    findImport: (id) => read('findImport', id),
    listImports: (filter) => read('listImports', filter),
    ordersOfPgCnos: (mallId, pgCnos) => read('ordersOfPgCnos', mallId, pgCnos),
    ordersOnDays: (mallId, firstDay, lastDay) => read('ordersOnDays', mallId, firstDay, lastDay),
    storeImportPage: (page) => write('storeImportPage', page),
    finishImport: (stored, actor) => write('finishImport', stored, actor),
    reconciliationDay: (day, mallId, limit = 100) => read('reconciliationDay', day, mallId, limit),
  };
}
