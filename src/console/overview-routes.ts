import { Router } from 'express';
import { activitySeries, activitySince } from './activity-series';
import type { ConsoleDeps } from './console-deps';
import { overviewPage } from './pages/overview-page';
import { sessionOf } from './require-session';

const DAY_MS = 24 * 60 * 60 * 1000;

export function overviewRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const { store } = deps;
  const activity = async (now: Date) => activitySeries(await store.eventActivity(activitySince(now)), now);

  router.get('/', async (_req, res) => {
    const now = deps.now();
    const [counts, backlog, problems, series, lastRetention, commandCounts, discrepancyCounts, ledgerLag] = await Promise.all([
      store.eventCounts(),
      store.backlog(now.getTime()),
      store.problemsSince(new Date(now.getTime() - DAY_MS).toISOString()),
      activity(now),
      store.lastRetentionRun(),
      deps.commands ? deps.commands.countByState() : null,
      deps.ledger ? deps.ledger.openDiscrepancyCounts() : null,
      deps.ledger?.lag ? deps.ledger.lag(now) : null,
    ]);
    // Money the merchant may be losing (a changed amount, a double payment, a failed refund) belongs there too.
    const openDiscrepancies = discrepancyCounts && Object.values(discrepancyCounts).reduce((sum, n) => sum + n, 0);
    // A failed net-cancel may mean a customer was charged for nothing: it belongs on the first screen.
    const failedCommands = commandCounts && commandCounts.filter((c) => c.state === 'failed' || c.state === 'net_cancel_failed').reduce((sum, c) => sum + c.count, 0);
    res.type('html').send(
      overviewPage(sessionOf(res), {
        counts, backlog, problems, activity: series, retentionDays: deps.config.RETENTION_DAYS, lastRetention, failedCommands, openDiscrepancies,
        ledgerLagMs: ledgerLag && ledgerLag.seconds * 1000,
        delivery: deps.deliveryReadiness?.() ?? null,
      }),
    );
  });

  // The chart's data: JSON, fetched by the page's own script (no inline script, so the CSP can forbid them).
  router.get('/api/activity', async (_req, res) => {
    res.json(await activity(deps.now()));
  });

  return router;
}
