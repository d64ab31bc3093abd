import { Router, type Response } from 'express';
import { isCalendarDay, monthProblem } from '../calendar-day';
import { addDays, kstDay } from '../ledger/summary/kst-day';
import type { ConsoleDeps } from './console-deps';
import { badRequestPage } from './pages/bad-request-page';
import { notFoundPage } from './pages/not-found-page';
import { summaryDayPage } from './pages/summary-day-page';
import { summaryMonthPage } from './pages/summary-month-page';
import { sessionOf } from './require-session';
import { closeDayIssue, DAY_ORDER_LIMIT } from '../ledger/summary/day-close';
import { noticeFor } from './notices';

/** The day page lists this many orders at most (a busy day's full list is an export's job); a close keeps as many. */
const DAY_ORDERS = DAY_ORDER_LIMIT;
/** Open discrepancies read to mark the calendar's days: the list the Discrepancies page pages through. */
const OPEN_READ = 500;

type SummaryLedger = Required<Pick<NonNullable<ConsoleDeps['ledger']>, 'dailySummary' | 'dayOrders' | 'listDiscrepancies'>>;

export const mallOf = (value: unknown) => (typeof value === 'string' && /^[\w-]{1,40}$/.test(value.trim()) ? value.trim() : '');

/** Settling the day: a month of net amounts per day, and a day's figures with its orders. KST throughout. */
export function summaryRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const defaultCurrency = deps.config.LEDGER_DEFAULT_CURRENCY;
  const withSummary = (res: Response): SummaryLedger | null => {
    const ledger = deps.ledger;
    if (ledger?.dailySummary && ledger.dayOrders) return { dailySummary: ledger.dailySummary, dayOrders: ledger.dayOrders, listDiscrepancies: ledger.listDiscrepancies };
    res.status(404).type('html').send(notFoundPage(sessionOf(res), 'summary', sessionOf(res).t('notFound.noLedger')));
    return null;
  };

  router.get('/summary', async (req, res) => {
    const ledger = withSummary(res);
    if (!ledger) return;
    const today = kstDay(deps.now().toISOString());
    // The month asked for, else today's; one that does not exist is said so, never read as another.
    const asked = req.query.month;
    if (asked !== undefined && asked !== '' && (typeof asked !== 'string' || monthProblem(asked) !== null)) {
      const session = sessionOf(res);
      return res.status(400).type('html').send(badRequestPage(session, 'summary', session.t('summary.badMonth', { month: String(asked) })));
    }
    const month = asked || today.slice(0, 7);
    const from = `${month}-01`;
    const to = addDays(`${addDays(from, 31).slice(0, 7)}-01`, -1);
    const mallId = mallOf(req.query.mall);
    const [days, open] = await Promise.all([
      ledger.dailySummary({ from, to, mallId: mallId || null }, defaultCurrency),
      ledger.listDiscrepancies({ open: true, limit: OPEN_READ }),
    ]);
    const openDays = new Set(open.discrepancies.filter((d) => !mallId || d.mallId === mallId).map((d) => kstDay(d.openedAt)));
    res.type('html').send(summaryMonthPage(sessionOf(res), {
      month, previous: addDays(from, -1).slice(0, 7), next: addDays(to, 1).slice(0, 7), today, mallId, days, openDays,
    }));
  });

  router.get('/summary/:day', async (req, res) => {
    const ledger = withSummary(res);
    if (!ledger) return;
    const { day } = req.params;
    const session = sessionOf(res);
    if (!isCalendarDay(day)) return res.status(400).type('html').send(badRequestPage(session, 'summary', session.t('summary.badDay', { day })));
    const mallId = mallOf(req.query.mall);
    const [days, live, kept, closes, payoutDifferences] = await Promise.all([
      ledger.dailySummary({ from: day, to: day, mallId: mallId || null }, defaultCurrency),
      ledger.dayOrders(day, mallId || null, DAY_ORDERS),
      deps.ledger?.closedDayOrders?.(day, mallId || null) ?? null,
      deps.ledger?.dayCloses?.(day, day, mallId || null) ?? [],
      deps.ledger?.payoutDifferences?.(day, day, mallId || null) ?? [],
    ]);
    const close = { day, mallId, over: closeDayIssue(day, deps.now()) === null, closes };
    // A closed day lists its orders as they stood at the close, as its figures are.
    const orders = kept ?? live;
    res.type('html').send(summaryDayPage(session, {
      day, previous: addDays(day, -1), next: addDays(day, 1), mallId, days, orders, limit: DAY_ORDERS, defaultCurrency, close, payoutDifferences, ordersAsClosed: kept !== null, notice: noticeFor(req.query, session.t),
    }));
  });
  return router;
}
