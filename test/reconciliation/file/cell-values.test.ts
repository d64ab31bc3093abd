import { kstDay, kstInstant, wonAmount } from '../../../src/reconciliation/file/cell-values';
import { gatewayStatus } from '../../../src/reconciliation/file/status-text';

describe('cell values as the portals write them', () => {
  test.each([
    ['1,000', 1000], ['1,000원', 1000], ['₩1,000', 1000], ['KRW 1,000', 1000], ['-1,000', -1000], ['(1,000)', -1000],
    ['１，０００', 1000], [' 12000 ', 12000], ['1000.00', 1000], [1500, 1500], ['0', 0], ['-0', 0],
  ])('the amount %p reads as %p won', (cell, won) => {
    expect(wonAmount(cell)).toBe(won);
  });

  test.each([['1,000.5'], ['천원'], ['1.000,00'], ['--1'], [1000.5], [2 ** 60]])('the amount %p is unreadable, not rounded', (cell) => {
    expect(wonAmount(cell)).toBeUndefined();
  });

  test.each([
    ['2026-11-30 14:03:22', '2026-11-30T05:03:22.000Z'],
    ['2026.11.30 14:03', '2026-11-30T05:03:00.000Z'],
    ['2026/11/30', '2026-11-29T15:00:00.000Z'],
    ['20261130140322', '2026-11-30T05:03:22.000Z'],
    ['2026년 11월 30일 14:03:22', '2026-11-30T05:03:22.000Z'],
    [new Date(Date.UTC(2026, 10, 30, 0, 30)), '2026-11-29T15:30:00.000Z'],
  ])('the KST time %p is %p', (cell, iso) => {
    expect(kstInstant(cell)).toBe(iso);
  });

  test.each([
    ['14:03:22', '2026-11-30T05:03:22.000Z'],
    ['140322', '2026-11-30T05:03:22.000Z'],
    [0.5, '2026-11-30T03:00:00.000Z'],
    [new Date(Date.UTC(1899, 11, 30, 14, 3, 22)), '2026-11-30T05:03:22.000Z'],
  ])('a day with the time %p in its own column is %p', (time, iso) => {
    expect(kstInstant('2026-11-30', time)).toBe(iso);
  });

  test.each([['2026-02-30 10:00:00'], ['2026-11-30 24:00:00'], ['30/11/2026'], ['2026113'], ['어제']])('the time %p is unreadable', (cell) => {
    expect(kstInstant(cell)).toBeUndefined();
  });

  test('a payout day reads from text or an Excel date, empty as null', () => {
    expect([kstDay('2026.12.02'), kstDay(new Date(Date.UTC(2026, 11, 2))), kstDay(''), kstDay('다음주')]).toEqual(['2026-12-02', '2026-12-02', null, undefined]);
  });

  test.each([
    ['승인', 'approved'], ['정상', 'approved'], ['결제완료', 'approved'], ['취소', 'cancelled'], ['전체취소', 'cancelled'],
    ['부분취소', 'partially_cancelled'], ['실패', 'failed'], ['오류', 'failed'], ['취소실패', 'failed'], ['대기', 'other'], ['', 'other'],
  ])('the status %p is %p', (text, status) => {
    expect(gatewayStatus(text)).toBe(status);
  });
});
