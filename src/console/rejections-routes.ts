import { Router } from 'express';
import { reprocessRejection } from '../operator/reprocess-rejection';
import { rowIdOf } from '../row-id';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { notFoundPage } from './pages/not-found-page';
import { noticeFor } from './notices';
import { renderOffLoop } from './render/off-loop-pages';
import { sessionOf } from './require-session';

export function rejectionsRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const { store } = deps;

  router.get('/rejections', async (_req, res) => {
    res.type('html').send(await renderOffLoop('rejections', sessionOf(res), await store.listRejectionLines(200)));
  });

  router.get('/rejections/:id', async (req, res) => {
    const id = rowIdOf(req.params.id);
    const row = id === null ? null : await store.getRejection(id);
    if (!row) return res.status(404).type('html').send(notFoundPage(sessionOf(res), 'rejections', sessionOf(res).t('notFound.rejection', { id: req.params.id })));
    res.type('html').send(await renderOffLoop('rejection', sessionOf(res), row, null, noticeFor(req.query, sessionOf(res).t)));
  });

  router.post('/rejections/:id/reprocess', async (req, res) => {
    const id = rowIdOf(req.params.id);
    const row = id === null ? null : await store.getRejection(id);
    if (!row) return res.status(404).type('html').send(notFoundPage(sessionOf(res), 'rejections', sessionOf(res).t('notFound.rejection', { id: req.params.id })));
    const actor = sessionOf(res).actor;
    const result = await reprocessRejection(row, { store, config: deps.config, logger: deps.logger, now: deps.now });
    if (!result.ok) {
      await audit(deps, actor, 'reprocess refused', `rejection ${row.id}`, result.reasons.join('; '));
      res.status(422).type('html').send(await renderOffLoop('rejection', sessionOf(res), row, result.reasons, null));
      return;
    }
    await audit(deps, actor, 'reprocessed', `rejection ${row.id}`, `${result.outcome} as ${result.eventId}`);
    const done = result.outcome === 'accepted' ? 'reprocessed' : result.outcome === 'already-reprocessed' ? 'already-reprocessed' : 'duplicate';
    res.redirect(303, `/console/events/${encodeURIComponent(result.eventId)}?done=${done}`);
  });

  return router;
}
