import { DEFAULT_LEDGER_SETTINGS } from '../../../src/config/ledger-settings';
import { emptyCheckpoint } from '../../../src/ledger/fold/discrepancy-lifecycle';
import type { OrderKey } from '../../../src/ledger/fold/ledger-facts';
import { orderKeyText } from '../../../src/ledger/fold/order-key';
import { FoldCache } from '../../../src/ledger/projection/fold-cache';
import type { LoadedOrder } from '../../../src/ledger/projection/loaded-order';
import { loadedOrders, loadGoingOn, loadOrders } from '../../../src/ledger/sql/ledger-orders';
import { inboxRow } from '../../../src/store/procedures/inbox-outbox/inbox-row';
import { writes } from '../../../src/store/procedures';
import { dialect, oneTrip, type Procedure } from '../../../src/store/procedures/procedure';
import { cancelled, MALL, minute, paid } from '../../store/ledger-entries';
import { describePostgres } from '../../store/pg-test-database';
import { postgresRunner, sqliteRunner, type ProcedureRunner } from '../../store/procedure-runners';

const SETTINGS = DEFAULT_LEDGER_SETTINGS;
const STORED: OrderKey = { mallId: MALL, shopOrderNo: 'ORD-READ' };
const NEW: OrderKey = { mallId: MALL, shopOrderNo: 'ORD-READ-NEW' };

/** The procedure as it runs, with the statements of each of its round trips kept in `trips`. */
function* recorded<T>(procedure: Procedure<T>, trips: string[][]): Procedure<T> {
  let step = procedure.next();
  while (!step.done) {
    if (step.value.mode === 'trip') trips.push(step.value.statements.map((statement) => statement.sql));
    step = procedure.next(yield step.value);
  }
  return step.value;
}

/** What a rebuild's replay reads of the orders: every fact, the record and its items. */
function* replayRead(orders: readonly OrderKey[]): Procedure<Map<string, LoadedOrder>> {
  return loadedOrders(orders, yield* oneTrip(...loadOrders(orders, yield* dialect())));
}

const stored = (entry: LoadedOrder | undefined) => ({
  exists: entry?.exists, storedJson: entry?.storedJson, storedItems: entry?.storedItems, facts: entry?.facts, factsRead: entry?.factsRead,
});

/**
 * What a projector batch reads of the orders it applies inputs to (ledger-orders.ts): an order
 * the projector's cache keeps no state of needs its facts and its record's items whatever its
 * position says, so they come with its row, in one round trip.
 */
function batchReadsContract(open: () => Promise<ProcedureRunner>): void {
  let runner: ProcedureRunner;
  beforeEach(async () => {
    runner = await open();
    await runner.transaction(writes.recordNotification(inboxRow(paid(STORED.shopOrderNo, 'PG-READ', 30000))));
    await runner.transaction(writes.recordNotification(inboxRow(cancelled(STORED.shopOrderNo, 'PG-READ', 'PG-READ-C', 10000, 1, 20000))));
    await runner.transaction(writes.projectLedger(256, minute(2), SETTINGS));
  });
  afterEach(async () => runner.close());

  test('an order the cache keeps nothing of is read whole in one round trip, as a replay reads it', async () => {
    const trips: string[][] = [];
    const loaded = await runner.transaction(recorded(loadGoingOn([STORED, NEW], [], SETTINGS, new FoldCache()), trips));
    const replayed = await runner.transaction(replayRead([STORED, NEW]));
    expect(trips).toHaveLength(1);
    const entry = loaded.get(orderKeyText(STORED));
    expect(entry?.facts).toHaveLength(2);
    expect(entry?.storedItems.size).toBeGreaterThan(0);
    expect(stored(entry)).toEqual(stored(replayed.get(orderKeyText(STORED))));
    expect(loaded.get(orderKeyText(NEW))).toMatchObject({ exists: false, facts: [] });
  });

  test('an order the cache keeps a state of is read by its position first, and its facts only when that state cannot go on', async () => {
    const cache = new FoldCache();
    // Kept under a token the store does not hold (another writer moved the order since): it cannot go on.
    cache.keep(STORED, 'another-write', emptyCheckpoint());
    const trips: string[][] = [];
    const loaded = await runner.transaction(recorded(loadGoingOn([STORED], [], SETTINGS, cache), trips));
    const replayed = await runner.transaction(replayRead([STORED]));
    expect(trips).toHaveLength(2);
    expect(stored(loaded.get(orderKeyText(STORED)))).toEqual(stored(replayed.get(orderKeyText(STORED))));
  });
}

describe('a projector batch’s reads of its orders on SQLite', () => {
  batchReadsContract(async () => sqliteRunner());
});

describePostgres('a projector batch’s reads of its orders on PostgreSQL', () => {
  batchReadsContract(postgresRunner);
});
