import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../observability/logger';
import { StoreUnavailable } from '../store/store';

/** Never Express's default page, which would show a stack trace to whoever is looking. */
export function consoleErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const unavailable = error instanceof StoreUnavailable;
    logger.error('console request failed', { path: req.path, method: req.method, error: (error as Error)?.message ?? String(error) });
    if (res.headersSent) return;
    res
      .status(unavailable ? 503 : 500)
      .type('text/plain')
      .send(unavailable ? 'The database is not available right now; try again shortly.' : 'Something went wrong; the receiver log has the details.');
  };
}
