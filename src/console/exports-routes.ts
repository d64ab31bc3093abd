import { Router, type Request, type Response } from 'express';
import { csvWriter } from '../exports/csv-writer';
import type { ExportSource, ExportWords } from '../exports/export-source';
import { kstText } from '../exports/kst-text';
import { kstDay } from '../daily-summary/kst-day';
import { dayProblem, dayRangeIssue, type DayRangeIssue } from '../calendar-day';
import { summaryRangeIssue } from '../daily-summary/summary-range';
import { runExport, type ExportOutcome } from '../exports/run-export';
import { dailySummarySource } from '../exports/sources/daily-summary-source';
import { discrepanciesSource } from '../exports/sources/discrepancies-source';
import { eventsSource } from '../exports/sources/events-source';
import { ordersSource } from '../exports/sources/orders-source';
import { xlsxWriter } from '../exports/xlsx-writer';
import { ORDER_STATUSES, type OrderStatus } from '../ledger/order-record';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { playbookOf } from './discrepancy-playbooks';
import { parseEventFilter } from './event-filter';
import { kstDayEnd, kstDayStart } from './format';
import type { MessageKey } from './i18n/catalogues';
import type { Translator } from './i18n/translator';
import { badRequestPage, rangeIssueText } from './pages/bad-request-page';
import { notFoundPage } from './pages/not-found-page';
import { requireRole, sessionOf } from './require-session';
import { ACTING_ROLE } from './roles';

/** An exported list as the request asks for it: its source, and the filters it applied (for the audit). */
interface ExportRequest {
  source: ExportSource<unknown>;
  filters: Record<string, string>;
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
      source: ordersSource(deps.ledger, { ...(status ? { status } : {}), ...isoRange(range) }, deps.config.LEDGER_DEFAULT_CURRENCY),
      filters: status ? { status } : ({} as Record<string, string>),
    };
  },
  events(deps, query, range) {
    // The page's own filter parser, so the file holds exactly the rows the list shows.
    const filter = parseEventFilter({ ...query, from: range.from, to: range.to });
    const { q, type, state } = filter.form;
    return {
      source: eventsSource(deps.store, filter.search, deps.config.LEDGER_DEFAULT_CURRENCY),
      filters: Object.fromEntries(Object.entries({ q, type, state }).filter(([, value]) => value !== '')),
    };
  },
  discrepancies(deps, query, range) {
    if (!deps.ledger) return null;
    const state = query.state === 'open' || query.state === 'resolved' ? query.state : undefined;
    return {
      source: discrepanciesSource(deps.ledger, { ...(state ? { state } : {}), ...isoRange(range) }, deps.config.LEDGER_DEFAULT_CURRENCY),
      filters: state ? { state } : ({} as Record<string, string>),
    };
  },
  summary(deps, query, range) {
    const ledger = deps.ledger;
    if (!ledger?.dailySummary) return null;
    const { from, to } = summaryDays(range, deps);
    const mall = typeof query.mall === 'string' && /^[\w-]{1,40}$/.test(query.mall.trim()) ? query.mall.trim() : '';
    return {
      source: dailySummarySource({ dailySummary: ledger.dailySummary }, { from, to, mallId: mall || null }, deps.config.LEDGER_DEFAULT_CURRENCY),
      filters: { ...(mall ? { mall } : {}), ...(range.from && range.to ? {} : { days: `${from}..${to}` }) },
    };
  },
};

/** The statuses' and kinds' names in the operator's language, from the pages' own catalogue. */
function exportWords(t: Translator): ExportWords {
  return {
    language: t.locale,
    orderStatus: (code) => t(`orderStatus.${code}` as MessageKey),
    discrepancyKind: (code) => (t.locale === 'en' ? code : playbookOf(code, t.locale)?.name ?? code),
    eventState: (code) => t(`eventState.${code}` as MessageKey),
  };
}

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
    const writer = (format === 'xlsx' ? xlsxWriter : csvWriter)({ out: res, language: session.t.locale });
    const today = kstText(deps.now().toISOString()).slice(0, 10);
    res.status(200);
    res.setHeader('Content-Type', writer.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${list}_${range.from || 'start'}_${range.to || today}.${format}"`);
    res.setHeader('Cache-Control', 'no-store');
    let gone = false;
    res.on('close', () => {
      if (!res.writableFinished) gone = true;
    });
    const outcome = await runExport([made.source], writer, exportWords(session.t), () => gone);
    if (!outcome.complete) writer.abort();
    if (outcome.failure !== undefined) deps.logger.error('export failed', { list, format, rows: outcome.rows, error: outcome.failure });
    await audit(deps, session.actor, 'exported', `${list}.${format}`, auditDetail(range, made.filters, outcome));
  });
  return router;
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
