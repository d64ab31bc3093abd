import { importGatewayList } from '../../src/reconciliation/import/import-list';
import type { ReconciliationStore } from '../../src/reconciliation/import/reconciliation-store';
import { appPerTest, DATABASES, importList, listBytes, listedRow, MALL, openKinds, orderOf, readJsonList } from './reconciliation-harness';

/** 2026-11-20 in Korea: the day the lists cover. */
const DAY = '2026-11-20';
const at = (hour: number, minute = 0) => new Date(Date.UTC(2026, 10, 20, hour - 9, minute));
/** The next KST day, which no list covers. */
const nextDay = (hour: number) => new Date(Date.UTC(2026, 10, 21, hour - 9));

describe.each(DATABASES)('a notification that arrives after its day\'s list was imported (%s)', (name, runs) => {
  const maybe = runs ? it : it.skip;
  const app = appPerTest(name);

  const { approve, record } = orderOf(app);
  const kinds = openKinds;
  const listings = (shopOrderNo: string) => app().stores.ledger.gatewayListings({ mallId: MALL, shopOrderNo });

  /** A day of two payments, both listed, and one the gateway approved whose notification never came. */
  async function theDay() {
    await approve('ORD-MATCHED', 'PG-A', 15000, at(9));
    await approve('ORD-CANCELLED', 'PG-C', 7000, at(10));
    return [
      listedRow({ line: 2, shopOrderNo: 'ORD-MATCHED', pgCno: 'PG-A', amount: 15000, at: at(9) }),
      listedRow({ line: 3, shopOrderNo: 'ORD-CANCELLED', pgCno: 'PG-C', amount: 7000, at: at(10) }),
      listedRow({ line: 4, shopOrderNo: 'ORD-DROPPED', pgCno: 'PG-B', amount: 8000, at: at(11) }),
    ];
  }

  maybe('a forged payment for a day the list covers opens not_in_gateway_list at once, and its alert\'s gauge; one for a day no list covers opens nothing', async () => {
    const outcome = await importList(app().stores, await theDay(), new Date());
    if (outcome.outcome === 'refused') throw new Error('refused');
    await approve('ORD-FORGED-LATE', 'PG-X', 99000, at(16));
    await approve('ORD-NEXT-DAY', 'PG-N', 5000, nextDay(9));

    const forged = await record('ORD-FORGED-LATE');
    expect(kinds(forged)).toEqual(['not_in_gateway_list']);
    expect(forged.discrepancies[0]!.details).toMatchObject({ pgCno: 'PG-X', day: DAY, amount: 99000 });
    expect(await listings('ORD-FORGED-LATE')).toEqual([expect.objectContaining({ importId: outcome.summary.import.id, rows: [] })]);
    const text = await app().metrics.registry.getSingleMetricAsString('noti_receiver_ledger_discrepancies_open');
    expect(text).toContain('noti_receiver_ledger_discrepancies_open{kind="not_in_gateway_list",simulated="false"} 1');

    const later = await record('ORD-NEXT-DAY');
    expect(later.discrepancies).toEqual([]);
    expect(later.status).toBe('paid');
    expect(await listings('ORD-NEXT-DAY')).toEqual([]);
    const [figures] = await app().stores.reconciliation.reconciliationDay(DAY, MALL);
    expect(figures!.differences.open).toEqual({ notification_missing: 1, not_in_gateway_list: 1 });
  });

  maybe('a list for the day imported again later duplicates nothing, and ledger rebuild gives the same discrepancies', async () => {
    const rows = await theDay();
    const first = await importList(app().stores, rows, new Date(), 'first.xlsx');
    await approve('ORD-FORGED-LATE', 'PG-X', 99000, at(16));
    const before = await record('ORD-FORGED-LATE');
    expect(kinds(before)).toEqual(['not_in_gateway_list']);

    // The same file again: already imported, nothing changes.
    expect((await importList(app().stores, rows, new Date(), 'again.xlsx')).outcome).toBe('already_imported');
    // The portal's list exported again for the day: it still does not list the forged payment.
    const second = await importList(app().stores, [...rows, listedRow({ line: 5, shopOrderNo: 'ORD-OTHER', pgCno: 'PG-O', amount: 1000, at: at(17), status: 'failed', statusText: '실패' })], new Date(), 'second.xlsx');
    if (first.outcome === 'refused' || second.outcome === 'refused') throw new Error('refused');
    expect(second.outcome).toBe('imported');
    const after = await record('ORD-FORGED-LATE');
    expect(after.discrepancies).toEqual(before.discrepancies);
    expect((await listings('ORD-FORGED-LATE')).map((l) => l.importId).sort()).toEqual([first.summary.import.id, second.summary.import.id].sort());

    const orders = ['ORD-MATCHED', 'ORD-CANCELLED', 'ORD-DROPPED', 'ORD-FORGED-LATE'];
    const live = await Promise.all(orders.map(record));
    for (let page: number | null = null, firstPage = true; firstPage || page !== null; firstPage = false) {
      page = (await app().stores.ledger.rebuildPage(page, 100, new Date().toISOString())).next;
    }
    expect(await Promise.all(orders.map(record))).toEqual(live);
    const [figures] = await app().stores.reconciliation.reconciliationDay(DAY, MALL);
    expect(figures!.differences.open).toEqual({ notification_missing: 1, not_in_gateway_list: 1 });
  });

  maybe("the gateway's resend of a listed notification that never came closes notification_missing by itself and opens nothing else", async () => {
    const outcome = await importList(app().stores, await theDay(), new Date());
    if (outcome.outcome === 'refused') throw new Error('refused');
    const missing = await record('ORD-DROPPED');
    expect(kinds(missing)).toEqual(['notification_missing']);

    // Resent from the portal (transaction management → notification inquiry): the same payment, as the list has it.
    await approve('ORD-DROPPED', 'PG-B', 8000, at(11));
    const resent = await record('ORD-DROPPED');
    expect(resent.status).toBe('paid');
    expect(resent.discrepancies).toEqual([expect.objectContaining({ id: missing.discrepancies[0]!.id, kind: 'notification_missing', resolvedBy: 'ledger' })]);
    expect(await listings('ORD-DROPPED')).toEqual([expect.objectContaining({ importId: outcome.summary.import.id, rows: [expect.objectContaining({ pgCno: 'PG-B' })] })]);
    const [figures] = await app().stores.reconciliation.reconciliationDay(DAY, MALL);
    expect(figures!.differences.open).toEqual({});
    expect(figures!.differences.resolved).toEqual({ notification_missing: 1 });
  });

  maybe('a notification applied between the import\'s read of the day\'s orders and its row is given the import\'s fact once the import is stored', async () => {
    const rows = await theDay();
    // The import's store, as the real one, but a forged payment is accepted and applied right after the orders of the day were read.
    const racing: ReconciliationStore = {
      ...app().stores.reconciliation,
      ordersOnDays: async (mallId, firstDay, lastDay) => {
        const orders = await app().stores.reconciliation.ordersOnDays(mallId, firstDay, lastDay);
        if (!orders.some((o) => o.shopOrderNo === 'ORD-RACED')) {
          await approve('ORD-RACED', 'PG-R', 50000, at(18));
          await app().stores.ledger.caughtUp(20_000);
        }
        return orders;
      },
    };
    const outcome = await importGatewayList(
      { reconciliation: racing, ledger: app().stores.ledger, read: readJsonList },
      { bytes: listBytes(rows), fileName: 'transactions.xlsx', mallId: MALL, actor: 'tester (test)', at: new Date().toISOString(), matchWaitMs: 20_000 },
    );
    if (outcome.outcome === 'refused') throw new Error('refused');
    const raced = await record('ORD-RACED');
    expect(kinds(raced)).toEqual(['not_in_gateway_list']);
    expect(await listings('ORD-RACED')).toEqual([expect.objectContaining({ importId: outcome.summary.import.id, rows: [] })]);
    expect(outcome.summary.differences).toEqual({ notification_missing: 1, not_in_gateway_list: 1 });
  });
});
