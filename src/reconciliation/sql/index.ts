/**
 * The reconciliation's tables: the imports of the gateway's lists and their rows (migration 032),
 * the settlement statement's rows (033), the console's staged uploads and the mappings kept per
 * mall (034). One line per verb, under `reconciliationWrites` or `reconciliationReads` (see
 * src/store/procedures/index.ts). What an import of the transaction list or of the settlement
 * statement tells the ledger goes in as its inputs (`gateway_listing` and `gateway_settlement`
 * facts); the differences are the ledger's discrepancies.
 *
 * `reconciliationDay(day, mallId | null, limit)` answers, per mall, the day's figures the console's
 * reconciliation page shows (`ReconciliationDay` in reconciliation-day.ts): the files covering the
 * day and which one counts, its rows counted and summed, what of them matched, and the
 * differences by kind with the first `limit` of them. `payoutDifferences` lists the payouts whose
 * statement rows do not add up.
 */
import { findImport, importRowCounts, listImports, ordersOfPgCnos, ordersOnDays } from './import-lookups';
import { payoutDifferences } from './payout-differences';
import { putSettlementRows } from './put-settlement-rows';
import { reconciliationDay } from './reconciliation-day';
import { dropUpload, findUpload, mappingsOf, pruneUploads, saveMapping, stageUpload } from './staged-uploads';
import { finishImport, storeImportPage } from './store-import';

export const reconciliationWrites = {
  storeImportPage,
  finishImport,
  putSettlementRows,
  // the console's uploads and the mappings kept per mall
  stageUpload,
  pruneUploads,
  dropUpload,
  saveMapping,
} as const;

export const reconciliationReads = {
  findImport,
  importRowCounts,
  listImports,
  ordersOfPgCnos,
  ordersOnDays,
  reconciliationDay,
  payoutDifferences,
  findUpload,
  mappingsOf,
} as const;
