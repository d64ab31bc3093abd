/**
 * The payment ledger's tables: expectations, resolutions, the projector's batches, sweeps,
 * rebuilds and the reads of orders and discrepancies. One line per verb: under `ledgerWrites` or
 * `ledgerReads` (see ../index.ts).
 */
import { backfillLedger } from './backfill-ledger';
import { gatewayListings } from './gateway-listings';
import { findOrders, getOrder } from './get-order';
import { ledgerBackfillNeeded } from './ledger-backfill-needed';
import { ledgerLag, ledgerPosition } from './ledger-position';
import { listDiscrepancies, openDiscrepancyCounts, openDiscrepancyCountsByOrigin } from './list-discrepancies';
import { countOrdersWithStatus, listOrders, orderStatusCounts } from './list-orders';
import { applyLedgerBatch, computeLedgerBatch, projectLedger } from './project-ledger';
import { putExpectation } from './put-expectation';
import { rebuildLedger } from './rebuild-ledger';
import { resolveDiscrepancy } from './resolve-discrepancy';
import { searchPayments } from './search-payments';
import { sweepLedger } from './sweep-ledger';

export const ledgerWrites = {
  putExpectation,
  resolveDiscrepancy,
  // the ledger's own transactions (driver.ledgerWrite): the projector's batches and what recomputes records
  projectLedger,
  applyLedgerBatch,
  sweepLedger,
  rebuildLedger,
  backfillLedger,
} as const;

export const ledgerReads = {
  // the projector's read and fold, on a connection of its own (driver.ledgerRead)
  computeLedgerBatch,
  getOrder,
  findOrders,
  gatewayListings,
  listOrders,
  orderStatusCounts,
  listDiscrepancies,
  openDiscrepancyCounts,
  openDiscrepancyCountsByOrigin,
  ledgerBackfillNeeded,
  ledgerPosition,
  ledgerLag,
  countOrdersWithStatus,
  searchPayments,
} as const;
