import type { LedgerStore } from '../ledger/projector/ledger-store';
import type { SummaryRange } from '../ledger/sql/summary/daily-summary';
import type { EventSearch, OperatorQueries } from '../store/store';
import type { ExportSource } from './export-source';
import { dailySummarySource } from './sources/daily-summary-source';
import { discrepanciesSource, type DiscrepanciesExportFilter } from './sources/discrepancies-source';
import { eventsSource } from './sources/events-source';
import { ordersSource, type OrdersExportFilter } from './sources/orders-source';

/** The store's reads an export makes: what a thread that has no store asks the one that has it for. */
export type ExportReads = Pick<LedgerStore, 'listOrders' | 'listDiscrepancies' | 'dailySummary'> & Pick<OperatorQueries, 'exportEventsPage'>;
export type ExportRead = keyof ExportReads;
export const EXPORT_READS: readonly ExportRead[] = ['listOrders', 'listDiscrepancies', 'dailySummary', 'exportEventsPage'];

/**
 * An export as plain data (what a worker message carries): which list, with the filters its page
 * took. The source that reads and words it is made from this wherever the export runs.
 */
export type ExportPlan =
  | { list: 'orders'; filter: OrdersExportFilter; defaultCurrency: string }
  | { list: 'events'; search: Omit<EventSearch, 'limit' | 'offset'>; defaultCurrency: string }
  | { list: 'discrepancies'; filter: DiscrepanciesExportFilter; defaultCurrency: string }
  /** `empty`: the range holds no day to export (it lies after today); nothing is read. */
  | { list: 'summary'; range: SummaryRange; defaultCurrency: string; empty: boolean };

/** The plan's source over `reads`. */
export function exportSourceOf(plan: ExportPlan, reads: ExportReads): ExportSource<unknown> {
  switch (plan.list) {
    case 'orders': return ordersSource(reads, plan.filter, plan.defaultCurrency) as ExportSource<unknown>;
    case 'events': return eventsSource(reads, plan.search, plan.defaultCurrency) as ExportSource<unknown>;
    case 'discrepancies': return discrepanciesSource(reads, plan.filter, plan.defaultCurrency) as ExportSource<unknown>;
    case 'summary': {
      const dailySummary: ExportReads['dailySummary'] = plan.empty ? async () => [] : (range, currency) => reads.dailySummary(range, currency);
      return dailySummarySource({ dailySummary }, plan.range, plan.defaultCurrency) as ExportSource<unknown>;
    }
  }
}
