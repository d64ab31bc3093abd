import type { CountAmount, SummaryDay } from '../../ledger/summary/summary-days';
import type { LedgerStore, SummaryRange } from '../../ledger/projector/ledger-store';
import { SUMMARY_METHODS, type SummaryMethod } from '../../ledger/summary/payment-method';
import { countCell, EMPTY, majorUnitText, moneyCell, textCell, type ExportCell } from '../export-cell';
import { dateCell } from '../date-cell';
import type { ExportColumn, ExportLanguage, ExportSource } from '../export-source';
import { identifierCell } from '../identifier-cell';
import type { SummaryLine } from '../../ledger/summary/currency-totals';
import { summaryLines } from '../../ledger/summary/summary-lines';
import { EXPORT_PAGE_SIZE } from './page-size';

/** A payments-by-method column: approvals booked under the method the gateway reported (else the expectation's). */
const METHOD_HEADERS: Record<SummaryMethod, { ko: string; en: string }> = {
  card: { ko: '결제 승인 · 카드', en: 'approved payments, card' },
  transfer: { ko: '결제 승인 · 계좌이체', en: 'approved payments, bank transfer' },
  vaccount: { ko: '결제 승인 · 가상계좌', en: 'approved payments, virtual account' },
  mobile: { ko: '결제 승인 · 휴대폰', en: 'approved payments, mobile phone' },
  prepaid: { ko: '결제 승인 · 선불결제', en: 'approved payments, prepaid' },
  wallet: { ko: '결제 승인 · 간편결제', en: 'approved payments, wallet' },
  other: { ko: '결제 승인 · 기타', en: 'approved payments, other' },
  unknown: { ko: '결제 승인 · 결제수단 정보 없음', en: 'approved payments, method not stated' },
};

/** The label of a currency's total line, in the date column. */
const TOTAL = { ko: '합계', en: 'total' } as const;

/** Failed refunds with an unknown amount among them: the known part, if any, and the word. */
function unknownAmount(d: SummaryDay, language: ExportLanguage): ExportCell {
  const word = language === 'ko' ? '알 수 없음' : 'unknown';
  const { amount, count, unknownCount } = d.refundsFailed;
  return textCell('amount', unknownCount === count ? word : `${majorUnitText({ minor: amount, currency: d.currency })} + ${word}`);
}

/** A figure's two columns: how many, and how much in the day's currency. */
function pair(ko: string, en: string, figure: (d: SummaryDay) => CountAmount | undefined): Array<ExportColumn<SummaryLine>> {
  return [
    { header: { ko: `${ko} 건수`, en: `${en} count` }, cell: (d): ExportCell => countCell(figure(d)?.count ?? 0) },
    { header: { ko: `${ko} 금액`, en: `${en} amount` }, kind: 'money', cell: (d) => moneyCell(figure(d)?.amount ?? 0, d.currency) },
  ];
}

/** What the simulated orders' columns are headed by: they are in no other column, the net and the total lines included. */
const SIMULATED = { ko: '시뮬레이션 주문 (합계에서 제외)', en: 'simulated orders (not in the totals)' } as const;

/**
 * The simulator's made-up orders, after every real figure and labelled so: no real money moved, so
 * an accountant summing the columns before them gets the shop's money, and one who ran the
 * simulator still finds its orders.
 */
function simulatedColumns(): Array<ExportColumn<SummaryLine>> {
  const of = (label: { ko: string; en: string }) => [`${SIMULATED.ko} ${label.ko}`, `${SIMULATED.en}, ${label.en}`] as const;
  return [
    ...pair(...of({ ko: '결제 승인', en: 'approved payments' }), (d) => d.simulated.payments),
    ...pair(...of({ ko: '취소·환불', en: 'cancels and refunds' }), (d) => d.simulated.cancels),
    ...pair(...of({ ko: '가상계좌 입금', en: 'virtual account deposits' }), (d) => d.simulated.deposits),
    ...pair(...of({ ko: '가상계좌 입금 취소', en: 'virtual account deposit cancels' }), (d) => d.simulated.depositCancels),
    ...pair(...of({ ko: '환불 실패', en: 'refunds failed' }), (d) => d.simulated.refundsFailed),
    { header: { ko: `${SIMULATED.ko} 순액`, en: `${SIMULATED.en}, net` }, kind: 'money', cell: (d) => moneyCell(d.simulated.net, d.currency) },
  ];
}

/**
 * The day's money as accounting takes it: one row per KST day, mall and currency, the figures the
 * month view and the day page show (the same store read). Payments by method are columns of the
 * same row rather than a second sheet: a CSV holds one table, and a row that carries its own
 * breakdown can be summed or filtered without a lookup. The whole range is one read (at most a
 * year of days, as the summary allows), written a page of rows at a time, then a total line per
 * currency (the month view's totals, as a row an accountant can check against the days above it).
 *
 * Headers say what a column holds rather than the API's field name: "payments" are the gateway's
 * approvals (events 10, 70), split by the method the gateway reported, while money paid into a
 * virtual account is a deposit (event 30). An accountant looking for virtual-account money under
 * a "payments (virtual account)" column found zeros beside the deposits that held it. The
 * simulator's orders are in columns of their own at the end, in none of the others.
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
      ...pair('결제 승인', 'approved payments', (d) => d.payments),
      ...pair('취소·환불', 'cancels and refunds', (d) => d.cancels),
      ...pair('가상계좌 입금', 'virtual account deposits', (d) => d.deposits),
      ...pair('가상계좌 입금 취소', 'virtual account deposit cancels', (d) => d.depositCancels),
      { header: { ko: '환불 실패 건수', en: 'refunds failed count' }, cell: (d) => countCell(d.refundsFailed.count) },
      {
        header: { ko: '환불 실패 금액', en: 'refunds failed amount' }, kind: 'money',
        // A sum with an unknown amount in it is no figure: the cell says unknown rather than a number that reads as whole.
        cell: (d) => (d.refundsFailed.unknownCount === 0 ? moneyCell(d.refundsFailed.amount, d.currency) : unknownAmount(d, words.language)),
      },
      { header: { ko: '환불 실패 중 금액 알 수 없음 건수', en: 'refunds failed with amount unknown count' }, cell: (d) => countCell(d.refundsFailed.unknownCount) },
      { header: { ko: '순액', en: 'net' }, kind: 'money', cell: (d) => moneyCell(d.net, d.currency) },
      { header: { ko: '불일치 발생', en: 'discrepancies opened' }, cell: (d) => countCell(d.discrepancies.opened) },
      { header: { ko: '불일치 해결', en: 'discrepancies resolved' }, cell: (d) => countCell(d.discrepancies.resolved) },
      ...SUMMARY_METHODS.flatMap((m) => pair(METHOD_HEADERS[m].ko, METHOD_HEADERS[m].en, (d) => d.payments.byMethod[m])),
      ...simulatedColumns(),
      ...closeColumns(words.language),
      ...settlementColumns(),
    ],
    async *pages() {
      const lines = summaryLines(await ledger.dailySummary(range, defaultCurrency));
      for (let start = 0; start < lines.length; start += pageSize) yield lines.slice(start, start + pageSize);
    },
  };
}

/**
 * A closed day's line is the one kept at its close, marked so, with the net that moved it later
 * (booked on later days, in none of its columns); a line of money that arrived for a closed day
 * names the day it adjusts.
 */
function closeColumns(language: ExportLanguage): Array<ExportColumn<SummaryLine>> {
  return [
    { header: { ko: '마감 여부', en: 'closed' }, cell: (d) => (d.closed ? textCell('closed', language === 'ko' ? '마감' : 'closed') : EMPTY) },
    { header: { ko: '이후 조정 순액 (다른 날 기록)', en: 'adjusted later, net (booked on later days)' }, kind: 'money', cell: (d) => (d.adjustedLater ? moneyCell(d.adjustedLater.reduce((sum, a) => sum + a.net, 0), d.currency) : EMPTY) },
    { header: { ko: '조정 대상 마감일', en: 'adjusts closed day' }, cell: (d) => (d.adjustsDay ? dateCell(d.adjustsDay) : EMPTY) },
  ];
}

/** The settlement statement's figures: fees on the day's transactions and the payout expected for them, and what is paid out on the day. */
function settlementColumns(): Array<ExportColumn<SummaryLine>> {
  const money = (figure: (d: SummaryLine) => number | undefined) => (d: SummaryLine): ExportCell => {
    const value = figure(d);
    return value === undefined ? EMPTY : moneyCell(value, d.currency);
  };
  return [
    { header: { ko: '수수료 (부가세 포함)', en: 'fees with VAT' }, kind: 'money', cell: money((d) => (d.settlement ? d.settlement.fee + d.settlement.feeVat : undefined)) },
    { header: { ko: '정산 예정 금액 (이 날 거래분)', en: "expected payout for the day's transactions" }, kind: 'money', cell: money((d) => d.settlement?.payout) },
    { header: { ko: '지급액 (이 날 지급)', en: 'paid out on the day' }, kind: 'money', cell: money((d) => d.payouts?.amount) },
  ];
}
