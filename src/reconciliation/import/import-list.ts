import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { LedgerStore } from '../../ledger/projector/ledger-store';
import { LedgerCatchingUp } from '../../ledger/projector/ledger-catching-up';
import type { DiscrepancyKind } from '../../ledger/fold/order-record';
import { daysBetween } from '../../ledger/summary/kst-day';
import type { FileProblem, GatewayTransactionRow, ReadResult, SettlementRow } from '../file/gateway-rows';
import { importIdOf, listingFacts, listsCancels, type PlacedRow } from '../matching/listing-facts';
import { settlementFacts } from '../matching/settlement-facts';
import { orderKeyText } from '../../ledger/fold/order-key';
import type { GatewayFileFact, OrderKey } from '../../ledger/fold/ledger-facts';
import type { ReconciliationStore, StoredImport } from './reconciliation-store';
import type { ImportPage } from '../sql/store-import';
import { BatchSizer } from '../../ledger/projector/batch-sizer';

/** Reads a file's bytes whole into rows, or refuses it with every reason (the reader of src/reconciliation/file). */
export type ListReader = (bytes: Buffer, fileName: string) => Promise<ReadResult<GatewayTransactionRow | SettlementRow>>;

/** The largest file an import reads (the portal's lists of a month of a busy mall are a few MB). */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;
/** The most days one list may cover: a month and a bit; the match of a day reads the orders of each. */
const MAX_IMPORT_DAYS = 62;
/**
 * The most rows a page of an import writes (and half as many facts): its write's time sizes it
 * below that, down to the fewest, whatever the time (a page's time counts its wait behind the
 * writes queued before it, which a smaller page does not shorten).
 */
const ROWS_PER_PAGE = 500;
const FEWEST_ROWS_PER_PAGE = 50;

export interface ImportRequest {
  bytes: Buffer;
  fileName: string;
  mallId: string;
  /** Who imports it, as the audit names them (`kim (cli)`, `batch (internal API)`). */
  actor: string;
  at: string;
  /** How long to wait for the ledger to match the rows before answering without the differences (default 30 s). */
  matchWaitMs?: number;
}

export interface ImportSummary {
  import: StoredImport;
  rows: { payments: number; cancels: number };
  /** Rows whose order is unknown (a list's or a statement's): the file names no order number and no notification named their pgCno. */
  unplaced: number;
  /** The differences open on the days covered once the ledger has matched them; null when it was still matching. */
  differences: Partial<Record<DiscrepancyKind, number>> | null;
}

export type ImportOutcome =
  | { outcome: 'imported'; summary: ImportSummary }
  /** The same file was imported for the mall before: nothing changed. */
  | { outcome: 'already_imported'; summary: ImportSummary }
  | { outcome: 'refused'; problems: FileProblem[] };

export interface ImportDeps {
  reconciliation: ReconciliationStore;
  ledger: LedgerStore;
  read: ListReader;
}

const refused = (code: string, message: string): ImportOutcome => ({ outcome: 'refused', problems: [{ code, line: null, column: null, message }] });

/**
 * Imports one of the gateway's transaction lists for a mall: the file is refused whole or read
 * whole; its rows are stored with the order each belongs to, and each order the list concerns gets
 * its `gateway_listing` fact, which the ledger's projector matches with the order's notifications
 * (the differences are the ledger's own discrepancies, so `ledger rebuild` reproduces them). The
 * import's row is written last: the same file again finds it and changes nothing. A settlement
 * statement is imported the same way (`importSettlement`).
 *
 * The orders a list concerns beyond its rows are read once the ledger has applied what was stored
 * before the import began. A notification the ledger applies once the import's row exists, for a
 * day the list covers, gains the import's fact from the projector itself. One accepted between
 * the two (after the orders were read, applied before the row was written) is found once the
 * import is stored: the ledger is waited for, the orders of the days read again, and those the
 * import gave no fact get theirs (the same ids as the projector's: one made twice is stored once).
 * A row the file names no order of, whose pgCno such a notification named, is placed then too.
 */
export async function importGatewayList(deps: ImportDeps, request: ImportRequest): Promise<ImportOutcome> {
  if (request.bytes.length > MAX_IMPORT_BYTES) return refused('too_large', `the file is ${request.bytes.length} bytes; at most ${MAX_IMPORT_BYTES} are read`);
  const sha256 = crypto.createHash('sha256').update(request.bytes).digest('hex');
  const id = importIdOf(sha256, request.mallId);
  const earlier = await deps.reconciliation.findImport(id);
  if (earlier !== null) return { outcome: 'already_imported', summary: await summaryOf(deps, earlier, null, 0) };

  const read = await deps.read(request.bytes, request.fileName);
  if (!read.ok) return { outcome: 'refused', problems: read.problems };
  if (read.rows.length === 0) return refused('no_rows', 'the file lists no transaction');
  if (daysBetween(read.firstDay, read.lastDay).length > MAX_IMPORT_DAYS) {
    return refused('too_many_days', `the file covers ${read.firstDay} to ${read.lastDay}; one import covers at most ${MAX_IMPORT_DAYS} days`);
  }
  if (read.kind === 'settlement') return importSettlement(deps, request, { ...read, rows: read.rows as SettlementRow[] }, sha256, id);

  await deps.ledger.caughtUp(request.matchWaitMs ?? 30_000);
  const rows = read.rows as GatewayTransactionRow[];
  const placed = await place(deps.reconciliation, request.mallId, rows);
  const others = await deps.reconciliation.ordersOnDays(request.mallId, read.firstDay, read.lastDay);
  const facts = listingFacts({ id, mallId: request.mallId, firstDay: read.firstDay, lastDay: read.lastDay, at: request.at }, placed.rows, others);
  const shopOrderNoOf = new Map(placed.rows.map((p) => [p.row, p.order.shopOrderNo]));
  await storeInPages(deps, id, request.mallId, rows.map((row) => ({ row, shopOrderNo: shopOrderNoOf.get(row) ?? null })), facts);
  const finished = await deps.reconciliation.finishImport({
    id, sha256, kind: read.kind, fileName: request.fileName, mallId: request.mallId, firstDay: read.firstDay, lastDay: read.lastDay,
    rowCount: read.rows.length, orderCount: facts.length, importedBy: request.actor, importedAt: request.at,
  }, request.actor, listsCancels(placed.rows));
  const unplaced = rows.filter((row) => !shopOrderNoOf.has(row));
  const placedLate = finished.created
    ? await listLateOrders(deps, { id, mallId: request.mallId, firstDay: read.firstDay, lastDay: read.lastDay, at: request.at }, placed.rows, facts, unplaced, request.matchWaitMs ?? 30_000)
    : 0;
  const summary = await summaryOf(deps, finished.stored, request.matchWaitMs ?? 30_000, placed.unplaced - placedLate);
  return { outcome: finished.created ? 'imported' : 'already_imported', summary };
}

/**
 * The orders notified on the list's days between the import's read of them and its row: once the
 * ledger has applied what was stored up to the row (or the wait ran out: whatever it applied by
 * then), each such order lacking a fact of the import is given the one the import gives an order it
 * does not list. Those the projector applied after the row hold it already, under the same id.
 * A row the import placed in no order whose pgCno such a notification named is placed now, and
 * its order's fact carries it (and its payment's other such rows), as the projector's would.
 * Answers how many rows it placed.
 */
async function listLateOrders(
  deps: ImportDeps, list: Parameters<typeof listingFacts>[0], placed: readonly PlacedRow[], given: ReadonlyArray<{ order: OrderKey }>,
  unplaced: readonly GatewayTransactionRow[], waitMs: number,
): Promise<number> {
  try {
    await deps.ledger.caughtUp(waitMs);
  } catch (error) {
    if (!(error instanceof LedgerCatchingUp)) throw error;
  }
  const had = new Set(given.map((f) => orderKeyText(f.order)));
  const found = unplaced.length === 0 ? [] : (await place(deps.reconciliation, list.mallId, unplaced)).rows;
  const withRows = listingFacts(list, found, [], listsCancels(placed));
  const named = new Set(withRows.map((f) => orderKeyText(f.order)));
  const late = (await deps.reconciliation.ordersOnDays(list.mallId, list.firstDay, list.lastDay)).filter((order) => !had.has(orderKeyText(order)) && !named.has(orderKeyText(order)));
  const facts = [...withRows, ...(late.length === 0 ? [] : listingFacts(list, placed, late).filter((f) => !had.has(orderKeyText(f.order)) && !named.has(orderKeyText(f.order))))];
  // Each row's order number is written with the fact that carries it.
  await storeInPages(deps, list.id, list.mallId, [], facts, found.map((p) => ({ order: p.order, line: p.row.line })));
  return found.length;
}

/**
 * A settlement statement: its rows replace whatever this import stored before (putSettlementRows)
 * and show in the day's money; each order its rows are placed in (as a list's) gets its
 * `gateway_settlement` fact, which the ledger matches with the order's notifications; then the
 * import's row is written, last, as for a list.
 */
async function importSettlement(
  deps: ImportDeps, request: ImportRequest, read: { rows: SettlementRow[]; firstDay: string; lastDay: string }, sha256: string, id: string,
): Promise<ImportOutcome> {
  await deps.ledger.caughtUp(request.matchWaitMs ?? 30_000);
  // By the notification of its pgCno alone: a row of a transaction never notified here opens no
  // difference (the transaction list finds those), so the order number the file gives it would
  // only make the ledger an order with nothing in it. Such a row is counted unplaced.
  const placed = await place(deps.reconciliation, request.mallId, read.rows, 'notified');
  const facts = settlementFacts({ id, at: request.at }, placed.rows);
  await deps.ledger.putSettlementRows(id, request.mallId, read.rows);
  await storeInPages(deps, id, request.mallId, [], facts);
  const finished = await deps.reconciliation.finishImport({
    id, sha256, kind: 'settlement', fileName: request.fileName, mallId: request.mallId, firstDay: read.firstDay, lastDay: read.lastDay,
    rowCount: read.rows.length, orderCount: facts.length, importedBy: request.actor, importedAt: request.at,
  }, request.actor);
  const summary = await summaryOf(deps, finished.stored, request.matchWaitMs ?? 30_000, placed.unplaced);
  return { outcome: finished.created ? 'imported' : 'already_imported', summary };
}

/**
 * An import's rows and facts in pages, each one write transaction of the ledger's (never in the
 * acks' transaction, and the acks that arrive meanwhile commit before the next page), sized by
 * their write's time as the projector's batches are (BatchSizer), so a month's list never holds
 * the store for long. A page holds up to `limit` rows and half as many facts; `placed` rows
 * (stored before in no order) get their order's number in the page of the fact that carries them.
 */
async function storeInPages(
  deps: ImportDeps, importId: string, mallId: string, rows: ImportPage['rows'], facts: ReadonlyArray<{ order: OrderKey; fact: GatewayFileFact }>,
  placed: ReadonlyArray<{ order: OrderKey; line: number }> = [],
): Promise<void> {
  const sizer = new BatchSizer(ROWS_PER_PAGE, deps.reconciliation.pageWriteMs, FEWEST_ROWS_PER_PAGE);
  const linesOf = new Map<string, Array<{ line: number; shopOrderNo: string }>>();
  for (const p of placed) {
    const key = orderKeyText(p.order);
    const lines = linesOf.get(key) ?? [];
    lines.push({ line: p.line, shopOrderNo: p.order.shopOrderNo });
    linesOf.set(key, lines);
  }
  let r = 0;
  let f = 0;
  while (r < rows.length || f < facts.length) {
    const pageRows = rows.slice(r, r + sizer.limit);
    const pageFacts = facts.slice(f, f + Math.ceil(sizer.limit / 2));
    r += pageRows.length;
    f += pageFacts.length;
    const lines = [...new Set(pageFacts.map((fact) => orderKeyText(fact.order)))].flatMap((key) => linesOf.get(key) ?? []);
    const started = performance.now();
    await deps.reconciliation.storeImportPage({ importId, mallId, rows: pageRows, facts: pageFacts, ...(lines.length > 0 ? { placed: lines } : {}) });
    sizer.wrote(performance.now() - started, r < rows.length || f < facts.length);
  }
}

/**
 * Each row in its order: the file's order number, else the order its pgCno was notified for;
 * `notified`: the order its pgCno was notified for only, whatever the file names.
 */
async function place<R extends { shopOrderNo: string | null; pgCno: string }>(
  store: ReconciliationStore, mallId: string, rows: readonly R[], by: 'named' | 'notified' = 'named',
): Promise<{ rows: Array<{ order: OrderKey; row: R }>; unplaced: number }> {
  const named = (row: R) => (by === 'named' ? row.shopOrderNo : null);
  const unnamed = rows.filter((r) => named(r) === null).map((r) => r.pgCno);
  const known = new Map(unnamed.length > 0 ? await store.ordersOfPgCnos(mallId, unnamed) : []);
  const placed: Array<{ order: OrderKey; row: R }> = [];
  for (const row of rows) {
    const shopOrderNo = named(row) ?? known.get(row.pgCno) ?? null;
    if (shopOrderNo !== null) placed.push({ order: { mallId, shopOrderNo }, row });
  }
  return { rows: placed, unplaced: rows.length - placed.length };
}

/** The import's counts and, once the ledger has matched it (or `waitMs` is null: no wait), the differences open on its days. */
async function summaryOf(deps: ImportDeps, stored: StoredImport, waitMs: number | null, unplaced: number): Promise<ImportSummary> {
  let matchedNow = true;
  if (waitMs !== null) {
    try {
      await deps.ledger.caughtUp(waitMs);
    } catch (error) {
      if (!(error instanceof LedgerCatchingUp)) throw error;
      matchedNow = false;
    }
  }
  const differences: Partial<Record<DiscrepancyKind, number>> = {};
  for (const day of daysBetween(stored.firstDay, stored.lastDay)) {
    for (const figures of await deps.reconciliation.reconciliationDay(day, stored.mallId, 0)) {
      for (const [kind, n] of Object.entries(figures.differences.open)) differences[kind as DiscrepancyKind] = (differences[kind as DiscrepancyKind] ?? 0) + n;
    }
  }
  return { import: stored, rows: await deps.reconciliation.importRowCounts(stored), unplaced, differences: matchedNow ? differences : null };
}
