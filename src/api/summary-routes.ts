import { Router } from 'express';
import type { LedgerStore } from '../ledger/projector/ledger-store';
import { parseBody } from './api-errors';
import { sendJsonList } from './json-in-slices';
import type { MallScope } from './mall-scope';
import { summaryQuery } from './schemas/summary-schema';
import { summaryRangeProblem } from '../ledger/summary/summary-range';

/** The day's money: per KST day, mall and currency, in minor units. */
export function summaryRoutes(ledger: Pick<LedgerStore, 'dailySummary'>, defaultCurrency: string, malls: MallScope): Router {
  const router = Router();
  router.get('/v1/summary/daily', async (req, res) => {
    const { from, to, mallId } = parseBody(summaryQuery, req.query);
    const problem = summaryRangeProblem(from, to);
    if (problem !== null) return void res.status(400).json({ error: `bad range: ${problem}` });
    // A mall outside MALL_IDS is answered as one with no money, as a read of its order is.
    const days = mallId !== undefined && !malls.serves(mallId) ? [] : await ledger.dailySummary({ from, to, mallId: mallId ?? null }, defaultCurrency);
    await sendJsonList(res, 'days', days.filter((d) => malls.serves(d.mallId)));
  });
  return router;
}
