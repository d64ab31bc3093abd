import type { DiscrepancyCursor, LedgerStore, ListedDiscrepancy } from '../../ledger/projector/ledger-store';
import { currencyOrDefault } from '../../ledger/fold/order-currency';
import { EMPTY, jsonCell, textCell, timeCell } from '../export-cell';
import type { ExportSource } from '../export-source';
import { identifierCell } from '../identifier-cell';
import { EXPORT_PAGE_SIZE } from './page-size';

export interface DiscrepanciesExportFilter {
  /** Open ones only, resolved ones only, or both (absent). */
  state?: 'open' | 'resolved';
  /** ISO instants: opened at or after `from`, before `to`. */
  from?: string;
  to?: string;
}

type Row = ListedDiscrepancy & { currency: string; simulated: boolean };

/**
 * Discrepancies in the order they opened, as the internal API pages them. The list is ordered by
 * (openedAt, id), so the range's start is the first cursor (every id sorts after '') and its end
 * stops the walk: no row outside the range is read past the first one after it.
 */
export function discrepanciesSource(
  ledger: Pick<LedgerStore, 'listDiscrepancies'>,
  filter: DiscrepanciesExportFilter,
  defaultCurrency: string,
  pageSize = EXPORT_PAGE_SIZE,
): ExportSource<Row> {
  const which = filter.state === 'open' ? { open: true } : filter.state === 'resolved' ? { open: false, resolved: true } : { open: false };
  return {
    name: 'discrepancies',
    sheetTitle: { ko: '불일치', en: 'Discrepancies' },
    columns: (words) => [
      { header: { ko: '발생', en: 'opened' }, kind: 'time', cell: (d) => timeCell(d.openedAt) },
      { header: { ko: '불일치 ID', en: 'id' }, cell: (d) => identifierCell('id', d.id) },
      { header: { ko: '종류', en: 'kind' }, cell: (d) => textCell('kind', words.discrepancyKind(d.kind)) },
      { header: { ko: '종류 코드', en: 'kind code' }, cell: (d) => textCell('kindCode', d.kind) },
      { header: { ko: '상점 ID (mallId)', en: 'mallId' }, cell: (d) => identifierCell('mallId', d.mallId) },
      { header: { ko: '주문번호 (shopOrderNo)', en: 'shopOrderNo' }, cell: (d) => identifierCell('shopOrderNo', d.shopOrderNo) },
      { header: { ko: '시뮬레이션', en: 'simulated' }, cell: (d) => (d.simulated ? textCell('simulated', 'Y') : EMPTY) },
      { header: { ko: '통화', en: 'currency' }, cell: (d) => textCell('currency', d.currency) },
      // The details' amounts are in minor units, as the internal API gives them; the currency column says which.
      { header: { ko: '내용 (금액은 최소 단위)', en: 'details (amounts in minor units)' }, cell: (d) => jsonCell(d.details) },
      { header: { ko: '관련 이벤트', en: 'events' }, cell: (d) => identifierCell('eventIds', d.eventIds.join(' ')) },
      { header: { ko: '해결', en: 'resolved' }, kind: 'time', cell: (d) => timeCell(d.resolvedAt) },
      { header: { ko: '해결한 사람', en: 'resolved by' }, cell: (d) => textCell('resolvedBy', d.resolvedBy) },
      { header: { ko: '메모', en: 'note' }, cell: (d) => (d.note ? textCell('note', d.note) : EMPTY) },
    ],
    async *pages() {
      let after: DiscrepancyCursor | undefined = filter.from ? { openedAt: filter.from, id: '' } : undefined;
      for (;;) {
        const page = await ledger.listDiscrepancies({ ...which, limit: pageSize, ...(after ? { after } : {}) });
        const inRange = filter.to === undefined ? page.discrepancies : page.discrepancies.filter((d) => d.openedAt < filter.to!);
        const simulated = new Set(page.simulated);
        yield inRange.map((d) => ({ ...d, currency: currencyOrDefault(page.currencies[d.id], defaultCurrency), simulated: simulated.has(d.id) }));
        if (page.last === null || inRange.length < page.discrepancies.length) return;
        after = page.last;
      }
    },
  };
}
