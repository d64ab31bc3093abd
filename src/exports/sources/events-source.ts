import type { EventExportRow, EventSearch, OperatorQueries } from '../../store/store';
import { countCell, EMPTY, freeTextCell, jsonCell, moneyCell, textCell, timeCell, type ExportCell } from '../export-cell';
import type { ExportColumn, ExportSource } from '../export-source';
import { identifierCell } from '../identifier-cell';
import { EVENT_EXPORT_PAGE_SIZE } from './page-size';

/** What an export reads of a stored event: a notification's normalized form, or the service's own event. */
interface StoredEvent {
  occurredAt?: string | null;
  cancelPgCno?: string | null;
  resultCode?: string;
  resultMessage?: string;
  status?: { code: string; message: string | null } | null;
  amount?: number | null;
  data?: Record<string, unknown>;
  /** `simulator`: sent, signed, by this receiver's own simulator (the receipt's checked mark). */
  source?: { simulator?: boolean };
}

function storedEvent(json: string): StoredEvent {
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed !== null && typeof parsed === 'object' ? (parsed as StoredEvent) : {};
  } catch {
    return {};
  }
}

const field = (event: StoredEvent, name: string, identifier: boolean): ExportCell => {
  const value = event.data?.[name];
  if (typeof value !== 'string' && typeof value !== 'number') return EMPTY;
  return (identifier ? identifierCell : textCell)(name, String(value));
};

/**
 * The gateway's fields an accountant reads one by one; every other field is in the last column.
 * The codes and numbers among them are identifiers (`00` months, a `0012` approval number).
 */
const DATA_COLUMNS: Array<{ name: string; ko: string; identifier?: true }> = [
  { name: 'payMethodTypeCode', ko: '결제수단 코드', identifier: true },
  { name: 'approvalNo', ko: '승인번호', identifier: true },
  { name: 'cardNo', ko: '카드번호', identifier: true },
  { name: 'issuerName', ko: '발급사' },
  { name: 'installmentMonth', ko: '할부 개월', identifier: true },
  { name: 'customerName', ko: '구매자' },
  ...[1, 2, 3, 4, 5, 6].map((n) => ({ name: `shopValue${n}`, ko: `shopValue${n}` })),
];

type Row = EventExportRow & { event: StoredEvent };

/** The Events list with the page's filter (search, type, state, received days), newest first, every page of it. */
export function eventsSource(
  store: Pick<OperatorQueries, 'exportEventsPage'>,
  search: Omit<EventSearch, 'limit' | 'offset'>,
  defaultCurrency: string,
  pageSize = EVENT_EXPORT_PAGE_SIZE,
): ExportSource<Row> {
  const currency = (row: Row) => row.orderCurrency ?? defaultCurrency;
  return {
    name: 'events',
    sheetTitle: { ko: '이벤트', en: 'Events' },
    columns: (words): Array<ExportColumn<Row>> => [
      { header: { ko: '수신', en: 'received' }, kind: 'time', cell: (r) => timeCell(r.receivedAt) },
      { header: { ko: '발생', en: 'occurred' }, kind: 'time', cell: (r) => timeCell(r.event.occurredAt) },
      { header: { ko: '이벤트 ID', en: 'event id' }, cell: (r) => identifierCell('eventId', r.eventId) },
      { header: { ko: '유형', en: 'type' }, cell: (r) => textCell('type', r.type) },
      { header: { ko: 'notiType', en: 'notiType' }, cell: (r) => textCell('notiType', r.notiType) },
      { header: { ko: '전달 상태', en: 'state' }, cell: (r) => textCell('state', words.eventState(r.status)) },
      { header: { ko: '상점 ID (mallId)', en: 'mallId' }, cell: (r) => identifierCell('mallId', r.mallId) },
      { header: { ko: '주문번호 (shopOrderNo)', en: 'shopOrderNo' }, cell: (r) => identifierCell('shopOrderNo', r.shopOrderNo) },
      { header: { ko: '거래번호 (pgCno)', en: 'pgCno' }, cell: (r) => identifierCell('pgCno', r.pgCno) },
      { header: { ko: '취소 거래번호 (cancelPgCno)', en: 'cancelPgCno' }, cell: (r) => identifierCell('cancelPgCno', r.event.cancelPgCno) },
      { header: { ko: '시뮬레이션', en: 'simulated' }, cell: (r) => (r.event.source?.simulator === true ? textCell('simulated', 'Y') : EMPTY) },
      { header: { ko: '금액', en: 'amount' }, kind: 'money', cell: (r) => moneyCell(r.event.amount, currency(r)) },
      { header: { ko: '통화', en: 'currency' }, cell: (r) => (typeof r.event.amount === 'number' ? textCell('currency', currency(r)) : EMPTY) },
      { header: { ko: '결과 코드', en: 'result code' }, cell: (r) => identifierCell('resCd', r.event.resultCode) },
      { header: { ko: '결과 메시지', en: 'result message' }, cell: (r) => textCell('resMsg', r.event.resultMessage) },
      { header: { ko: '상태 코드 (statusCode)', en: 'statusCode' }, cell: (r) => identifierCell('statusCode', r.event.status?.code) },
      { header: { ko: '상태 메시지', en: 'status message' }, cell: (r) => textCell('statusMessage', r.event.status?.message) },
      ...DATA_COLUMNS.map(({ name, ko, identifier }): ExportColumn<Row> => ({ header: { ko, en: name }, cell: (r) => field(r.event, name, identifier === true) })),
      { header: { ko: '전달 시도', en: 'attempts' }, cell: (r) => countCell(r.attempts) },
      { header: { ko: '재전송 수신', en: 'redeliveries' }, cell: (r) => countCell(r.redeliveries) },
      { header: { ko: '마지막 오류', en: 'last error' }, cell: (r) => freeTextCell(r.lastError) },
      { header: { ko: '전달 완료', en: 'delivered' }, kind: 'time', cell: (r) => timeCell(r.deliveredAt) },
      { header: { ko: '받은 필드 전체', en: 'all fields as received' }, cell: (r) => jsonCell(r.event.data) },
    ],
    async *pages() {
      let before: number | null = null;
      do {
        const page = await store.exportEventsPage(search, before, pageSize);
        yield page.rows.map((row) => ({ ...row, event: storedEvent(row.eventJson) }));
        before = page.last;
      } while (before !== null);
    },
  };
}
