import { Router, type Response } from 'express';
import { decodeCursor, encodeCursor } from '../api/ledger-cursor';
import { ORDER_STATUSES, type OrderStatus } from '../ledger/fold/order-record';
import { rowIdOf } from '../row-id';
import type { DiscrepancyCursor } from '../ledger/sql/list-discrepancies';
import type { ConsoleDeps } from './console-deps';
import { kstDayEnd, kstDayStart } from './format';
import { noticeFor } from './notices';
import { bankMessages, mayCancel, paymentViews } from './payment-cancel';
import { paymentPage, paymentPageNumber } from './payment-page';
import { orderToOpen, searchFormOf, searchOrders } from './order-search';
import { discrepanciesPage } from './pages/discrepancies-page';
import { notFoundPage } from './pages/not-found-page';
import { orderHref } from './pages/order-status-badge';
import { ordersPage } from './pages/orders-page';
import { renderOffLoop } from './render/off-loop-pages';
import { sessionOf } from './require-session';

const PAGE_SIZE = 100;
const NOTE_MAX = 2000;

type Ledger = NonNullable<ConsoleDeps['ledger']>;

/** An order-list cursor in the URL: the last row's order_id (the list is newest first by the order orders were first seen). */
const cursorOf = (last: number | null) => (last === null ? null : String(last));
/** Anything else (an edited or stale link) starts the list again rather than failing. */
const afterOf = (cursor: unknown) => rowIdOf(cursor) ?? undefined;
/** A KST day as typed in the date filter; anything else is no bound. */
const dayOf = (value: unknown) => (typeof value === 'string' && kstDayStart(value) !== null ? value : '');
/** A discrepancy list's cursor in the URL, as the internal API gives it; a bad one starts the list again. */
function discrepancyAfter(cursor: unknown): DiscrepancyCursor | undefined {
  if (typeof cursor !== 'string') return undefined;
  try {
    return decodeCursor<DiscrepancyCursor & Record<string, string>>(cursor, ['openedAt', 'id']);
  } catch {
    return undefined;
  }
}

/** The payment ledger's pages: Orders, an order's figures and timeline, Discrepancies and their Resolve. */
export function ledgerRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const defaultCurrency = deps.config.LEDGER_DEFAULT_CURRENCY;
  const withLedger = (res: Response, section: 'orders' | 'discrepancies'): Ledger | null => {
    if (deps.ledger) return deps.ledger;
    res.status(404).type('html').send(notFoundPage(sessionOf(res), section, sessionOf(res).t('notFound.noLedger')));
    return null;
  };

  router.get('/orders', async (req, res) => {
    const ledger = withLedger(res, 'orders');
    if (!ledger) return;
    const q = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    const status = ORDER_STATUSES.includes(req.query.status as OrderStatus) ? (req.query.status as OrderStatus) : undefined;
    const [from, to] = [dayOf(req.query.from), dayOf(req.query.to)];
    const range = { ...(from ? { from: kstDayStart(from)! } : {}), ...(to ? { to: kstDayEnd(to)! } : {}) };
    const view = { q: '', status: status ?? '', from, to, paged: false, defaultCurrency };
    if (q) {
      const form = searchFormOf(req.query);
      const hits = await searchOrders(ledger, form, defaultCurrency, PAGE_SIZE);
      // One order found (the usual case: "I paid 12,000 won yesterday"): straight to it, as a support call needs.
      const open = orderToOpen(hits);
      if (open) return res.redirect(303, orderHref(open.mallId, open.shopOrderNo));
      return res.type('html').send(ordersPage(sessionOf(res), { ...view, q, status: '', orders: [], search: { form, hits }, counts: await ledger.orderStatusCounts(range), next: null }));
    }
    const after = afterOf(req.query.after);
    const [page, counts] = await Promise.all([
      ledger.listOrders({ status, after, limit: PAGE_SIZE, newestFirst: true, ...range }),
      ledger.orderStatusCounts(range),
    ]);
    res.type('html').send(ordersPage(sessionOf(res), { ...view, orders: page.orders, counts, next: cursorOf(page.last), paged: after !== undefined }));
  });

  router.get('/orders/:mallId/:shopOrderNo', async (req, res) => {
    const ledger = withLedger(res, 'orders');
    if (!ledger) return;
    const { mallId, shopOrderNo } = req.params;
    const { t } = sessionOf(res);
    const order = await ledger.getOrder({ mallId, shopOrderNo });
    if (!order) return res.status(404).type('html').send(notFoundPage(sessionOf(res), 'orders', t('notFound.order', { shopOrderNo, mallId })));
    // What the gateway said about each payment of the page asked for (`?payments=`), and its Cancel
    // for those who may (payment-cancel.ts): plain data, drawn on the page thread.
    const { shown, ...page } = paymentPage(order, paymentPageNumber(req.query.payments));
    const payments = { views: await paymentViews(deps, order, shown), canCancel: deps.gatewayCommands != null && await mayCancel(deps, sessionOf(res)), page };
    const listings = ledger.gatewayListings ? await ledger.gatewayListings({ mallId, shopOrderNo }) : [];
    res.type('html').send(await renderOffLoop('order', sessionOf(res), order, noticeFor(req.query, t), defaultCurrency, payments, await bankMessages(deps, order), listings));
  });

  router.get('/discrepancies', async (req, res) => {
    const ledger = withLedger(res, 'discrepancies');
    if (!ledger) return;
    // Two lists, each a page at a time as the internal API pages them: the open ones, and the
    // resolved ones (with who resolved them and why) in the order they opened. Each is listed once.
    const [open, resolved, counts] = await Promise.all([
      ledger.listDiscrepancies({ open: true, after: discrepancyAfter(req.query.open_after), limit: PAGE_SIZE }),
      ledger.listDiscrepancies({ open: false, resolved: true, after: discrepancyAfter(req.query.resolved_after), limit: PAGE_SIZE }),
      ledger.openDiscrepancyCounts(),
    ]);
    const openCount = Object.values(counts).reduce((sum, n) => sum + n, 0);
    res.type('html').send(discrepanciesPage(sessionOf(res), {
      open: open.discrepancies, openCount, resolved: resolved.discrepancies,
      openNext: encodeCursor(open.last), resolvedNext: encodeCursor(resolved.last),
      openAfter: typeof req.query.open_after === 'string' ? req.query.open_after : null,
      resolvedAfter: typeof req.query.resolved_after === 'string' ? req.query.resolved_after : null,
      currencies: { ...open.currencies, ...resolved.currencies },
      simulated: new Set([...open.simulated, ...resolved.simulated]),
      defaultCurrency,
    }, noticeFor(req.query, sessionOf(res).t)));
  });

  // An operator's action (the router's default role check refuses a viewer's POST before this runs).
  router.post('/discrepancies/:id/resolve', async (req, res) => {
    const ledger = withLedger(res, 'discrepancies');
    if (!ledger) return;
    const session = sessionOf(res);
    const body = req.body as Record<string, unknown>;
    const note = typeof body.note === 'string' ? body.note.trim() : '';
    if (note === '' || note.length > NOTE_MAX) {
      return res.status(400).type('html').send(notFoundPage(session, 'discrepancies', session.t('resolve.noteNeeded', { max: NOTE_MAX })));
    }
    // The same verb as the internal API and the CLI: audited in its transaction, the order recomputed.
    const result = await ledger.resolveDiscrepancy(req.params.id, { by: session.operator, note, at: deps.now().toISOString(), actor: session.actor });
    if (result.outcome === 'not_found') return res.status(404).type('html').send(notFoundPage(session, 'discrepancies', session.t('notFound.discrepancy', { id: req.params.id })));
    if (result.outcome === 'resolved') deps.logger.info('console audit', { audit: { actor: session.actor, action: 'resolved discrepancy', subject: req.params.id } });
    const done = result.outcome === 'resolved' ? 'resolved' : 'already-resolved';
    const back = body.back === 'list' ? '/console/discrepancies' : orderHref(result.record.mallId, result.record.shopOrderNo);
    res.redirect(303, `${back}?done=${done}`);
  });

  return router;
}
