import { Router } from 'express';
import { compareConflict } from '../operator/conflict-comparison';
import { rowIdOf } from '../row-id';
import type { ConsoleDeps } from './console-deps';
import { conflictPage, conflictsPage } from './pages/conflicts-page';
import { notFoundPage } from './pages/not-found-page';
import { sessionOf } from './require-session';

export function conflictsRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const { store } = deps;

  router.get('/conflicts', async (_req, res) => {
    res.type('html').send(conflictsPage(sessionOf(res), await store.listConflicts(200)));
  });

  router.get('/conflicts/:id', async (req, res) => {
    const id = rowIdOf(req.params.id);
    const conflict = id === null ? null : await store.getConflict(id);
    if (!conflict) return res.status(404).type('html').send(notFoundPage(sessionOf(res), 'conflicts', sessionOf(res).t('notFound.conflict', { id: req.params.id })));
    const stored = await store.getEvent(conflict.eventId);
    res.type('html').send(conflictPage(sessionOf(res), conflict, stored, compareConflict(conflict, stored)));
  });

  return router;
}
