import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../observability/logger';
import { StoreUnavailable } from '../store/store';
import { negotiateLocale } from './i18n/locale';
import { translatorFor } from './i18n/translator';

/** Never Express's default page, which would show a stack trace to whoever is looking. */
export function consoleErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
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
