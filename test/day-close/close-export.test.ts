import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification, depositNotification } from '../../src/simulator/notification-builders';
import { HOST } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';
import { binary, bytes } from '../exports/download';
import { parseCsvAsShown, parseXlsx } from '../exports/xlsx-sheet';

const MALL = 'T0001234';
const DAY = '2026-11-16';
const kst = (iso: string) => kstStamp(new Date(iso));
const kstDay = (at = new Date()) => new Date(at.getTime() + 9 * 3600_000).toISOString().slice(0, 10);

describe('the day\'s money export of a closed day, its adjustments and the settlement statement', () => {
  let h: LedgerConsole;
  beforeAll(async () => {
    h = await startLedgerConsole();
  });
  afterAll(() => h.close());

  test('the closed day\'s line is as it was closed and says what moved it later; the day the money arrived has a line of its own naming the closed day; fees and payouts as money', async () => {
    const today = kstDay();
    await h.ledgerApp.notify(approvalNotification({ mallId: MALL, shopOrderNo: 'ORD-E1', pgCno: 'PG-E1', amount: '30000', transactionDate: kst('2026-11-16T03:00:00Z') })).expect(200);
    await h.ledgerApp.stores.ledger.caughtUp();
    await h.ledgerApp.stores.ledger.putSettlementRows('imp-1', MALL, [
      { line: 2, pgCno: 'PG-E1', cancelPgCno: null, shopOrderNo: 'ORD-E1', gross: 30000, fee: 900, feeVat: 90, payout: 29010, payoutDay: '2026-11-18', transactionDay: DAY },
    ]);
    await h.ledgerApp.stores.ledger.closeDay(DAY, MALL, { at: new Date().toISOString(), actor: 'kim (console)' }, 'KRW');
    await h.ledgerApp.notify(depositNotification({ mallId: MALL, shopOrderNo: 'ORD-E2', pgCno: 'PG-E2', amount: '4500', depositDate: kst('2026-11-16T05:00:00Z') })).expect(200);
    await h.ledgerApp.stores.ledger.caughtUp();

    const { agent } = await h.signIn('lee', 'operator');
    const csv = await binary(agent.get(`/console/exports/summary.csv?from=${DAY}&to=${today}&mall=${MALL}`).set('Host', HOST).set('Accept-Language', 'en')).expect(200);
    const [header, ...rows] = parseCsvAsShown(bytes(csv).toString('utf8').slice(1));
    const at = (name: string) => header!.indexOf(name);
    const closed = rows.find((r) => r[0] === DAY)!;
    expect([closed[at('net')], closed[at('closed')], closed[at('adjusted later, net (booked on later days)')], closed[at('fees with VAT')], closed[at("expected payout for the day's transactions")]])
      .toEqual(['30000', 'closed', '4500', '990', '29010']);
    const adjustment = rows.find((r) => r[at('adjusts closed day')] === DAY)!;
    expect([adjustment[0], adjustment[at('virtual account deposits amount')], adjustment[at('net')], adjustment[at('closed')]]).toEqual([today, '4500', '4500', '']);
    expect(rows.find((r) => r[0] === '2026-11-18')![at('paid out on the day')]).toBe('29010');
    // The total counts each line once: the closed day as it was closed, the adjustment on its own day.
    const total = rows.find((r) => r[0] === 'total')!;
    expect([total[at('net')], total[at('fees with VAT')], total[at('paid out on the day')]]).toEqual(['34500', '990', '29010']);

    const xlsx = await binary(agent.get(`/console/exports/summary.xlsx?from=${DAY}&to=${today}&mall=${MALL}`).set('Host', HOST).set('Accept-Language', 'ko')).expect(200);
    const [xHeader, ...xRows] = parseXlsx(bytes(xlsx)).sheets[0]!;
    const col = (name: string) => xHeader!.findIndex((c) => c?.value === name);
    const xClosed = xRows.find((r) => r[col('마감 여부')]?.value === '마감')!;
    expect(xClosed[col('수수료 (부가세 포함)')]).toEqual({ type: 'number', value: 990, format: '#,##0"원"' });
    expect(xClosed[col('이후 조정 순액 (다른 날 기록)')]).toEqual({ type: 'number', value: 4500, format: '#,##0"원"' });
    expect(xRows.some((r) => r[col('조정 대상 마감일')]?.format === 'yyyy-mm-dd')).toBe(true);
  });
});
