import { approvalNotification, changeNotification } from '../../src/simulator/notification-builders';
import { kstStamp } from '../../src/notifications/kst-date';
import { appPerTest, DATABASES, importList, listedRow, MALL, openKinds, orderOf } from './reconciliation-harness';

/** 2026-11-20 in Korea: the day the list covers. */
const DAY = '2026-11-20';
const at = (hour: number, minute = 0) => new Date(Date.UTC(2026, 10, 20, hour - 9, minute));

describe.each(DATABASES)('the day matched with the gateway\'s list (%s)', (name, runs) => {
  const maybe = runs ? it : it.skip;
  const app = appPerTest(name);

  const { approve, record } = orderOf(app);
  const kinds = openKinds;

  /** The day's story: one payment matched, and one of each way a day goes wrong. */
  async function theDay() {
    await approve('ORD-MATCHED', 'PG-A', 15000, at(9));
    // ORD-DROPPED: the gateway approved PG-B and its notification never arrived.
    await app().notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-REFUSED', pgCno: 'PG-C', amount: '12,000', transactionDate: kstStamp(at(11)) })).expect(400);
    await approve('ORD-FORGED', 'PG-D', 99000, at(12));
    await approve('ORD-AMOUNT', 'PG-E', 3000, at(13));
    await approve('ORD-CANCEL', 'PG-F', 20000, at(14));
    return [
      listedRow({ line: 2, shopOrderNo: 'ORD-MATCHED', pgCno: 'PG-A', amount: 15000, at: at(9) }),
      listedRow({ line: 3, shopOrderNo: 'ORD-DROPPED', pgCno: 'PG-B', amount: 8000, at: at(10) }),
      listedRow({ line: 4, shopOrderNo: 'ORD-REFUSED', pgCno: 'PG-C', amount: 12000, at: at(11) }),
      listedRow({ line: 5, shopOrderNo: 'ORD-AMOUNT', pgCno: 'PG-E', amount: 30000, at: at(13) }),
      listedRow({ line: 6, shopOrderNo: 'ORD-CANCEL', pgCno: 'PG-F', amount: 20000, at: at(14), status: 'cancelled', statusText: '취소' }),
      listedRow({ line: 7, shopOrderNo: 'ORD-CANCEL', kind: 'cancel', pgCno: 'PG-F', cancelPgCno: 'CX-F', amount: 20000, at: at(15), status: 'cancelled', statusText: '취소' }),
    ];
  }

  maybe('finds the five differences of a day and nothing else; the same file again changes nothing', async () => {
    const rows = await theDay();
    const outcome = await importList(app().stores, rows, new Date());
    expect(outcome).toMatchObject({
      outcome: 'imported',
      summary: { import: { mallId: MALL, firstDay: DAY, lastDay: DAY, rowCount: 6, fileName: 'transactions.xlsx', importedBy: 'tester (test)' }, rows: { payments: 5, cancels: 1 }, unplaced: 0 },
    });
    if (outcome.outcome === 'refused') throw new Error('refused');
    expect(outcome.summary.differences).toEqual({ notification_missing: 3, not_in_gateway_list: 1, gateway_amount_differs: 1 });

    expect(kinds(await record('ORD-MATCHED'))).toEqual([]);
    const dropped = await record('ORD-DROPPED');
    expect(kinds(dropped)).toEqual(['notification_missing']);
    expect(dropped.discrepancies[0]!.details).toMatchObject({ pgCno: 'PG-B', cancelPgCno: null, listedAmount: 8000, day: DAY, resendPath: 'transaction management → notification inquiry' });
    const refused = await record('ORD-REFUSED');
    expect(kinds(refused)).toEqual(['notification_missing', 'refused_notification']);
    // The missing notification names the refusal that kept it out.
    const refusal = refused.discrepancies.find((d) => d.kind === 'refused_notification')!;
    expect(refused.discrepancies.find((d) => d.kind === 'notification_missing')!.details).toMatchObject({ pgCno: 'PG-C', rejectionId: refusal.details.rejectionId });
    expect(kinds(await record('ORD-FORGED'))).toEqual(['not_in_gateway_list']);
    const changed = await record('ORD-AMOUNT');
    expect(kinds(changed)).toEqual(['gateway_amount_differs']);
    expect(changed.discrepancies[0]!.details).toMatchObject({ pgCno: 'PG-E', listedAmount: 30000, notifiedAmount: 3000 });
    const cancel = await record('ORD-CANCEL');
    expect(kinds(cancel)).toEqual(['notification_missing']);
    expect(cancel.discrepancies[0]!.details).toMatchObject({ pgCno: 'PG-F', cancelPgCno: 'CX-F', listedAmount: 20000 });

    const [figures, ...others] = await app().stores.reconciliation.reconciliationDay(DAY, null);
    expect(others).toEqual([]);
    expect(figures).toMatchObject({
      day: DAY, mallId: MALL, currency: 'KRW',
      files: [{ id: outcome.summary.import.id, governing: true, rowsOfDay: 6 }],
      rows: { payments: { count: 5, amount: 85000 }, cancels: { count: 1, amount: 20000 } },
      // PG-A, and PG-F's own row (the missing cancel is its one difference).
      matched: { payments: { count: 2, amount: 35000 }, cancels: { count: 0, amount: 0 } },
      differences: { open: { notification_missing: 3, not_in_gateway_list: 1, gateway_amount_differs: 1 }, resolved: {} },
    });
    expect(figures!.differences.listed).toHaveLength(5);

    const before = await Promise.all(['ORD-DROPPED', 'ORD-FORGED', 'ORD-AMOUNT', 'ORD-CANCEL'].map(record));
    const again = await importList(app().stores, rows, new Date(), 'renamed.xlsx');
    expect(again).toMatchObject({ outcome: 'already_imported', summary: { import: { id: outcome.summary.import.id, fileName: 'transactions.xlsx' }, rows: { payments: 5, cancels: 1 } } });
    expect(await Promise.all(['ORD-DROPPED', 'ORD-FORGED', 'ORD-AMOUNT', 'ORD-CANCEL'].map(record))).toEqual(before);
    expect(await app().stores.reconciliation.listImports({ day: DAY, mallId: null, limit: 10 })).toHaveLength(1);
  });

  maybe('a late notification resolves notification_missing, and ledger rebuild reproduces every discrepancy', async () => {
    const rows = await theDay();
    await importList(app().stores, rows, new Date());
    await app().notify(changeNotification({ mallId: MALL, shopOrderNo: 'ORD-CANCEL', pgCno: 'PG-F', cancelPgCno: 'CX-F', cancelAmount: '20000', amount: '20000', cancelRemainAmount: '0', cancelDate: kstStamp(at(15)) })).expect(200);
    await approve('ORD-DROPPED', 'PG-B', 8000, at(10));
    const cancelled = await record('ORD-CANCEL');
    expect(kinds(cancelled)).toEqual([]);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.discrepancies).toEqual([expect.objectContaining({ kind: 'notification_missing', resolvedBy: 'ledger' })]);
    expect(kinds(await record('ORD-DROPPED'))).toEqual([]);

    const orders = ['ORD-MATCHED', 'ORD-DROPPED', 'ORD-REFUSED', 'ORD-FORGED', 'ORD-AMOUNT', 'ORD-CANCEL'];
    const live = await Promise.all(orders.map(record));
    for (let after: number | null = null, first = true; first || after !== null; first = false) {
      after = (await app().stores.ledger.rebuildPage(after, 100, new Date().toISOString())).next;
    }
    expect(await Promise.all(orders.map(record))).toEqual(live);
    const [figures] = await app().stores.reconciliation.reconciliationDay(DAY, MALL);
    expect(figures!.differences.open).toEqual({ notification_missing: 1, not_in_gateway_list: 1, gateway_amount_differs: 1 });
    expect(figures!.differences.resolved).toEqual({ notification_missing: 2 });
    expect(figures!.matched.payments).toEqual({ count: 3, amount: 43000 });
    expect(figures!.matched.cancels).toEqual({ count: 1, amount: 20000 });
  });

  maybe('a later list for the same day supersedes the earlier one: its rows count, the earlier one\'s differences it does not show are resolved', async () => {
    const rows = await theDay();
    const first = await importList(app().stores, rows, new Date(), 'first.xlsx');
    // The portal's list exported again: PG-E as notified, PG-B no longer listed, the rest as before.
    const corrected = rows.filter((r) => r.pgCno !== 'PG-B').map((r) => (r.pgCno === 'PG-E' ? { ...r, amount: 3000 } : r));
    const second = await importList(app().stores, corrected, new Date(), 'second.xlsx');
    expect(second.outcome).toBe('imported');
    expect(kinds(await record('ORD-AMOUNT'))).toEqual([]);
    expect((await record('ORD-AMOUNT')).discrepancies).toEqual([expect.objectContaining({ kind: 'gateway_amount_differs', resolvedBy: 'ledger' })]);
    expect(kinds(await record('ORD-DROPPED'))).toEqual([]);
    expect(kinds(await record('ORD-FORGED'))).toEqual(['not_in_gateway_list']);
    const [figures] = await app().stores.reconciliation.reconciliationDay(DAY, MALL);
    if (first.outcome === 'refused' || second.outcome === 'refused') throw new Error('refused');
    expect(figures!.files.map((f) => [f.fileName, f.governing])).toEqual([['second.xlsx', true], ['first.xlsx', false]]);
    expect(figures!.rows.payments).toEqual({ count: 4, amount: 50000 });
    expect(figures!.differences.open).toEqual({ notification_missing: 2, not_in_gateway_list: 1 });
  });
});
