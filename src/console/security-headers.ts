import type { NextFunction, Request, Response } from 'express';

/**
 * Scripts only from the console itself and none inline: even if some notification text escaped
 * the HTML encoding, the browser would refuse to run it.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * On every answer of the console's listener but the probes and /metrics: its pages, and as much
 * its refusals and error pages (a 403 "Not an operator", a 421, a 500), which must not be framed
 * or run a script either.
 */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
  next();
}
