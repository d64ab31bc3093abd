import { Router } from 'express';
import { audit } from './audit';
import { bodyView } from './body-view';
import type { ConsoleDeps } from './console-deps';
import { PAGE_SIZE, filterQuery, parseEventFilter } from './event-filter';
import { noticeFor } from './notices';
import { eventPage } from './pages/event-page';
import { eventsPage } from './pages/events-page';
import { internalEventPage } from './pages/internal-event-page';
import { notFoundPage } from './pages/not-found-page';
import { sessionOf } from './require-session';

export function eventsRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const { store } = deps;

  router.get('/events', async (req, res) => {
    const filter = parseEventFilter(req.query);
    const rows = await store.searchEvents({ ...filter.search, limit: PAGE_SIZE + 1, offset: (filter.page - 1) * PAGE_SIZE });
    res.type('html').send(eventsPage(sessionOf(res), filter, rows.slice(0, PAGE_SIZE), rows.length > PAGE_SIZE, noticeFor(req.query)));
  });

  router.post('/events/requeue-dead', async (req, res) => {
    const filter = parseEventFilter(req.body as Record<string, unknown>);
    const count = await store.requeueDeadMatching(filter.search, { at: deps.now().toISOString(), actor: sessionOf(res).actor });
    await audit(deps, sessionOf(res).actor, 'requeued all dead', `events${filterQuery(filter.form)}`, `${count} event(s)`);
    const query = filterQuery(filter.form);
    res.redirect(303, `/console/events${query}${query ? '&' : '?'}done=requeued-dead&n=${count}`);
  });

  router.get('/events/:id', async (req, res) => {
    const detail = await store.getEvent(req.params.id);
    if (!detail) return res.status(404).type('html').send(notFoundPage(sessionOf(res), 'events', `No event ${req.params.id}.`));
    const [conflicts, attempts] = await Promise.all([store.conflictsOfEvent(detail.eventId), store.deliveryAttempts(detail.eventId)]);
    // The ledger's and the commands' own events have no notification (no notiType) behind them.
    if (detail.notiType === '') return res.type('html').send(internalEventPage(sessionOf(res), detail, attempts, noticeFor(req.query)));
    res.type('html').send(eventPage(sessionOf(res), detail, bodyView(detail.rawBody, detail.contentType), conflicts, attempts, noticeFor(req.query)));
  });

  router.post('/events/:id/requeue', async (req, res) => {
    const found = await store.requeue(req.params.id, { at: deps.now().toISOString(), actor: sessionOf(res).actor });
    if (!found) return res.status(404).type('html').send(notFoundPage(sessionOf(res), 'events', `No event ${req.params.id}.`));
    await audit(deps, sessionOf(res).actor, 'requeued', req.params.id);
    res.redirect(303, `/console/events/${encodeURIComponent(req.params.id)}?done=requeued`);
  });

  return router;
}
