import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../observability/logger';
import { LedgerCatchingUp } from '../ledger/projector/ledger-catching-up';
import { StoreUnavailable } from '../store/store';
import { negotiateLocale } from './i18n/locale';
import { translatorFor } from './i18n/translator';

/** Never Express's default page, which would show a stack trace to whoever is looking. */
export function consoleErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (error instanceof LedgerCatchingUp) {
      if (res.headersSent) return;
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
      res.status(503).type('text/plain').send('The ledger is catching up with the notifications just stored; this page shows the order in a moment. Reload shortly.');
      return;
    }
    const unavailable = error instanceof StoreUnavailable;
    logger.error('console request failed', { path: req.path, method: req.method, error: (error as Error)?.message ?? String(error) });
    if (res.headersSent) return;
    const t = translatorFor(negotiateLocale(req.headers['accept-language']));
    res
      .status(unavailable ? 503 : 500)
      .type('text/plain; charset=utf-8')
      .send(unavailable ? t('error.unavailable') : t('error.failed'));
  };
}
