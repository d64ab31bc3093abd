import type { ExpectationInput } from '../ledger/expectation-fact';
import type { OrderKey } from '../ledger/ledger-facts';
import { DEFAULT_LEDGER_SETTINGS, type LedgerSettings } from '../ledger/ledger-settings';
import type { OrderRecord, OrderStatus } from '../ledger/order-record';
import { typedDriver, type StoreDriver } from './driver';
import type { DiscrepancyCursor, DiscrepancyPage, OpenDiscrepancyCount } from './procedures/list-discrepancies';
import type { OrderListFilter, OrderPage } from './procedures/list-orders';
import type { PutExpectationResult } from './procedures/put-expectation';
import type { RebuildPage } from './procedures/rebuild-ledger';
import type { BackfillPage } from './procedures/backfill-ledger';
import type { Resolution, ResolveResult } from './procedures/resolve-discrepancy';

export type { ListedDiscrepancy, DiscrepancyCursor, DiscrepancyPage, OpenDiscrepancyCount } from './procedures/list-discrepancies';
export type { OrderListFilter, OrderPage } from './procedures/list-orders';
export type { PutExpectationResult } from './procedures/put-expectation';
export type { RebuildPage } from './procedures/rebuild-ledger';
export type { BackfillPage } from './procedures/backfill-ledger';
export type { Resolution, ResolveResult } from './procedures/resolve-discrepancy';

/** The payment ledger's verbs over either database, with the settings every computation reads. */
export interface LedgerStore {
  readonly settings: LedgerSettings;
  putExpectation(order: OrderKey, input: ExpectationInput, at: string): Promise<PutExpectationResult>;
  getOrder(order: OrderKey): Promise<OrderRecord | null>;
  findOrders(shopOrderNo: string, limit?: number): Promise<OrderRecord[]>;
  /** Records as their orders were first seen (or newest first); `after` is a page's `last`. */
  listOrders(filter: OrderListFilter): Promise<OrderPage>;
  /** Orders per status, last changed in the range when one is given. */
  orderStatusCounts(filter?: Pick<OrderListFilter, 'from' | 'to'>): Promise<Partial<Record<OrderStatus, number>>>;
  listDiscrepancies(filter: { open: boolean; resolved?: boolean; after?: DiscrepancyCursor; limit: number }): Promise<DiscrepancyPage>;
  openDiscrepancyCounts(): Promise<Record<string, number>>;
  /** The same per kind, told apart by real or simulated order: what the metric exports. */
  openDiscrepancyCountsByOrigin(): Promise<OpenDiscrepancyCount[]>;
  resolveDiscrepancy(id: string, resolution: Resolution): Promise<ResolveResult>;
  /** Recomputes the orders whose grace period has passed; answers how many records changed. */
  sweep(now: string, limit?: number): Promise<number>;
  rebuildPage(after: number | null, limit: number, now: string): Promise<RebuildPage>;
  /** Whether notifications stored before the ledger existed still lack their facts (a backfill is due). */
  backfillNeeded(): Promise<boolean>;
  /** Facts for notifications stored before the ledger existed; `after` is a page's `next` (an inbox seq). */
  backfillPage(after: number | null, limit: number, now: string): Promise<BackfillPage>;
}

export const SWEEP_BATCH = 100;

export function createLedgerStore(driver: StoreDriver, settings: LedgerSettings = DEFAULT_LEDGER_SETTINGS): LedgerStore {
  const { write, read } = typedDriver(driver);
  return {
    settings,
    putExpectation: (order, input, at) => write('putExpectation', order, input, at, settings),
    getOrder: (order) => read('getOrder', order),
    findOrders: (shopOrderNo, limit = 20) => read('findOrders', shopOrderNo, limit),
    listOrders: (filter) => read('listOrders', filter),
    orderStatusCounts: (filter = {}) => read('orderStatusCounts', filter),
    listDiscrepancies: (filter) => read('listDiscrepancies', filter),
    openDiscrepancyCounts: () => read('openDiscrepancyCounts'),
    openDiscrepancyCountsByOrigin: () => read('openDiscrepancyCountsByOrigin'),
    resolveDiscrepancy: (id, resolution) => write('resolveDiscrepancy', id, resolution, settings),
    sweep: (now, limit = SWEEP_BATCH) => write('sweepLedger', now, limit, settings),
    rebuildPage: (after, limit, now) => write('rebuildLedger', after, limit, now, settings),
    backfillNeeded: () => read('ledgerBackfillNeeded'),
    backfillPage: (after, limit, now) => write('backfillLedger', after, limit, now, settings),
  };
}
