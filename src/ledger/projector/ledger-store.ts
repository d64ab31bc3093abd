import type { ExpectationInput } from '../fold/expectation-fact';
import type { GatewayFileFact, OrderKey } from '../fold/ledger-facts';
import { DEFAULT_LEDGER_SETTINGS, type LedgerSettings } from '../../config/ledger-settings';
import type { OrderRecord, OrderStatus } from '../fold/order-record';
import { typedDriver, type StoreDriver } from '../../store/driver';
import type { DiscrepancyCursor, DiscrepancyPage, OpenDiscrepancyCount } from '../sql/list-discrepancies';
import type { OrderListFilter, OrderPage } from '../sql/list-orders';
import type { PaymentHit, PaymentSearch } from '../sql/search-payments';
import { PROJECTOR_BATCH, startLedgerProjector, type LedgerProjector, type LedgerProjectorOptions } from './ledger-projector';
import { LedgerCatchingUp } from './ledger-catching-up';
import { waitForLedger } from './read-your-writes';
import { projectOffWriter, TARGET_WRITE_MS } from './project-off-writer';
import { pacedPages } from './paced-pages';
import type { LedgerLag, LedgerPosition } from '../sql/ledger-position';
import type { ProjectedBatch } from '../sql/project-ledger';
import type { ExpectationConflict } from '../fold/expectation-conflict';
import type { RebuildPage } from '../sql/rebuild-ledger';
import type { BackfillPage } from '../sql/backfill-ledger';
import type { Resolution } from '../sql/resolve-discrepancy';
import type { Tracing } from '../../tracing/tracing';
import type { SummaryDay } from '../summary/summary-days';
import type { SummaryRange } from '../sql/summary/daily-summary';
import type { CloseDayResult, ClosedDay, DayCloseActor, ReopenDayResult } from '../sql/summary/close-day';
import type { SettlementRow } from '../../reconciliation/file/gateway-rows';
import type { DayOrderLine } from '../summary/day-close';
import type { PayoutDifference } from '../../reconciliation/matching/payout-differences';

export type { ListedDiscrepancy, DiscrepancyCursor, DiscrepancyPage, OpenDiscrepancyCount } from '../sql/list-discrepancies';
export type { OrderListFilter, OrderPage } from '../sql/list-orders';
export type { PaymentHit, PaymentSearch, SearchMatch } from '../sql/search-payments';
export type { RebuildPage } from '../sql/rebuild-ledger';
export type { BackfillPage } from '../sql/backfill-ledger';
export type { Resolution } from '../sql/resolve-discrepancy';
export type { LedgerLag } from '../sql/ledger-position';
export type { SummaryRange } from '../sql/summary/daily-summary';
export type { CloseDayResult, ClosedDay, DayCloseActor, ReopenDayResult } from '../sql/summary/close-day';

export type PutExpectationResult = { outcome: 'stored'; record: OrderRecord } | { outcome: 'conflict'; conflict: ExpectationConflict };
export type ResolveResult =
  | { outcome: 'resolved'; record: OrderRecord }
  | { outcome: 'already_resolved'; record: OrderRecord }
  | { outcome: 'not_found' };

/**
 * The payment ledger's verbs over either database, with the settings every computation
 * reads. The records are written by the ledger's projector behind the acks: a read of an order
 * first waits until the projector has applied every input stored before it (at most 2 s, else
 * LedgerCatchingUp, a 503), and a PUT or a resolution answers the record that includes it.
 */
export interface LedgerStore {
  readonly settings: LedgerSettings;
  putExpectation(order: OrderKey, input: ExpectationInput, at: string): Promise<PutExpectationResult>;
  getOrder(order: OrderKey): Promise<OrderRecord | null>;
  /** What the gateway's imported transaction lists and settlement statements said of the order, the latest first. */
  gatewayListings(order: OrderKey): Promise<GatewayFileFact[]>;
  findOrders(shopOrderNo: string, limit?: number): Promise<OrderRecord[]>;
  /** The console's search: orders by number, pgCno, approval number or amount, with filters. */
  searchPayments(search: PaymentSearch): Promise<PaymentHit[]>;
  /** Records as their orders were first seen (or newest first); `after` is a page's `last`. */
  listOrders(filter: OrderListFilter): Promise<OrderPage>;
  /** Orders per status, last changed in the range when one is given. */
  orderStatusCounts(filter?: Pick<OrderListFilter, 'from' | 'to'>): Promise<Partial<Record<OrderStatus, number>>>;
  listDiscrepancies(filter: { open: boolean; resolved?: boolean; after?: DiscrepancyCursor; limit: number }): Promise<DiscrepancyPage>;
  openDiscrepancyCounts(): Promise<Record<string, number>>;
  /** The same per kind, told apart by real or simulated order: what the metric exports. */
  openDiscrepancyCountsByOrigin(): Promise<OpenDiscrepancyCount[]>;
  /** Orders whose inputs the ledger could not apply (status `ledger_error`). */
  ledgerErrorCount(): Promise<number>;
  resolveDiscrepancy(id: string, resolution: Resolution): Promise<ResolveResult>;
  /** The day's money per KST day, mall and currency (orders without an expectation in `defaultCurrency`). */
  dailySummary(range: SummaryRange, defaultCurrency: string): Promise<SummaryDay[]>;
  /** The records of the orders with an event (or a discrepancy opened or resolved) on a KST day. */
  dayOrders(day: string, mallId: string | null, limit: number): Promise<OrderRecord[]>;
  /**
   * Closes a KST day of one mall or (null) of every mall, once every input stored before the call is
   * applied: its figures are kept as they stand, audited. The caller checked the day is over (`closeDayIssue`).
   */
  closeDay(day: string, mallId: string | null, who: DayCloseActor, defaultCurrency: string): Promise<CloseDayResult>;
  /** Reopens a closed day (the close's own mall, or null for a close of every mall), audited. */
  reopenDay(day: string, mallId: string | null, who: DayCloseActor): Promise<ReopenDayResult>;
  /** The closes of a range of days: those of `mallId` and of every mall, or all. */
  dayCloses(from: string, to: string, mallId: string | null): Promise<ClosedDay[]>;
  /** The day page's list of orders as the close covering it kept it; null when the day is open for that page. */
  closedDayOrders(day: string, mallId: string | null): Promise<DayOrderLine[] | null>;
  /** Stores one import's settlement statement rows for a mall; the same import again replaces its rows. */
  putSettlementRows(importId: string, mallId: string, rows: readonly SettlementRow[]): Promise<{ rows: number }>;
  /** The payouts of a range of payout days (checked by the caller) whose rows do not add up. */
  payoutDifferences(from: string, to: string, mallId: string | null): Promise<PayoutDifference[]>;
  /** Recomputes the orders whose grace period has passed; answers how many records changed. */
  sweep(now: string, limit?: number): Promise<number>;
  /**
   * `paced`: beside a serving receiver, pages sized by their transaction's time (at most `limit`
   * orders) and each followed by a pause as long (paced-pages.ts).
   */
  rebuildPage(after: number | null, limit: number, now: string, options?: { paced?: boolean }): Promise<RebuildPage>;
  /** Whether notifications stored before the ledger existed still lack their facts (a backfill is due). */
  backfillNeeded(): Promise<boolean>;
  /** Facts for notifications stored before the ledger existed; `after` is a page's `next` (an inbox seq). */
  backfillPage(after: number | null, limit: number, now: string): Promise<BackfillPage>;
  /** How far the projector is behind the store. */
  lag(now?: Date): Promise<LedgerLag>;
  position(): Promise<LedgerPosition>;
  /** Resolves once every input stored before the call is applied; LedgerCatchingUp after `waitMs`. */
  caughtUp(waitMs?: number): Promise<void>;
  /** This process's projector, when it runs one (the service, the CLI); null for a store opened without. */
  readonly projector: LedgerProjector | null;
  /** Stops the projector after its batch in flight (before the driver closes). */
  stop(): Promise<void>;
}

export const SWEEP_BATCH = 100;
/**
 * The most rows of each kind one batch reads. PostgreSQL's are larger: each costs a few round
 * trips whatever its size. Within it, the projector sizes batches by their write's time
 * (project-off-writer.ts).
 */
const POSTGRES_BATCH = 1000;

export interface LedgerStoreOptions {
  /** Run this process's projector (default true); tests below the service may drive `projectOnce` instead. */
  projector?: boolean | Partial<Pick<LedgerProjectorOptions, 'batch' | 'pollMs'>>;
  /** How long a read waits for the projector (default 2 s). */
  readWaitMs?: number;
  /** Tracing on: each projector batch is a span linked to the notifications it applied. */
  tracing?: Tracing | null;
}

export function createLedgerStore(driver: StoreDriver, settings: LedgerSettings = DEFAULT_LEDGER_SETTINGS, options: LedgerStoreOptions = {}): LedgerStore {
  const { write, read, ledgerWrite } = typedDriver(driver);
  const traced = options.tracing != null;
  const projector = options.projector === false ? null : startLedgerProjector({
    // Only with tracing on does a batch read the notifications' stored trace contexts.
    project: projectOffWriter(driver, settings, traced),
    tracing: options.tracing ?? null,
    holdsLock: () => driver.holdsProjectorLock(),
    onNewEvents: (listener) => driver.onNewEvents(listener),
    batch: driver.kind === 'postgres' ? POSTGRES_BATCH : PROJECTOR_BATCH,
    ...(typeof options.projector === 'object' ? options.projector : {}),
  });
  // A waiting read looks again as soon as a local batch commits.
  let nextBatch: { promise: Promise<void>; resolve: () => void } | null = null;
  projector?.onBatch((_batch: ProjectedBatch) => {
    nextBatch?.resolve();
    nextBatch = null;
  });
  const committed = () => {
    if (!nextBatch) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      nextBatch = { promise, resolve };
    }
    return nextBatch.promise;
  };
  const caughtUp = (waitMs = options.readWaitMs) => waitForLedger(() => read('ledgerPosition'), committed, { waitMs });
  // A list waits as a read of an order does, but shows what is there rather than fail: it names no
  // order the caller just wrote, and an operator looking at it during a lag is better served by it.
  const settled = () => caughtUp().catch((error: unknown) => {
    if (!(error instanceof LedgerCatchingUp)) throw error;
  });
  const order = async (key: OrderKey) => (await read('getOrder', key))!;
  const rebuildPages = pacedPages(TARGET_WRITE_MS[driver.kind]);

  return {
    settings,
    async putExpectation(key, input, at) {
      // The 409 is judged on every input stored so far (the procedure reads those not applied yet too).
      const stored = await write('putExpectation', key, input, at);
      if (stored.outcome === 'conflict') return stored;
      await caughtUp();
      return { outcome: 'stored', record: await order(key) };
    },
    async getOrder(key) {
      await caughtUp();
      return read('getOrder', key);
    },
    gatewayListings: (key) => read('gatewayListings', key),
    async findOrders(shopOrderNo, limit = 20) {
      await caughtUp();
      return read('findOrders', shopOrderNo, limit);
    },
    async searchPayments(search) {
      await settled();
      return read('searchPayments', search);
    },
    async listOrders(filter) {
      await settled();
      return read('listOrders', filter);
    },
    async orderStatusCounts(filter = {}) {
      await settled();
      return read('orderStatusCounts', filter);
    },
    async listDiscrepancies(filter) {
      await settled();
      return read('listDiscrepancies', filter);
    },
    async dailySummary(range, defaultCurrency) {
      await settled();
      return read('dailySummary', range, defaultCurrency);
    },
    async dayOrders(day, mallId, limit) {
      await settled();
      return read('dayOrders', day, mallId, limit);
    },
    async closeDay(day, mallId, who, defaultCurrency) {
      // Every input stored before the operator pressed the button is in the figures the close keeps;
      // one applied after it is the close's adjustment (the ledger's lock orders the two).
      await caughtUp();
      return ledgerWrite('closeSummaryDay', day, mallId, who, defaultCurrency);
    },
    reopenDay: (day, mallId, who) => ledgerWrite('reopenSummaryDay', day, mallId, who),
    dayCloses: (from, to, mallId) => read('dayCloses', from, to, mallId),
    closedDayOrders: (day, mallId) => read('closedDayOrders', day, mallId),
    putSettlementRows: (importId, mallId, rows) => write('putSettlementRows', importId, mallId, rows),
    payoutDifferences: (from, to, mallId) => read('payoutDifferences', from, to, mallId),
    openDiscrepancyCounts: () => read('openDiscrepancyCounts'),
    openDiscrepancyCountsByOrigin: () => read('openDiscrepancyCountsByOrigin'),
    ledgerErrorCount: () => read('countOrdersWithStatus', 'ledger_error'),
    async resolveDiscrepancy(id, resolution) {
      // The discrepancy may have been opened by an input not applied yet: the lookup waits for it.
      await caughtUp();
      const stored = await write('resolveDiscrepancy', id, resolution);
      if (stored.outcome === 'not_found') return stored;
      await caughtUp();
      return { outcome: stored.outcome, record: await order(stored.order) };
    },
    sweep: (now, limit = SWEEP_BATCH) => ledgerWrite('sweepLedger', now, limit, settings),
    rebuildPage: (after, limit, now, options = {}) => options.paced
      // The page's size is the pacer's, at most `limit`: `next` tells the caller where to go on.
      ? rebuildPages(limit, (size) => ledgerWrite('rebuildLedger', after, size, now, settings), (page) => page.next !== null)
      : ledgerWrite('rebuildLedger', after, limit, now, settings),
    backfillNeeded: () => read('ledgerBackfillNeeded'),
    backfillPage: (after, limit, now) => ledgerWrite('backfillLedger', after, limit, now, settings),
    lag: (now = new Date()) => read('ledgerLag', now.getTime()),
    position: () => read('ledgerPosition'),
    caughtUp,
    projector,
    stop: async () => projector?.stop(),
  };
}
