/**
 * The reconciliation's tables (migration 032): the imports of the gateway's lists and their rows.
 * One line per verb, under `reconciliationWrites` or `reconciliationReads` (see
 * src/store/procedures/index.ts). What an import tells the ledger goes in as its inputs
 * (`gateway_listing` facts); the differences are the ledger's discrepancies.
 *
 * `reconciliationDay(day, mallId | null, limit)` answers, per mall, the day's figures the console's
 * reconciliation page shows (`ReconciliationDay` in reconciliation-day.ts): the files covering the
 * day and which one counts, its rows counted and summed, what of them matched, and the
 * differences by kind with the first `limit` of them.
 */
import { findImport, listImports, ordersOfPgCnos, ordersOnDays } from './import-lookups';
import { reconciliationDay } from './reconciliation-day';
import { dropUpload, findUpload, mappingsOf, pruneUploads, saveMapping, stageUpload } from './staged-uploads';
import { finishImport, storeImportPage } from './store-import';

export const reconciliationWrites = {
  storeImportPage,
  finishImport,
  // the console's uploads and the mappings kept per mall (migration 034)
  stageUpload,
  pruneUploads,
  dropUpload,
  saveMapping,
} as const;

export const reconciliationReads = {
  findImport,
  listImports,
  ordersOfPgCnos,
  ordersOnDays,
  reconciliationDay,
  findUpload,
  mappingsOf,
} as const;
