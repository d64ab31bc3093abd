import { orderCurrency } from '../ledger/fold/order-currency';
import { Router } from 'express';
import type { EventDetail } from '../store/store';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { PAGE_SIZE, filterQuery, parseEventFilter } from './event-filter';
import { noticeFor } from './notices';
import { notFoundPage } from './pages/not-found-page';
import { renderOffLoop } from './render/off-loop-pages';
import { sessionOf } from './require-session';

export function eventsRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const { store } = deps;
  /** A notification states no currency: its order's expectation does, else the mall's default. */
  const currencyOfEvent = async (detail: EventDetail): Promise<string> => {
    const { mallId, shopOrderNo } = detail.event;
    const order = deps.ledger && shopOrderNo ? await deps.ledger.getOrder({ mallId, shopOrderNo }) : null;
    return orderCurrency(order, deps.config.LEDGER_DEFAULT_CURRENCY);
  };

  router.get('/events', async (req, res) => {
    const filter = parseEventFilter(req.query);
    const rows = await store.searchEvents({ ...filter.search, limit: PAGE_SIZE + 1, offset: (filter.page - 1) * PAGE_SIZE });
    res.type('html').send(await renderOffLoop('events', sessionOf(res), filter, rows.slice(0, PAGE_SIZE), rows.length > PAGE_SIZE, noticeFor(req.query, sessionOf(res).t)));
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
    if (!detail) return res.status(404).type('html').send(notFoundPage(sessionOf(res), 'events', sessionOf(res).t('notFound.event', { id: req.params.id })));
    const notice = noticeFor(req.query, sessionOf(res).t);
    // The ledger's and the commands' own events have no notification behind them.
    if (detail.origin !== 'gateway') return res.type('html').send(await renderOffLoop('internalEvent', sessionOf(res), detail, await store.deliveryAttempts(detail.eventId), notice));
    const [conflicts, attempts, currency] = await Promise.all([store.conflictsOfEvent(detail.eventId), store.deliveryAttempts(detail.eventId), currencyOfEvent(detail)]);
    // Masked and drawn off the loop that acks the gateway: a body may hold a 64 KB field.
    res.type('html').send(await renderOffLoop('event', sessionOf(res), detail, conflicts, attempts, notice, currency));
  });

  router.post('/events/:id/requeue', async (req, res) => {
    const found = await store.requeue(req.params.id, { at: deps.now().toISOString(), actor: sessionOf(res).actor });
    if (!found) return res.status(404).type('html').send(notFoundPage(sessionOf(res), 'events', sessionOf(res).t('notFound.event', { id: req.params.id })));
    await audit(deps, sessionOf(res).actor, 'requeued', req.params.id);
    res.redirect(303, `/console/events/${encodeURIComponent(req.params.id)}?done=requeued`);
  });

  return router;
}
