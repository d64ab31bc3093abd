import express, { type Express } from 'express';
import type { CommandDeps } from '../commands/command-deps';
import { apiErrorHandler } from './api-errors';
import { bearerAuth, bearerCheck } from './bearer-auth';
import { commandRoutes } from './command-routes';
import type { LedgerStore } from '../ledger/projector/ledger-store';
import { ledgerRoutes } from './ledger-routes';
import { summaryRoutes } from './summary-routes';
import { summaryCloseRoutes } from './summary-close-routes';
import { asyncApiDocument } from '../contract/asyncapi-document';
import { deploymentAsyncApiDocument, type QueueSettings } from '../contract/deployment-asyncapi';
import { mallScope } from './mall-scope';
import { openApiDocument } from './openapi';
import { queryRoutes } from './query-routes';
import { strictJsonBody } from './strict-json-body';
import { apiRequestSpan } from './api-request-span';
import { reconciliationRoutes, type ReconciliationDeps } from './reconciliation-routes';

export interface ApiDeps {
  commands: CommandDeps;
  apiToken: string;
  /** The payment ledger's routes. */
  ledger?: LedgerStore;
  /** LEDGER_DEFAULT_CURRENCY: the day's money of orders without an expectation is in it (default KRW). */
  defaultCurrency?: string;
  /** MALL_IDS: the malls this service calls the gateway and keeps orders for; empty is every mall. */
  mallIds?: readonly string[];
  /** QUEUE_URL and QUEUE_NAME: what GET /v1/asyncapi.json describes; without them, the generic document of docs/asyncapi.json. */
  queue?: QueueSettings;
  /** The gateway's lists: imports and the day's reconciliation. */
  reconciliation?: ReconciliationDeps;
}

/** The internal API's app: its own listener, never the notification port, every route behind the token. */
export function createApiApp(deps: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  const authenticated = bearerCheck(deps.apiToken);
  if (deps.commands.tracing) app.use(apiRequestSpan(deps.commands.tracing, authenticated));
  app.use(bearerAuth(authenticated));
  const malls = mallScope(deps.mallIds ?? []);
  // A list's bytes are the body of its import: before the JSON body and the JSON-only rule.
  if (deps.reconciliation) app.use(reconciliationRoutes(deps.reconciliation, deps.commands.now, malls));
  app.use(strictJsonBody(64 * 1024));
  const jsonOnly: express.RequestHandler = (req, res, next) => {
    if (req.is(['application/json', 'application/*+json'])) return next();
    res.status(415).json({ error: 'send the body as JSON with Content-Type: application/json' });
  };
  app.post(/.*/, jsonOnly);
  app.put(/.*/, jsonOnly);
  const document = openApiDocument();
  app.get('/v1/openapi.json', (_req, res) => void res.json(document));
  // The queue's contract beside the API's, as this deployment publishes: made on first request, as nothing else needs it.
  let events: Record<string, unknown> | null = null;
  app.get('/v1/asyncapi.json', (_req, res) => void res.json((events ??= deps.queue ? deploymentAsyncApiDocument(deps.queue) : asyncApiDocument())));
  app.use(commandRoutes(deps.commands, malls));
  app.use(queryRoutes(deps.commands.store, malls));
  if (deps.ledger) app.use(ledgerRoutes(deps.ledger, deps.commands.now, malls));
  if (deps.ledger) app.use(summaryRoutes(deps.ledger, deps.defaultCurrency ?? 'KRW', malls));
  if (deps.ledger) app.use(summaryCloseRoutes(deps.ledger, deps.defaultCurrency ?? 'KRW', malls, deps.commands.now));
  app.use((_req, res) => void res.status(404).json({ error: 'no such route; see GET /v1/openapi.json' }));
  app.use(apiErrorHandler(deps.commands.logger));
  return app;
}
