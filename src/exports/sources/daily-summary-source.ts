import type { CountAmount, SummaryDay } from '../../daily-summary/summary-days';
import type { LedgerStore, SummaryRange } from '../../ledger-projector/ledger-store';
import { EXPECTATION_METHODS } from '../../ledger/ledger-facts';
import { countCell, EMPTY, moneyCell, textCell, type ExportCell } from '../export-cell';
import { dateCell } from '../date-cell';
import type { ExportColumn, ExportSource } from '../export-source';
import { identifierCell } from '../identifier-cell';
import { currencyTotals, type SummaryLine } from './currency-totals';
import { EXPORT_PAGE_SIZE } from './page-size';

/** Every method a payment can be booked under: the expectation's, or 'unknown' for an order without one. */
const METHODS = [...EXPECTATION_METHODS, 'unknown'] as const;
const METHOD_WORDS: Record<(typeof METHODS)[number], { ko: string; en: string }> = {
  card: { ko: '카드', en: 'card' },
  vaccount: { ko: '가상계좌', en: 'virtual account' },
  wallet: { ko: '간편결제', en: 'wallet' },
  other: { ko: '기타', en: 'other' },
  unknown: { ko: '미지정', en: 'not stated' },
};

/** The label of a currency's total line, in the date column. */
const TOTAL = { ko: '합계', en: 'total' } as const;

/** A figure's two columns: how many, and how much in the day's currency. */
function pair(ko: string, en: string, figure: (d: SummaryDay) => CountAmount | undefined): Array<ExportColumn<SummaryLine>> {
  return [
    { header: { ko: `${ko} 건수`, en: `${en} count` }, cell: (d): ExportCell => countCell(figure(d)?.count ?? 0) },
    { header: { ko: `${ko} 금액`, en: `${en} amount` }, kind: 'money', cell: (d) => moneyCell(figure(d)?.amount ?? 0, d.currency) },
  ];
}

/**
 * The day's money as accounting takes it: one row per KST day, mall and currency, the figures the
 * month view and the day page show (the same store read). Payments by method are columns of the
 * same row rather than a second sheet: a CSV holds one table, and a row that carries its own
 * breakdown can be summed or filtered without a lookup. The whole range is one read (at most a
 * year of days, as the summary allows), written a page of rows at a time, then a total line per
 * currency (the month view's totals, as a row an accountant can check against the days above it).
 */
export function dailySummarySource(
  ledger: Pick<LedgerStore, 'dailySummary'>,
  range: SummaryRange,
  defaultCurrency: string,
  pageSize = EXPORT_PAGE_SIZE,
): ExportSource<SummaryLine> {
  return {
    name: 'summary',
    sheetTitle: { ko: '일별 정산', en: 'Daily money' },
    columns: (words) => [
      { header: { ko: '날짜 (KST)', en: 'date (KST)' }, cell: (d) => (d.total ? textCell('date', TOTAL[words.language]) : dateCell(d.date)) },
      { header: { ko: '상점 ID (mallId)', en: 'mallId' }, cell: (d) => (d.total ? EMPTY : identifierCell('mallId', d.mallId)) },
      { header: { ko: '통화', en: 'currency' }, cell: (d) => textCell('currency', d.currency) },
      ...pair('결제', 'payments', (d) => d.payments),
      ...pair('취소·환불', 'cancels', (d) => d.cancels),
      ...pair('입금', 'deposits', (d) => d.deposits),
      ...pair('입금 취소', 'deposit cancels', (d) => d.depositCancels),
      ...pair('환불 실패', 'refunds failed', (d) => d.refundsFailed),
      { header: { ko: '순액', en: 'net' }, kind: 'money', cell: (d) => moneyCell(d.net, d.currency) },
      { header: { ko: '불일치 발생', en: 'discrepancies opened' }, cell: (d) => countCell(d.discrepancies.opened) },
      { header: { ko: '불일치 해결', en: 'discrepancies resolved' }, cell: (d) => countCell(d.discrepancies.resolved) },
      ...METHODS.flatMap((m) => pair(`결제 (${METHOD_WORDS[m].ko})`, `payments (${METHOD_WORDS[m].en})`, (d) => d.payments.byMethod[m])),
    ],
    async *pages() {
      const days = await ledger.dailySummary(range, defaultCurrency);
      for (let start = 0; start < days.length; start += pageSize) yield days.slice(start, start + pageSize);
      yield currencyTotals(days);
    },
  };
}
