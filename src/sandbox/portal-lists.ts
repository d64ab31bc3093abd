import { KST_OFFSET_MS } from '../notifications/kst-date';
import { addDays, kstDay } from '../ledger/summary/kst-day';
import type { BookedTransaction } from './gateway-books';

/** A cell as the portal writes it: text, a number (an amount), or a KST wall-clock time. */
export type PortalCell = string | number | { kst: string };

export interface PortalList {
  title: string;
  headers: string[];
  rows: PortalCell[][];
  /** The totals row the portal puts under its rows, starting `합계`. */
  totals: PortalCell[];
}

/** `YYYY-MM-DD HH:mm:ss` in KST, as the portal prints a time. */
function kstWallClock(iso: string): string {
  return new Date(Date.parse(iso) + KST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The transaction list in the receiver's built-in layout (the headers Korean PG portals export):
 * a row per payment (`승인`) and per cancel (`취소`, or `부분취소` while something is left), the
 * cancel naming its payment's pgCno and its own in `취소거래번호`, its amount negative.
 */
export function transactionList(entries: readonly BookedTransaction[]): PortalList {
  const headers = ['거래일시', 'PG거래번호', '취소거래번호', '주문번호', '승인번호', '결제수단', '상태', '거래금액', '취소금액'];
  const rows = entries.map((entry): PortalCell[] =>
    entry.kind === 'payment'
      ? [{ kst: kstWallClock(entry.at) }, entry.pgCno, '', entry.shopOrderNo, entry.approvalNo ?? '', entry.method, '승인', entry.amount, 0]
      : [{ kst: kstWallClock(entry.at) }, entry.pgCno, entry.cancelPgCno ?? '', entry.shopOrderNo, '', entry.method, (entry.remainingAfter ?? 0) > 0 ? '부분취소' : '취소', -entry.amount, entry.amount]);
  const sum = (column: number) => rows.reduce((total, row) => total + (row[column] as number), 0);
  return { title: '거래내역 조회', headers, rows, totals: ['합계', '', '', '', '', '', `${rows.length}건`, sum(7), sum(8)] };
}

/** What the sandbox's gateway charges: a share of the gross by method, and VAT of a tenth of the fee. */
const FEE_RATE: Record<string, number> = { 간편결제: 0.025, 신용카드: 0.021 };
const DEFAULT_FEE_RATE = 0.03;

/** Rounded half away from zero, so a cancel's fee mirrors its payment's. */
const roundWon = (value: number) => Math.sign(value) * Math.round(Math.abs(value));

/** Two business days after the transaction's KST day (weekends skipped; the sandbox knows no holidays). */
export function payoutDay(transactionDay: string): string {
  let day = transactionDay;
  for (let left = 2; left > 0; ) {
    day = addDays(day, 1);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return day;
}

/**
 * The settlement statement: a row per transaction with its gross (negative for a cancel), the fee,
 * the VAT on the fee, what is paid out (gross - fee - VAT) and the day it is paid out.
 */
export function settlementStatement(entries: readonly BookedTransaction[]): PortalList {
  const headers = ['거래일자', '지급예정일', 'PG거래번호', '취소거래번호', '주문번호', '결제수단', '거래금액', '수수료', '부가세', '정산금액'];
  const rows = entries.map((entry): PortalCell[] => {
    const gross = entry.kind === 'payment' ? entry.amount : -entry.amount;
    const fee = roundWon(gross * (FEE_RATE[entry.method] ?? DEFAULT_FEE_RATE));
    const vat = roundWon(fee / 10);
    const day = kstDay(entry.at);
    return [day, payoutDay(day), entry.pgCno, entry.cancelPgCno ?? '', entry.shopOrderNo, entry.method, gross, fee, vat, gross - fee - vat];
  });
  const sum = (column: number) => rows.reduce((total, row) => total + (row[column] as number), 0);
  return { title: '정산내역 조회', headers, rows, totals: ['합계', '', '', '', '', `${rows.length}건`, sum(6), sum(7), sum(8), sum(9)] };
}
