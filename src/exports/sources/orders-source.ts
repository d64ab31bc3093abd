import type { LedgerStore, OrderListFilter } from '../../ledger/projector/ledger-store';
import { orderCurrency } from '../../ledger/fold/order-currency';
import type { OrderRecord } from '../../ledger/fold/order-record';
import { countCell, moneyCell, textCell, timeCell, EMPTY } from '../export-cell';
import type { ExportSource } from '../export-source';
import { identifierCell } from '../identifier-cell';
import { EXPORT_PAGE_SIZE } from './page-size';

export type OrdersExportFilter = Pick<OrderListFilter, 'status' | 'from' | 'to'>;

/** The Orders list as the page shows it (newest first, by status and the day of the last change), every page of it. */
export function ordersSource(
  ledger: Pick<LedgerStore, 'listOrders'>,
  filter: OrdersExportFilter,
  defaultCurrency: string,
  pageSize = EXPORT_PAGE_SIZE,
): ExportSource<OrderRecord> {
  const currency = (order: OrderRecord) => orderCurrency(order, defaultCurrency);
  return {
    name: 'orders',
    sheetTitle: { ko: '주문', en: 'Orders' },
    columns: (words) => [
      { header: { ko: '최종 변경', en: 'updated' }, kind: 'time', cell: (o) => timeCell(o.updatedAt) },
      { header: { ko: '상점 ID (mallId)', en: 'mallId' }, cell: (o) => identifierCell('mallId', o.mallId) },
      { header: { ko: '주문번호 (shopOrderNo)', en: 'shopOrderNo' }, cell: (o) => identifierCell('shopOrderNo', o.shopOrderNo) },
      { header: { ko: '상태', en: 'status' }, cell: (o) => textCell('status', words.orderStatus(o.status)) },
      { header: { ko: '상태 코드', en: 'status code' }, cell: (o) => textCell('statusCode', o.status) },
      { header: { ko: '통화', en: 'currency' }, cell: (o) => textCell('currency', currency(o)) },
      { header: { ko: '기대 금액', en: 'expected' }, kind: 'money', cell: (o) => (o.expected ? moneyCell(o.expected.amount, o.expected.currency) : EMPTY) },
      { header: { ko: '승인 금액', en: 'approved' }, kind: 'money', cell: (o) => moneyCell(o.approved, currency(o)) },
      { header: { ko: '취소 금액', en: 'cancelled' }, kind: 'money', cell: (o) => moneyCell(o.cancelled, currency(o)) },
      { header: { ko: '잔액', en: 'remaining' }, kind: 'money', cell: (o) => moneyCell(o.remaining, currency(o)) },
      { header: { ko: '입금 금액', en: 'deposited' }, kind: 'money', cell: (o) => moneyCell(o.deposited, currency(o)) },
      { header: { ko: '미해결 불일치', en: 'open discrepancies' }, cell: (o) => countCell(o.discrepancies.filter((d) => d.resolvedAt === null).length) },
      { header: { ko: '결제 거래번호 (pgCno)', en: 'payments (pgCno)' }, cell: (o) => identifierCell('pgCno', o.payments.map((p) => p.pgCno).join(' ')) },
      { header: { ko: '시뮬레이션', en: 'simulated' }, cell: (o) => (o.simulated ? textCell('simulated', 'Y') : EMPTY) },
    ],
    async *pages() {
      let after: number | undefined;
      do {
        const page = await ledger.listOrders({ ...filter, after, limit: pageSize, newestFirst: true });
        yield page.orders;
        after = page.last ?? undefined;
      } while (after !== undefined);
    },
  };
}
