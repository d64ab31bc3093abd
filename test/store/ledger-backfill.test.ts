import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { BACKFILL_REMINDER, remindBackfill } from '../../src/ledger/projector/backfill-reminder';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import { createLogger } from '../../src/observability/logger';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { writes } from '../../src/store/procedures';
import { inboxRow } from '../../src/store/procedures/inbox-outbox/inbox-row';
import type { InboxEntry } from '../../src/store/store';
import { cancelled, MALL, minute, paid, transferFailed } from './ledger-entries';
import { postgresAtVersion, sqliteAtVersion, type OlderReleaseDatabase } from './older-release-database';
import { createTestSchema, describePostgres } from './pg-test-database';

/** The last release without the payment ledger: migration 010 added it. */
const BEFORE_LEDGER = 9;
const ORDERS = ['ORD-B1', 'ORD-B2', 'ORD-B3'];

/** Notifications of three orders: paid, paid and partly cancelled, paid with a refund that could not be paid out. */
const NOTIFICATIONS: InboxEntry[] = [
  paid('ORD-B1', 'PG-B1', 30000, 0),
  paid('ORD-B2', 'PG-B2', 20000, 1),
  cancelled('ORD-B2', 'PG-B2', 'PG-B2C', 5000, 2, 15000),
  paid('ORD-B3', 'PG-B3', 7000, 3),
  transferFailed('ORD-B3', 'PG-B3', 7000, 4),
];

interface Databases {
  /** A database the release before the ledger filled with NOTIFICATIONS; the current stores open it (and migrate). */
  older: OlderReleaseDatabase;
  openUpgraded(): Promise<Stores>;
  /** The current stores on a fresh database, for the records a live ledger computes. */
  openLive(): Promise<Stores & { drop(): Promise<void> }>;
}

function backfillContract(open: () => Promise<Databases>): void {
  let dbs: Databases;
  const opened: Array<{ close(): Promise<void> }> = [];
  beforeEach(async () => {
    dbs = await open();
    for (const entry of NOTIFICATIONS) await dbs.older.write(writes.recordNotification(inboxRow(entry)));
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await dbs.older.cleanup();
  });

  const backfillAll = async (stores: Stores) => {
    const totals = { notifications: 0, facts: 0, changed: 0 };
    let after: number | null = null;
    do {
      // Pages of two, so the paging itself is exercised.
      const page = await stores.ledger.backfillPage(after, 2, minute(10));
      totals.notifications += page.notifications;
      totals.facts += page.facts;
      totals.changed += page.changed;
      after = page.next;
    } while (after !== null);
    return totals;
  };
  const records = async (stores: Stores) => {
    const found: Array<OrderRecord | null> = [];
    for (const shopOrderNo of ORDERS) found.push(await stores.ledger.getOrder({ mallId: MALL, shopOrderNo }));
    return found;
  };

  /** What the receiver logs at start about the backfill, as JSON lines. */
  const startWarnings = async (stores: Stores) => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', stream: new Writable({ write: (chunk, _e, done) => void (lines.push(String(chunk)), done()) }) });
    await remindBackfill({ ledger: stores.ledger, logger });
    return lines.map((line) => JSON.parse(line) as { level: string; message: string });
  };

  test('until the backfill has run, the receiver warns at start, once, to run it; after it, and on a fresh database, it says nothing', async () => {
    const upgraded = await dbs.openUpgraded();
    opened.push(upgraded.store);
    expect(await startWarnings(upgraded)).toEqual([expect.objectContaining({ level: 'warn', message: BACKFILL_REMINDER })]);
    expect(BACKFILL_REMINDER).toContain('noti-receiver ledger backfill');
    await backfillAll(upgraded);
    expect(await startWarnings(upgraded)).toEqual([]);

    const live = await dbs.openLive();
    try {
      for (const entry of NOTIFICATIONS) await live.store.record(entry);
      expect(await startWarnings(live)).toEqual([]);
    } finally {
      await live.store.close();
      await live.drop();
    }
  });

  test('notifications stored before the ledger get the facts they would have got: the records equal a live ledger’s, and a second run changes nothing', async () => {
    const upgraded = await dbs.openUpgraded();
    opened.push(upgraded.store);
    // The upgrade alone knows nothing of these orders.
    expect(await records(upgraded)).toEqual([null, null, null]);
    // Each page's changes: ORD-B2 and ORD-B3 have notifications on two pages each, and change in both.
    await expect(backfillAll(upgraded)).resolves.toEqual({ notifications: 5, facts: 5, changed: 5 });

    const live = await dbs.openLive();
    try {
      for (const entry of NOTIFICATIONS) await live.store.record(entry);
      // Both recomputed at one time from their facts: the same facts give the same records.
      for (const stores of [upgraded, live]) await stores.ledger.rebuildPage(null, 100, minute(10));
      const backfilled = await records(upgraded);
      expect(backfilled).toEqual(await records(live));
      expect(backfilled.map((r) => r?.status)).toEqual(['paid', 'partially_cancelled', 'refund_failed']);
    } finally {
      await live.store.close();
      await live.drop();
    }
    // The status changes went to the queue as a live change sends them (a page at a time: with
    // pages of two, each notification's change on its own, as they arrived).
    const changes = async () => (await upgraded.store.nextPending(100))
      .filter((row) => row.eventType === 'order.status_changed')
      .map((row) => JSON.parse(row.eventJson) as { from: string | null; to: string; order: { shopOrderNo: string } })
      .map((event) => `${event.order.shopOrderNo} ${event.from} -> ${event.to}`);
    expect(await changes()).toEqual([
      'ORD-B1 null -> paid', 'ORD-B2 null -> paid', 'ORD-B2 paid -> partially_cancelled', 'ORD-B3 null -> paid', 'ORD-B3 paid -> refund_failed',
    ]);

    await expect(backfillAll(upgraded)).resolves.toEqual({ notifications: 5, facts: 5, changed: 0 });
    expect(await changes()).toHaveLength(5);
  });
}

describe('backfilling the ledger of a SQLite database from before it existed', () => {
  backfillContract(async () => {
    const older = sqliteAtVersion(BEFORE_LEDGER);
    return {
      older,
      openUpgraded: async () => {
        // The older release's connection is done with the file; the stores take it over.
        older.db.close();
        return openStores(`sqlite:${older.file}`);
      },
      openLive: async () => {
        const dir = mkdtempSync(join(tmpdir(), 'noti-backfill-live-'));
        const stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`);
        return { ...stores, drop: async () => rmSync(dir, { recursive: true, force: true }) };
      },
    };
  });
});

describePostgres('backfilling the ledger of a PostgreSQL database from before it existed', () => {
  backfillContract(async () => {
    const older = await postgresAtVersion(BEFORE_LEDGER);
    return {
      older,
      openUpgraded: () => openStores(older.url),
      openLive: async () => {
        const schema = await createTestSchema();
        const stores = await openStores(schema.url);
        return { ...stores, drop: () => schema.drop() };
      },
    };
  });
});
