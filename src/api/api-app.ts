import express, { type Express } from 'express';
import type { CommandDeps } from '../commands/command-deps';
import { apiErrorHandler } from './api-errors';
import { bearerAuth } from './bearer-auth';
import { commandRoutes } from './command-routes';
import type { LedgerStore } from '../store/ledger-store';
import { ledgerRoutes } from './ledger-routes';
import { openApiDocument } from './openapi';
import { queryRoutes } from './query-routes';
import { strictJsonBody } from './strict-json-body';

export interface ApiDeps {
  commands: CommandDeps;
  apiToken: string;
  wakeWorker?: () => void;
  /** The payment ledger's routes. */
  ledger?: LedgerStore;
}

/** The internal API's app: its own listener, never the notification port, every route behind the token. */
export function createApiApp(deps: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(bearerAuth(deps.apiToken));
  app.use(strictJsonBody('64kb'));
  const jsonOnly: express.RequestHandler = (req, res, next) => {
    if (req.is(['application/json', 'application/*+json'])) return next();
    res.status(415).json({ error: 'send the body as JSON with Content-Type: application/json' });
  };
  app.post(/.*/, jsonOnly);
  app.put(/.*/, jsonOnly);
  const document = openApiDocument();
  app.get('/v1/openapi.json', (_req, res) => void res.json(document));
  app.use(commandRoutes(deps.commands, deps.wakeWorker ?? (() => undefined)));
  app.use(queryRoutes(deps.commands.store));
  if (deps.ledger) app.use(ledgerRoutes(deps.ledger, deps.commands.now));
  app.use((_req, res) => void res.status(404).json({ error: 'no such route; see GET /v1/openapi.json' }));
  app.use(apiErrorHandler(deps.commands.logger));
  return app;
}
