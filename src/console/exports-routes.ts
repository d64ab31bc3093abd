import { Router, type Request, type Response } from 'express';
import { csvContentType, type CsvEncoding } from '../exports/csv-writer';
import type { ExportPlan, ExportReads } from '../exports/export-plan';
import { kstText } from '../exports/kst-text';
import { kstDay } from '../ledger/summary/kst-day';
import { dayProblem, dayRangeIssue, type DayRangeIssue } from '../calendar-day';
import { summaryRangeIssue } from '../ledger/summary/summary-range';
import type { ExportOutcome } from '../exports/run-export';
import { XLSX_CONTENT_TYPE } from '../exports/xlsx-writer';
import { ORDER_STATUSES, type OrderStatus } from '../ledger/fold/order-record';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { parseEventFilter } from './event-filter';
import { kstDayEnd, kstDayStart } from './format';
import { badRequestPage, rangeIssueText } from './pages/bad-request-page';
import { notFoundPage } from './pages/not-found-page';
import { exportOffLoop } from './render/off-loop-export';
import { requireRole, sessionOf } from './require-session';
import { ACTING_ROLE } from './roles';

/** An exported list as the request asks for it: its plan (made into rows on the export thread), and the filters it applied (for the audit). */
interface ExportRequest {
  plan: ExportPlan;
  filters: Record<string, string>;
  /** The days the file holds, when they differ from the ones asked for (the file is named by them). */
  days?: Range;
}

type Range = { from: string; to: string };

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.trim().slice(0, max) : '');
const isoRange = (range: Range) => ({ ...(range.from ? { from: kstDayStart(range.from)! } : {}), ...(range.to ? { to: kstDayEnd(range.to)! } : {}) });

/**
 * Each exportable list by its name in the URL, with the same filters its page takes. A new list
 * is one entry here over one source module.
 */
const LISTS: Record<string, (deps: ConsoleDeps, query: Record<string, unknown>, range: Range) => ExportRequest | null> = {
  orders(deps, query, range) {
    if (!deps.ledger) return null;
    const status = ORDER_STATUSES.includes(query.status as OrderStatus) ? (query.status as OrderStatus) : undefined;
    return {
      plan: { list: 'orders', filter: { ...(status ? { status } : {}), ...isoRange(range) }, defaultCurrency: deps.config.LEDGER_DEFAULT_CURRENCY },
      filters: status ? { status } : ({} as Record<string, string>),
    };
  },
  events(deps, query, range) {
    // The page's own filter parser, so the file holds exactly the rows the list shows.
    const filter = parseEventFilter({ ...query, from: range.from, to: range.to });
    const { q, type, state } = filter.form;
    return {
      plan: { list: 'events', search: filter.search, defaultCurrency: deps.config.LEDGER_DEFAULT_CURRENCY },
      filters: Object.fromEntries(Object.entries({ q, type, state }).filter(([, value]) => value !== '')),
    };
  },
  discrepancies(deps, query, range) {
    if (!deps.ledger) return null;
    const state = query.state === 'open' || query.state === 'resolved' ? query.state : undefined;
    return {
      plan: { list: 'discrepancies', filter: { ...(state ? { state } : {}), ...isoRange(range) }, defaultCurrency: deps.config.LEDGER_DEFAULT_CURRENCY },
      filters: state ? { state } : ({} as Record<string, string>),
    };
  },
  summary(deps, query, range) {
    const ledger = deps.ledger;
    if (!ledger?.dailySummary) return null;
    // The range was checked before the route got here (rangeIssueOf): a bare link takes this month so far.
    const asked = summaryDays(range, deps);
    const today = kstDay(deps.now().toISOString());
    // No day after today (in Korea): a day not yet lived has no money, and a month of zero rows
    // under the real ones reads as a month that was counted and found empty.
    const to = asked.to > today ? today : asked.to;
    const from = asked.from;
    const mall = typeof query.mall === 'string' && /^[\w-]{1,40}$/.test(query.mall.trim()) ? query.mall.trim() : '';
    const clamped = from !== range.from || to !== range.to;
    return {
      plan: { list: 'summary', range: { from, to, mallId: mall || null }, defaultCurrency: deps.config.LEDGER_DEFAULT_CURRENCY, empty: from > to },
      filters: { ...(mall ? { mall } : {}), ...(clamped ? { days: from > to ? 'none' : `${from}..${to}` } : {}) },
      ...(clamped && from <= to ? { days: { from, to } } : {}),
    };
  },
};

/** `done` in English, as every audit detail is stored (the Audit page reads it back in the viewer's words). */
function auditDetail(range: Range, filters: Record<string, string>, outcome: ExportOutcome): string {
  const filterText = Object.entries(filters).map(([key, value]) => `${key}=${value}`).join('&');
  const end = outcome.complete ? 'complete' : outcome.failure !== undefined ? 'failed' : 'client disconnected';
  return `range ${range.from || '…'} to ${range.to || '…'}; filters ${filterText || 'none'}; ${outcome.rows} rows; ${end}`;
}

/**
 * Downloads of the Orders, Events and Discrepancies lists and the daily money as .xlsx or CSV (`/console/exports/orders.xlsx?from=…&to=…&status=…`).
 * A GET changes nothing, but the files hold the shop's payments: an operator at least, and every
 * download is audited once it ends, however it ends.
 */
export function exportsRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  router.get('/exports/:file', requireRole(ACTING_ROLE, deps.logger), async (req: Request<{ file: string }>, res: Response) => {
    const session = sessionOf(res);
    const match = /^(\w+)\.(xlsx|csv)$/.exec(req.params.file);
    // Checked before anything is read: a day that does not exist is said so, never dropped from the filter.
    const issue = rangeIssueOf(req.query, match?.[1] === 'summary' ? deps : null);
    if (issue !== null) return res.status(400).type('html').send(badRequestPage(session, 'orders', rangeIssueText(session.t, issue)));
    const range = rangeOf(req.query);
    const made = match && Object.hasOwn(LISTS, match[1]!) ? LISTS[match[1]!]!(deps, req.query, range) : null;
    if (!match || !made) return res.status(404).type('html').send(notFoundPage(session, 'orders', session.t('notFound.export')));
    const [list, format] = [match[1]!, match[2] as 'xlsx' | 'csv'];
    const encoding = format === 'csv' ? csvEncodingOf(req.query.encoding) : null;
    const today = kstText(deps.now().toISOString()).slice(0, 10);
    res.status(200);
    res.setHeader('Content-Type', format === 'xlsx' ? XLSX_CONTENT_TYPE : csvContentType(encoding ?? 'utf-8'));
    const days = made.days ?? range;
    res.setHeader('Content-Disposition', `attachment; filename="${list}_${days.from || 'start'}_${days.to || today}.${format}"`);
    res.setHeader('Cache-Control', 'no-store');
    const job = { plan: made.plan, format, encoding: encoding ?? 'utf-8', locale: session.t.locale } as const;
    const outcome = await exportOffLoop(job, exportReads(deps), res, { ...(deps.exportStallMs === undefined ? {} : { stallMs: deps.exportStallMs }) });
    if (outcome.failure !== undefined) deps.logger.error('export failed', { list, format, rows: outcome.rows, error: outcome.failure });
    const filters = encoding === 'cp949' ? { ...made.filters, encoding } : made.filters;
    await audit(deps, session.actor, 'exported', `${list}.${format}`, auditDetail(range, filters, outcome));
  });
  return router;
}

/** The store's reads an export thread may ask for; one of the ledger's, without a ledger, fails that export. */
function exportReads(deps: ConsoleDeps): ExportReads {
  const ledger = () => {
    if (!deps.ledger) throw new Error('the payment ledger is not running here');
    return deps.ledger;
  };
  return {
    listOrders: (filter) => ledger().listOrders(filter),
    listDiscrepancies: (filter) => ledger().listDiscrepancies(filter),
    dailySummary: (range, currency) => {
      const read = ledger();
      if (!read.dailySummary) throw new Error('the daily summary is not kept here');
      return read.dailySummary(range, currency);
    },
    exportEventsPage: (search, before, limit) => deps.store.exportEventsPage(search, before, limit),
  };
}

/** `encoding=cp949` for the Korean Windows code page; anything else is the UTF-8 file. */
function csvEncodingOf(value: unknown): CsvEncoding {
  return typeof value === 'string' && value.trim().toLowerCase() === 'cp949' ? 'cp949' : 'utf-8';
}

/** The month view's and day page's forms always send both days; a bare link takes this month so far. */
function summaryDays(range: Range, deps: ConsoleDeps): Range {
  const to = range.to || kstDay(deps.now().toISOString());
  return { from: range.from || `${to.slice(0, 7)}-01`, to };
}

/**
 * What is wrong with the range asked for, or null: a day that does not exist, `to` before `from`;
 * for the daily summary (`summary`: its deps), also more days than it answers, counted from the two dates.
 */
function rangeIssueOf(query: Record<string, unknown>, summary: ConsoleDeps | null): DayRangeIssue | null {
  const [from, to] = [text(query.from, 40), text(query.to, 40)];
  const fromProblem = from === '' ? null : dayProblem(from);
  if (fromProblem !== null) return { kind: 'badFrom', day: from, problem: fromProblem };
  const toProblem = to === '' ? null : dayProblem(to);
  if (toProblem !== null) return { kind: 'badTo', day: to, problem: toProblem };
  if (summary !== null) {
    const days = summaryDays({ from, to }, summary);
    return summaryRangeIssue(days.from, days.to);
  }
  return from !== '' && to !== '' ? dayRangeIssue(from, to) : null;
}

function rangeOf(query: Record<string, unknown>): Range {
  const day = (value: unknown) => (kstDayStart(text(value, 10)) ? text(value, 10) : '');
  return { from: day(query.from), to: day(query.to) };
}
