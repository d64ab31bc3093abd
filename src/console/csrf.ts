import type { NextFunction, Request, Response } from 'express';
import { tokenMatches } from './admin-token';
import type { AddressList } from '../config/address-list';
import { canonicalOrigin, requestOrigin } from './request-origin';
import type { Session } from './sessions';

/**
 * A state-changing request must come from the console's own pages: the browser's Origin (or,
 * when a browser sends none, its Referer) must be this console's origin. Checked before the
 * session, so a cross-site form cannot even try a sign-in. Behind a TLS-terminating proxy the
 * expected origin is the proxy's public one (X-Forwarded-Proto/-Host from a TRUST_PROXY peer), and
 * ADMIN_PUBLIC_URL when set: a proxy that passes the upstream's Host on still serves that origin.
 */
function sameOrigin(req: Request, trustProxy: AddressList, publicUrl: URL | null = null): boolean {
  const expected = new Set([requestOrigin(req, trustProxy, publicUrl).origin, publicUrl?.origin ?? null]);
  expected.delete(null);
  const origin = req.get('origin');
  if (origin !== undefined) return expected.has(canonicalOrigin(origin));
  const referer = req.get('referer');
  return referer !== undefined && expected.has(canonicalOrigin(referer));
}

export function requireSameOrigin(trustProxy: AddressList, publicUrl: URL | null = null) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST' || sameOrigin(req, trustProxy, publicUrl)) return next();
    res.status(403).type('text/plain').send('Forbidden: this request did not come from the console (Origin check).');
  };
}

/** The per-session token every console form carries; another site cannot read it to forge a form. */
export function csrfTokenValid(req: Request, session: Session): boolean {
  const given = (req.body as Record<string, unknown> | undefined)?._csrf;
  return tokenMatches(session.csrfToken, given);
}
