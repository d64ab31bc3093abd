import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';

/** Whether a request carries `Authorization: Bearer <API_TOKEN>`. */
export type BearerCheck = (req: Request) => boolean;

/**
 * Compared as digests in constant time, so neither the token's length nor its prefix leaks
 * through timing; the token is never logged.
 */
export function bearerCheck(token: string): BearerCheck {
  const expected = digest(token);
  return (req) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    return m !== null && timingSafeEqual(digest(m[1]!), expected);
  };
}

/** The token on every route: 401 without it. */
export function bearerAuth(authenticated: BearerCheck): RequestHandler {
  return (req, res, next) => {
    if (authenticated(req)) return next();
    res.setHeader('WWW-Authenticate', 'Bearer realm="internal-api"');
    res.status(401).json({ error: 'missing or wrong bearer token: send Authorization: Bearer <API_TOKEN>' });
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();
