import { Router } from 'express';
import { isCalendarDay } from '../calendar-day';
import { addDays, kstDay } from '../ledger/summary/kst-day';
import type { ConsoleDeps } from './console-deps';
import { noticeFor } from './notices';
import { badRequestPage } from './pages/bad-request-page';
import { notFoundPage } from './pages/not-found-page';
import { reconcilePage } from './pages/reconcile-page';
import { sessionOf } from './require-session';

/** Differences listed per mall on the page; the counts above them count every one. */
const LISTED = 200;

const mallOf = (value: unknown) => (typeof value === 'string' && /^[\w-]{1,40}$/.test(value.trim()) ? value.trim() : '');

/**
 * 대사 / Reconcile by KST day: yesterday's by default, the day an accountant settles in the morning.
 * After an import or a close the page shows one of the console's fixed notices (`?done=`).
 */
export function reconcileRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  router.get('/reconcile', async (req, res) => {
    const session = sessionOf(res);
    const reconciliation = deps.reconciliation;
    if (!reconciliation) return void res.status(404).type('html').send(notFoundPage(session, 'reconcile', session.t('notFound.noLedger')));
    const asked = req.query.day;
    const day = typeof asked === 'string' && asked !== '' ? asked : addDays(kstDay(deps.now().toISOString()), -1);
    if (!isCalendarDay(day)) return void res.status(400).type('html').send(badRequestPage(session, 'reconcile', session.t('summary.badDay', { day })));
    const mallId = mallOf(req.query.mall);
    const ledger = deps.ledger;
    const [malls, summary, closes] = await Promise.all([
      reconciliation.reconciliationDay(day, mallId || null, LISTED),
      ledger?.dailySummary ? ledger.dailySummary({ from: day, to: day, mallId: mallId || null }, deps.config.LEDGER_DEFAULT_CURRENCY) : [],
      ledger?.dayCloses ? ledger.dayCloses(day, day, mallId || null) : [],
    ]);
    const payouts = summary.flatMap((d) => (d.settlement ? [{ mallId: d.mallId, ...d.settlement }] : []));
    // The store's close, else the mall's own: what the day's money page shows as closed.
    const close = closes.find((c) => c.mallId === null) ?? closes.find((c) => c.mallId === mallId) ?? null;
    res.type('html').send(reconcilePage(session, {
      day, previous: addDays(day, -1), next: addDays(day, 1), mallId, malls, payouts,
      close: close && { closedAt: close.closedAt, closedBy: close.closedBy },
    }, noticeFor(req.query, session.t)));
  });
  return router;
}
