import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';

/**
 * `Authorization: Bearer <API_TOKEN>` on every route. Compared as digests in constant time, so
 * neither the token's length nor its prefix leaks through timing; the token is never logged.
 */
export function bearerAuth(token: string): RequestHandler {
  const expected = digest(token);
  return (req, res, next) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (m && timingSafeEqual(digest(m[1]!), expected)) return next();
    res.setHeader('WWW-Authenticate', 'Bearer realm="internal-api"');
    res.status(401).json({ error: 'missing or wrong bearer token: send Authorization: Bearer <API_TOKEN>' });
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();
