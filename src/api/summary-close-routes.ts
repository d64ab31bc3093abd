import { Router } from 'express';
import type { LedgerStore } from '../ledger/projector/ledger-store';
import { closeDayProblem } from '../ledger/summary/day-close';
import { dayProblem } from '../calendar-day';
import { parseBody } from './api-errors';
import type { MallScope } from './mall-scope';
import { dayCloseBody, dayParams } from './schemas/summary-schema';

/**
 * Closing a KST day and reopening it, audited under `by`: a closed day's figures and exports stay
 * as they were, and what arrives later for it is booked on the day it arrives as an adjustment.
 */
export function summaryCloseRoutes(ledger: Pick<LedgerStore, 'closeDay' | 'reopenDay' | 'dailySummary'>, defaultCurrency: string, malls: MallScope, now: () => Date): Router {
  const router = Router();
  router.post('/v1/summary/days/:day/close', async (req, res) => {
    const { day } = parseBody(dayParams, req.params);
    const { by, mallId } = parseBody(dayCloseBody, req.body);
    const problem = closeDayProblem(day, now());
    if (problem !== null) return void res.status(400).json({ error: problem });
    if (mallId !== undefined && !malls.serves(mallId)) return void res.status(404).json({ error: `this service does not serve mall ${mallId}` });
    const result = await ledger.closeDay(day, mallId ?? null, { at: now().toISOString(), actor: `${by} (internal API)` }, defaultCurrency);
    if (result.outcome === 'malls_closed') return void res.status(409).json({ error: `${day} is closed for ${result.malls.join(', ')} alone: reopen those, or close each mall` });
    const days = result.outcome === 'closed' ? result.figures : await ledger.dailySummary({ from: day, to: day, mallId: mallId ?? null }, defaultCurrency);
    // Closing a closed day again is harmless: the first close stands and the answer says whose it is.
    res.status(result.outcome === 'closed' ? 201 : 200).json({ ...result.close, days: days.filter((d) => malls.serves(d.mallId)) });
  });
  router.post('/v1/summary/days/:day/reopen', async (req, res) => {
    const { day } = parseBody(dayParams, req.params);
    const { by, mallId } = parseBody(dayCloseBody, req.body);
    const problem = dayProblem(day);
    if (problem !== null) return void res.status(400).json({ error: problem });
    const result = await ledger.reopenDay(day, mallId ?? null, { at: now().toISOString(), actor: `${by} (internal API)` });
    if (result.outcome === 'not_closed') return void res.status(404).json({ error: `${day} is not closed${mallId === undefined ? ' for every mall' : ` for mall ${mallId}`}` });
    if (result.outcome === 'adjusted_on_closed_days') return void res.status(409).json({ error: `${day} has adjustments booked on ${result.days.join(', ')}, closed since: reopen those first` });
    res.json({ day, mallId: mallId ?? null, reopened: true });
  });
  return router;
}
