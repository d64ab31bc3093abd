import type { ErrorRequestHandler } from 'express';
import { z } from 'zod';
import { IdempotencyConflict } from '../commands/submit-command';
import { CancelExceedsPayment } from '../commands/cancel-exceeds-payment';
import { MissingNotifyUrl } from '../commands/create-trade';
import { GatewayNotConfigured } from '../gateway/gateway-errors';
import type { Logger } from '../observability/logger';
import { LedgerCatchingUp } from '../ledger/projector/ledger-catching-up';
import { StoreUnavailable } from '../store/store';
import { publicRecord } from '../commands/command-record';
import { MallNotServed } from './mall-scope';

/** A body that failed validation: 400 with every issue, and nothing sent. */
export class InvalidBody extends Error {
  override readonly name = 'InvalidBody';
  constructor(readonly issues: Array<{ path: string; message: string }>) {
    super(`invalid body: ${issues.map((i) => `${i.path || '(body)'} ${i.message}`).join('; ')}`);
  }
}

/** The body's declared charset is not UTF-8: 415, naming what is accepted. */
export class UnsupportedBodyCharset extends Error {
  override readonly name = 'UnsupportedBodyCharset';
  constructor(charset: string) {
    super(`unsupported charset "${charset.slice(0, 40)}": send the JSON body as UTF-8, with Content-Type application/json or application/json; charset=utf-8`);
  }
}

/** A declared body over the limit: 413, answered before a byte of it is read. */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
  constructor() {
    super('body too large');
  }
}

/** A body that is not JSON text: 400 with the express wording the API has always used. */
export class MalformedJson extends Error {
  override readonly name = 'MalformedJson';
  constructor() {
    super('malformed JSON body');
  }
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new InvalidBody(parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
}

/**
 * A body the gateway gets as given (the VAN routes), once the schema finds it valid. Not zod's
 * copy: it assigns field by field, which drops a field named `__proto__`; a spread defines own
 * properties, so every name the caller sent stays data.
 */
export function passThroughBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  parseBody(schema, body);
  return { ...(body as object) } as z.infer<S>;
}

/** Each error answered once, with the status that tells the caller whether trying again can help. */
export function apiErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (error instanceof InvalidBody) return void res.status(400).json({ error: error.message, issues: error.issues });
    if (error instanceof MalformedJson) return void res.status(400).json({ error: error.message });
    if (error instanceof BodyTooLarge) return void res.status(413).json({ error: error.message });
    if (error instanceof UnsupportedBodyCharset) return void res.status(415).json({ error: error.message });
    if (error instanceof MissingNotifyUrl) return void res.status(400).json({ error: error.message, issues: [{ path: 'notifyUrl', message: error.message }] });
    if (error instanceof IdempotencyConflict) {
      return void res.status(409).json({ error: error.message, existing: publicRecord(error.existing) });
    }
    if (error instanceof CancelExceedsPayment) {
      const { pgCno, amount, left } = error.refusal;
      return void res.status(409).json({ error: error.message, reason: 'exceeds_remaining', pgCno, amount, left });
    }
    if (error instanceof GatewayNotConfigured) return void res.status(503).json({ error: error.message });
    if (error instanceof LedgerCatchingUp) {
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
      return void res.status(503).json({ error: error.message, reason: 'ledger_catching_up' });
    }
    if (error instanceof MallNotServed) return void res.status(403).json({ error: error.message });
    if (error instanceof StoreUnavailable) {
      logger.warn('internal API: store unavailable', { path: req.path, error: error.message });
      // The command may already be stored (and its attempt sent): the same key is the safe way to ask again.
      return void res.status(503).json({ error: 'storage unavailable; try again with the same shopTransactionId' });
    }
    const status = (error as { status?: number; type?: string }).status;
    if (status && status >= 400 && status < 500) {
      const reason = status === 413 ? 'body too large' : status === 415 ? 'unsupported Content-Encoding; send the body as is, gzip or deflate' : 'malformed JSON body';
      return void res.status(status).json({ error: reason });
    }
    logger.error('internal API error', { path: req.path, error: (error as Error)?.stack ?? String(error) });
    res.status(500).json({ error: 'internal error; see the service log' });
  };
}
