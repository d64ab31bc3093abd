import { Router, type Response } from 'express';
import { isCalendarDay } from '../calendar-day';
import { closeDayIssue } from '../ledger/summary/day-close';
import type { ConsoleDeps } from './console-deps';
import { badRequestPage } from './pages/bad-request-page';
import { dayCloseConfirmPage } from './pages/day-close-confirm-page';
import { notFoundPage } from './pages/not-found-page';
import { summaryDayHref } from './pages/summary-month-page';
import { requireRole, sessionOf } from './require-session';
import { mallOf } from './summary-routes';

type CloseLedger = Required<Pick<NonNullable<ConsoleDeps['ledger']>, 'closeDay' | 'reopenDay' | 'dailySummary'>>;

/**
 * Closing a KST day from its page (an operator) and reopening it (an admin): each POST without
 * `confirm=yes` answers the confirmation page, with it does the change through the verb the CLI and
 * the API use, audited in its transaction and logged, and returns to the day with a notice.
 */
export function summaryCloseRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const defaultCurrency = deps.config.LEDGER_DEFAULT_CURRENCY;
  const withClose = (res: Response): CloseLedger | null => {
    const ledger = deps.ledger;
    if (ledger?.closeDay && ledger.reopenDay && ledger.dailySummary) return { closeDay: ledger.closeDay, reopenDay: ledger.reopenDay, dailySummary: ledger.dailySummary };
    res.status(404).type('html').send(notFoundPage(sessionOf(res), 'summary', sessionOf(res).t('notFound.noLedger')));
    return null;
  };
  const back = (day: string, mallId: string, done: string) => `${summaryDayHref(day, mallId)}${mallId ? '&' : '?'}done=${done}`;

  router.post('/summary/:day/close', async (req, res) => {
    const ledger = withClose(res);
    if (!ledger) return;
    const session = sessionOf(res);
    const day = String(req.params.day);
    const body = req.body as Record<string, unknown>;
    const mallId = mallOf(body.mall);
    const issue = closeDayIssue(day, deps.now());
    if (issue !== null) {
      const words = issue.kind === 'notADay' ? session.t('summary.close.notADay', { day }) : issue.kind === 'notOver'
        ? session.t('summary.close.notOver', { day, today: issue.today }) : session.t('summary.close.tooOld', { day, max: issue.max });
      return res.status(400).type('html').send(badRequestPage(session, 'summary', words));
    }
    if (body.confirm !== 'yes') {
      const days = await ledger.dailySummary({ from: day, to: day, mallId: mallId || null }, defaultCurrency);
      return res.type('html').send(dayCloseConfirmPage(session, { action: 'close', day, mallId, days }));
    }
    const result = await ledger.closeDay(day, mallId || null, { at: deps.now().toISOString(), actor: session.actor }, defaultCurrency);
    if (result.outcome === 'malls_closed') return res.status(409).type('html').send(badRequestPage(session, 'summary', session.t('summary.close.mallsClosed', { day, malls: result.malls.join(', ') })));
    if (result.outcome === 'closed') deps.logger.info('console audit', { audit: { actor: session.actor, action: 'closed day', subject: mallId ? `${day} ${mallId}` : day } });
    res.redirect(303, back(day, mallId, result.outcome === 'closed' ? 'day-closed' : 'day-already-closed'));
  });

  router.post('/summary/:day/reopen', requireRole('admin', deps.logger), async (req, res) => {
    const ledger = withClose(res);
    if (!ledger) return;
    const session = sessionOf(res);
    const day = String(req.params.day);
    const body = req.body as Record<string, unknown>;
    const mallId = mallOf(body.mall);
    if (!isCalendarDay(day)) return res.status(400).type('html').send(badRequestPage(session, 'summary', session.t('summary.badDay', { day })));
    if (body.confirm !== 'yes') {
      const days = await ledger.dailySummary({ from: day, to: day, mallId: mallId || null }, defaultCurrency);
      return res.type('html').send(dayCloseConfirmPage(session, { action: 'reopen', day, mallId, days }));
    }
    const result = await ledger.reopenDay(day, mallId || null, { at: deps.now().toISOString(), actor: session.actor });
    if (result.outcome === 'adjusted_on_closed_days') return res.status(409).type('html').send(badRequestPage(session, 'summary', session.t('summary.close.heldByClosedDays', { day, days: result.days.join(', ') })));
    if (result.outcome === 'reopened') deps.logger.info('console audit', { audit: { actor: session.actor, action: 'reopened day', subject: mallId ? `${day} ${mallId}` : day } });
    res.redirect(303, back(day, mallId, 'day-reopened'));
  });
  return router;
}
