import { Router } from 'express';
import { rowIdOf } from '../row-id';
import type { ConsoleDeps } from './console-deps';
import { notFoundPage } from './pages/not-found-page';
import { renderOffLoop } from './render/off-loop-pages';
import { sessionOf } from './require-session';

export function conflictsRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const { store } = deps;

  router.get('/conflicts', async (_req, res) => {
    res.type('html').send(await renderOffLoop('conflicts', sessionOf(res), await store.listConflictLines(200)));
  });

  router.get('/conflicts/:id', async (req, res) => {
    const id = rowIdOf(req.params.id);
    const conflict = id === null ? null : await store.getConflict(id);
    if (!conflict) return res.status(404).type('html').send(notFoundPage(sessionOf(res), 'conflicts', sessionOf(res).t('notFound.conflict', { id: req.params.id })));
    const stored = await store.getEvent(conflict.eventId);
    res.type('html').send(await renderOffLoop('conflict', sessionOf(res), conflict, stored));
  });

  return router;
}
