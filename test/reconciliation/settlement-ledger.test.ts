import { approvalNotification, changeNotification } from '../../src/simulator/notification-builders';
import { kstStamp } from '../../src/notifications/kst-date';
import { importGatewayList, type ImportOutcome } from '../../src/reconciliation/import/import-list';
import { cp949Csv, excelWallClock, workbookFile } from './file/list-files';
import { appPerTest, DATABASES, MALL, openKinds, orderOf, readFile } from './reconciliation-harness';

/** 2026-11-20 in Korea: the transactions' day; the statement pays them out on the 23rd. */
const DAY = '2026-11-20';
const PAYOUT_DAY = '2026-11-23';
const at = (hour: number) => new Date(Date.UTC(2026, 10, 20, hour - 9));
const HEADERS = ['거래일자', 'PG거래번호', '취소거래번호', '가맹점주문번호', '매출금액(원)', '수수료(원)', '부가세(원)', '정산금액(원)', '지급예정일'];

describe.each(DATABASES)("the settlement statement matched with the ledger (%s)", (name, runs) => {
  const maybe = runs ? it : it.skip;
  const app = appPerTest(name);

  const { record } = orderOf(app);
  const open = openKinds;
  const importFile = (bytes: Buffer, fileName: string): Promise<ImportOutcome> => importGatewayList(
    { reconciliation: app().stores.reconciliation, ledger: app().stores.ledger, read: readFile },
    { bytes, fileName, mallId: MALL, actor: 'tester (test)', at: new Date().toISOString(), matchWaitMs: 20_000 },
  );

  /** Three orders notified on the day; the portal's .xlsx statement gets ORD-B's gross and ORD-C's cancel's payout wrong. */
  async function theStatement(): Promise<{ outcome: ImportOutcome; file: Buffer }> {
    const approve = (shopOrderNo: string, pgCno: string, amount: number, hour: number) =>
      app().notify(approvalNotification({ mallId: MALL, shopOrderNo, pgCno, amount: String(amount), transactionDate: kstStamp(at(hour)) })).expect(200);
    await approve('ORD-A', 'PG-A', 15000, 9);
    await approve('ORD-B', 'PG-B', 3000, 10);
    await approve('ORD-C', 'PG-C', 20000, 11);
    await app().notify(changeNotification({ mallId: MALL, shopOrderNo: 'ORD-C', pgCno: 'PG-C', cancelPgCno: 'CX-C', cancelAmount: '5000', amount: '5000', cancelRemainAmount: '15000', cancelDate: kstStamp(at(12)) })).expect(200);
    const day = excelWallClock(2026, 11, 20);
    const payout = excelWallClock(2026, 11, 23);
    const file = await workbookFile({
      rows: [
        ['정산내역서'],
        HEADERS,
        [day, 'PG-A', null, 'ORD-A', 15000, 300, 30, 14670, payout],
        [day, 'PG-B', null, 'ORD-B', 30000, 600, 60, 29340, payout],
        [day, 'PG-C', null, 'ORD-C', 20000, 400, 40, 19560, payout],
        [day, 'PG-C', 'CX-C', 'ORD-C', -5000, -100, -10, -4800, payout],
      ],
    });
    return { outcome: await importFile(file, 'settlement-20261123.xlsx'), file };
  }

  maybe('opens settlement_amount_differs and payout_does_not_add_up on the orders the rows name; the same file again changes nothing; ledger rebuild reproduces them', async () => {
    const { outcome, file } = await theStatement();
    expect(outcome).toMatchObject({
      outcome: 'imported',
      summary: { import: { kind: 'settlement', rowCount: 4, orderCount: 3, firstDay: DAY, lastDay: DAY }, rows: { payments: 3, cancels: 1 }, unplaced: 0 },
    });
    if (outcome.outcome === 'refused') throw new Error('refused');
    expect(outcome.summary.differences).toEqual({ settlement_amount_differs: 1, payout_does_not_add_up: 1 });

    expect(open(await record('ORD-A'))).toEqual([]);
    const differs = await record('ORD-B');
    expect(open(differs)).toEqual(['settlement_amount_differs']);
    expect(differs.discrepancies[0]!.details).toEqual({ pgCno: 'PG-B', cancelPgCno: null, day: DAY, payoutDay: PAYOUT_DAY, gross: 30000, notifiedAmount: 3000, line: 4 });
    const short = await record('ORD-C');
    expect(open(short)).toEqual(['payout_does_not_add_up']);
    expect(short.discrepancies[0]!.details).toEqual({
      pgCno: 'PG-C', cancelPgCno: 'CX-C', day: DAY, payoutDay: PAYOUT_DAY, gross: -5000, fee: -100, feeVat: -10, payout: -4800, computed: -4890, line: 6,
    });
    const [figures] = await app().stores.reconciliation.reconciliationDay(DAY, MALL);
    expect(figures!.differences.open).toEqual({ settlement_amount_differs: 1, payout_does_not_add_up: 1 });
    expect(await app().stores.ledger.gatewayListings({ mallId: MALL, shopOrderNo: 'ORD-C' })).toEqual([expect.objectContaining({
      kind: 'gateway_settlement', importId: outcome.summary.import.id,
      rows: [expect.objectContaining({ line: 5, pgCno: 'PG-C', gross: 20000 }), expect.objectContaining({ line: 6, cancelPgCno: 'CX-C', payout: -4800, payoutDay: PAYOUT_DAY, transactionDay: DAY })],
    })]);

    const orders = ['ORD-A', 'ORD-B', 'ORD-C'];
    const live = await Promise.all(orders.map(record));
    const again = await importFile(file, 'renamed.xlsx');
    expect(again).toMatchObject({ outcome: 'already_imported', summary: { import: { id: outcome.summary.import.id }, rows: { payments: 3, cancels: 1 } } });
    expect(await Promise.all(orders.map(record))).toEqual(live);
    for (let after: number | null = null, first = true; first || after !== null; first = false) {
      after = (await app().stores.ledger.rebuildPage(after, 100, new Date().toISOString())).next;
    }
    expect(await Promise.all(orders.map(record))).toEqual(live);
  });

  maybe('a corrected statement imported later, a CP949 CSV naming no order numbers, closes both; a row of a transaction nobody notified is counted unplaced', async () => {
    await theStatement();
    const corrected = cp949Csv([
      ['거래일자', 'PG거래번호', '취소거래번호', '매출금액', '수수료', '부가세', '정산금액', '지급예정일'],
      [DAY, 'PG-B', '', '3,000', '60', '6', '2,934', PAYOUT_DAY],
      [DAY, 'PG-C', 'CX-C', '-5,000', '-100', '-10', '-4,890', PAYOUT_DAY],
      [DAY, 'PG-NOBODY', '', '1,000', '20', '2', '978', PAYOUT_DAY],
    ]);
    const outcome = await importFile(corrected, 'settlement-corrected.csv');
    expect(outcome).toMatchObject({ outcome: 'imported', summary: { import: { orderCount: 2 }, unplaced: 1 } });
    expect(outcome.outcome === 'imported' && outcome.summary.differences).toEqual({});
    for (const shopOrderNo of ['ORD-B', 'ORD-C']) {
      const closed = await record(shopOrderNo);
      expect(open(closed)).toEqual([]);
      expect(closed.discrepancies).toEqual([expect.objectContaining({ resolvedBy: 'ledger' })]);
    }
    const [figures] = await app().stores.reconciliation.reconciliationDay(DAY, MALL);
    expect(figures!.differences.open).toEqual({});
    expect(figures!.differences.resolved).toEqual({ settlement_amount_differs: 1, payout_does_not_add_up: 1 });
  });

  maybe('a row naming an order never notified here is counted unplaced and makes the ledger no order', async () => {
    await app().notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-A', pgCno: 'PG-A', amount: '15000', transactionDate: kstStamp(at(9)) })).expect(200);
    const file = await workbookFile({
      rows: [
        HEADERS,
        [excelWallClock(2026, 11, 20), 'PG-A', null, 'ORD-A', 15000, 300, 30, 14670, excelWallClock(2026, 11, 23)],
        [excelWallClock(2026, 11, 20), 'PG-GHOST', null, 'ORD-GHOST', 8000, 160, 16, 7824, excelWallClock(2026, 11, 23)],
      ],
    });
    const outcome = await importFile(file, 'settlement-ghost.xlsx');
    expect(outcome).toMatchObject({ outcome: 'imported', summary: { import: { orderCount: 1 }, unplaced: 1 } });
    await app().api.get(`/v1/orders/${MALL}/ORD-GHOST`).expect(404);
    expect(open(await record('ORD-A'))).toEqual([]);
  });
});
