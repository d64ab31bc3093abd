import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { importGatewayList, MAX_IMPORT_BYTES, type ListReader } from '../reconciliation/import/import-list';
import type { ReconciliationStore } from '../reconciliation/import/reconciliation-store';
import type { LedgerStore } from '../ledger/projector/ledger-store';
import { BodyTooLarge, parseBody } from './api-errors';
import type { MallScope } from './mall-scope';
import { dayParams, dayQuery, importQuery } from './schemas/reconciliation-schema';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const LIST_TYPES = [XLSX_TYPE, 'text/csv'];

export interface ReconciliationDeps {
  store: ReconciliationStore;
  ledger: LedgerStore;
  /** Reads a list's bytes off this event loop (a thread of its own). */
  read: ListReader;
}

/**
 * The gateway's transaction lists: an import (the file's bytes as the body, refused by its declared
 * size before a byte is read) and a day's reconciliation. Mounted before the API's JSON-only rule.
 */
export function reconciliationRoutes(deps: ReconciliationDeps, now: () => Date, malls: MallScope): Router {
  const router = Router();
  const listOnly: RequestHandler = (req, res, next) => {
    if (!req.is(LIST_TYPES)) return void res.status(415).json({ error: `send the file's bytes with Content-Type ${XLSX_TYPE} (.xlsx) or text/csv` });
    if (Number(req.headers['content-length'] ?? 0) > MAX_IMPORT_BYTES) throw new BodyTooLarge();
    next();
  };
  const tooLarge: ErrorRequestHandler = (error: { type?: string }, _req, _res, next) => next(error.type === 'entity.too.large' ? new BodyTooLarge() : error);
  router.post('/v1/reconciliation/imports', listOnly, express.raw({ type: LIST_TYPES, limit: MAX_IMPORT_BYTES }), tooLarge, async (req: Request, res: Response) => {
    const query = parseBody(importQuery, req.query);
    const { mallId } = malls.served({ mallId: query.mall });
    const outcome = await importGatewayList(
      { reconciliation: deps.store, ledger: deps.ledger, read: deps.read },
      { bytes: req.body as Buffer, fileName: query.fileName, mallId, actor: 'internal API', at: now().toISOString() },
    );
    if (outcome.outcome === 'refused') return void res.status(422).json({ error: 'the file was not imported: nothing of it is stored', problems: outcome.problems });
    const alreadyImported = outcome.outcome === 'already_imported';
    res.status(alreadyImported ? 200 : 201).json({ ...outcome.summary, alreadyImported });
  });
  router.get('/v1/reconciliation/days/:day', async (req, res) => {
    const { day } = parseBody(dayParams, req.params);
    const { mallId } = parseBody(dayQuery, req.query);
    const days = mallId !== undefined && !malls.serves(mallId) ? [] : await deps.store.reconciliationDay(day, mallId ?? null);
    res.json({ days: days.filter((d) => malls.serves(d.mallId)) });
  });
  return router;
}
