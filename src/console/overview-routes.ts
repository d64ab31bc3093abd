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
    const [counts, backlog, problems, series, lastRetention] = await Promise.all([
      store.eventCounts(),
      store.backlog(now.getTime()),
      store.problemsSince(new Date(now.getTime() - DAY_MS).toISOString()),
      activity(now),
      store.lastRetentionRun(),
    ]);
    res.type('html').send(overviewPage(sessionOf(res), { counts, backlog, problems, activity: series, retentionDays: deps.config.RETENTION_DAYS, lastRetention }));
  });

  // The chart's data: JSON, fetched by the page's own script (no inline script, so the CSP can forbid them).
  router.get('/api/activity', async (_req, res) => {
    res.json(await activity(deps.now()));
  });

  return router;
}
