import { closeDayIssue, closedView, type StoredClose } from '../../src/ledger/summary/day-close';
import { laterAdjustments, withAdjustments } from '../../src/ledger/summary/day-adjustments';
import { emptySummaryDay } from '../../src/ledger/summary/day-entries';
import { payoutDifference } from '../../src/reconciliation/matching/payout-differences';
import type { SummaryDay } from '../../src/ledger/summary/summary-days';

const day = (date: string, mallId: string, net: number): SummaryDay => ({ ...emptySummaryDay(date, mallId, 'KRW'), payments: { count: 1, amount: net, byMethod: {} }, net });
const close = (date: string, mallId: string, figures: SummaryDay[]): StoredClose => ({ day: date, mallId, closedAt: '2026-11-23T01:00:00.000Z', closedBy: 'kim (console)', figures });

describe('a closed day as the summary shows it', () => {
  test('given a close of one mall, when its live sums moved since, then that mall\'s line is the kept one with what moved it later; another mall\'s line of the day stays live', () => {
    const live = [day('2026-11-22', 'A', 15000), day('2026-11-22', 'B', 700), day('2026-11-23', 'A', 100)];
    const shown = closedView(live, [close('2026-11-22', 'A', [day('2026-11-22', 'A', 10000)])], [{ adjusts: '2026-11-22', on: '2026-12-02', mallId: 'A', currency: 'KRW', net: 5000 }], null);
    expect(shown.map((d) => [d.date, d.mallId, d.net, d.closed?.by ?? null, d.adjustedLater ?? null])).toEqual([
      ['2026-11-22', 'A', 10000, 'kim (console)', [{ on: '2026-12-02', net: 5000 }]],
      ['2026-11-23', 'A', 100, null, null],
      ['2026-11-22', 'B', 700, null, null],
    ]);
  });

  test('given a close of every mall, when a mall that had nothing that day is moved later, then it gets a line of its own that shows only that; a range of one mall shows that mall alone', () => {
    const closes = [close('2026-11-22', '', [day('2026-11-22', 'A', 10000)])];
    const later = [{ adjusts: '2026-11-22', on: '2026-12-02', mallId: 'C', currency: 'KRW', net: 800 }, { adjusts: '2026-11-22', on: '2026-12-03', mallId: 'C', currency: 'KRW', net: -300 }];
    const shown = closedView([day('2026-11-22', 'C', 500)], closes, later, null);
    expect(shown.map((d) => [d.mallId, d.net, d.closed?.everyMall, d.adjustedLater])).toEqual([
      ['A', 10000, true, undefined],
      ['C', 0, true, [{ on: '2026-12-02', net: 800 }, { on: '2026-12-03', net: -300 }]],
    ]);
    expect(closedView([], closes, later, 'A').map((d) => d.mallId)).toEqual(['A']);
  });

  test('adjustments booked on a day are lines of their own per closed day, and the day\'s net with them; their nets per day they were booked on', () => {
    const rows = [
      { day: '2026-12-02', adjusts: '2026-11-22', mallId: 'A', currency: '', kind: 'payment' as const, method: 'card', count: 1, amount: 5000 },
      { day: '2026-12-02', adjusts: '2026-11-22', mallId: 'A', currency: '', kind: 'cancel' as const, method: '', count: 1, amount: 1000 },
      { day: '2026-12-02', adjusts: '2026-11-20', mallId: 'A', currency: '', kind: 'deposit' as const, method: '', count: 1, amount: 300 },
    ];
    const [line] = withAdjustments([day('2026-12-02', 'A', 2000)], rows, 'KRW');
    expect(line!.adjustments!.map((a) => [a.adjusts, a.net])).toEqual([['2026-11-20', 300], ['2026-11-22', 4000]]);
    expect(line!.netWithAdjustments).toBe(6300);
    expect(laterAdjustments(rows, 'KRW')).toEqual([
      { adjusts: '2026-11-22', on: '2026-12-02', mallId: 'A', currency: 'KRW', net: 4000 },
      { adjusts: '2026-11-20', on: '2026-12-02', mallId: 'A', currency: 'KRW', net: 300 },
    ]);
  });

  test.each([
    ['2026-12-02', { kind: 'notOver', day: '2026-12-02', today: '2026-12-02' }],
    ['2026-12-05', { kind: 'notOver', day: '2026-12-05', today: '2026-12-02' }],
    ['2025-11-30', { kind: 'tooOld', day: '2025-11-30', max: 366 }],
    ['2026-12-01', null],
  ])('closing %s at 10:00 KST on 2026-12-02: %j', (date, issue) => {
    expect(closeDayIssue(date, new Date('2026-12-02T01:00:00Z'))).toEqual(issue);
  });

  test('the day in Korea decides: at 23:59 KST on 2026-12-01 that day is not over yet, a minute later it is', () => {
    expect(closeDayIssue('2026-12-01', new Date('2026-12-01T14:59:00Z'))?.kind).toBe('notOver');
    expect(closeDayIssue('2026-12-01', new Date('2026-12-01T15:00:00Z'))).toBeNull();
  });
});

describe('a payout that does not add up', () => {
  const row = (line: number, gross: number, fee: number, feeVat: number, payout: number) => ({ importId: 'imp-1', line, pgCno: `PG-${line}`, cancelPgCno: null, gross, fee, feeVat, payout });
  test('rows whose gross less fee and VAT is their payout, stated alike by every import, add up', () => {
    expect(payoutDifference('2026-11-24', 'A', [row(2, 10000, 300, 30, 9670)], [{ importId: 'imp-1', payout: 9670, computed: 9670 }])).toBeNull();
  });
  test('a row off by 30 is listed with its difference, and the payout with its sums', () => {
    expect(payoutDifference('2026-11-24', 'A', [row(2, 10000, 300, 30, 9700)], [{ importId: 'imp-1', payout: 29040, computed: 29010 }])).toMatchObject({
      rows: [{ line: 2, difference: 30 }], payout: 29040, computed: 29010, difference: 30, statedByImport: [],
    });
  });
  test('a cancel row (negative gross, a fee refunded) adds up like a payment row', () => {
    expect(payoutDifference('2026-11-24', 'A', [row(3, -5000, -150, -15, -4835)], [{ importId: 'imp-1', payout: -4835, computed: -4835 }])).toBeNull();
  });
});
