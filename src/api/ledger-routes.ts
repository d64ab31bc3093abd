import { Router } from 'express';
import type { LedgerStore } from '../ledger/projector/ledger-store';
import type { DiscrepancyCursor } from '../ledger/sql/list-discrepancies';
import { parseBody } from './api-errors';
import { sendJsonList } from './json-in-slices';
import type { MallScope } from './mall-scope';
import { decodeCursor, decodeOrderCursor, encodeCursor, encodeOrderCursor } from './ledger-cursor';
import { discrepancyListQuery, expectationBody, orderListQuery, orderParams, resolveBody } from './schemas/ledger-schema';

const CONFLICT_MESSAGES = {
  wallet_trade_amount: "differs from the amount or currency of this order's wallet-a trade: the amount the service asked the gateway for stands",
  already_paid:
    "this order already has a payment: its expected amount, currency and expiry can no longer change (an amount is in its currency's minor units; a changed one would hide a mismatch or a late payment)",
} as const;

/** The payment ledger: an order's expectation and record, orders by status, discrepancies and their resolution. */
export function ledgerRoutes(ledger: LedgerStore, now: () => Date, malls: MallScope): Router {
  const router = Router();
  router.put('/v1/orders/:mallId/:shopOrderNo/expectation', async (req, res) => {
    const order = malls.served(parseBody(orderParams, req.params));
    const input = parseBody(expectationBody, req.body);
    const result = await ledger.putExpectation(order, input, now().toISOString());
    if (result.outcome === 'conflict') {
      return void res.status(409).json({ error: CONFLICT_MESSAGES[result.conflict.reason], ...result.conflict });
    }
    res.json(result.record);
  });
  router.get('/v1/orders/:mallId/:shopOrderNo', async (req, res) => {
    const order = parseBody(orderParams, req.params);
    const record = malls.serves(order.mallId) ? await ledger.getOrder(order) : null;
    if (!record) return void res.status(404).json({ error: `nothing is known of order ${order.shopOrderNo} of mall ${order.mallId}` });
    res.json(record);
  });
  router.get('/v1/orders', async (req, res) => {
    const query = parseBody(orderListQuery, req.query);
    const page = await ledger.listOrders({ status: query.status, after: decodeOrderCursor(query.after), limit: query.limit });
    // Filtered after the page is read, so a page may hold fewer than `limit`; `next` still says where it ended.
    await sendJsonList(res, 'orders', page.orders.filter((record) => malls.serves(record.mallId)), { next: encodeOrderCursor(page.last) });
  });
  router.get('/v1/discrepancies', async (req, res) => {
    const query = parseBody(discrepancyListQuery, req.query);
    const after = decodeCursor<DiscrepancyCursor & Record<string, string>>(query.after, ['openedAt', 'id']);
    const page = await ledger.listDiscrepancies({ open: query.open === 'true', after, limit: query.limit });
    await sendJsonList(res, 'discrepancies', page.discrepancies.filter((discrepancy) => malls.serves(discrepancy.mallId)), { next: encodeCursor(page.last) });
  });
  router.post('/v1/discrepancies/:id/resolve', async (req, res) => {
    const { note, by } = parseBody(resolveBody, req.body);
    const result = await ledger.resolveDiscrepancy(req.params.id, { note, by, at: now().toISOString(), actor: `${by} (internal API)` });
    if (result.outcome === 'not_found') return void res.status(404).json({ error: `no discrepancy ${req.params.id}` });
    // Resolving twice is harmless: the first resolution stands and the record says whose it is.
    res.json(result.record);
  });
  return router;
}
