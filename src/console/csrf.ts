import type { NextFunction, Request, Response } from 'express';
import { tokenMatches } from './admin-token';
import type { Session } from './sessions';

/**
 * A state-changing request must come from the console's own pages: the browser's Origin (or,
 * when a browser sends none, its Referer) must be this console's origin. Checked before the
 * session, so a cross-site form cannot even try a sign-in.
 */
export function sameOrigin(req: Request): boolean {
  const expected = `${req.protocol}://${req.get('host') ?? ''}`;
  const origin = req.get('origin');
  if (origin !== undefined) return origin === expected;
  const referer = req.get('referer');
  return referer !== undefined && (referer === expected || referer.startsWith(`${expected}/`));
}

export function requireSameOrigin(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST' || sameOrigin(req)) return next();
  res.status(403).type('text/plain').send('Forbidden: this request did not come from the console (Origin check).');
}

/** The per-session token every console form carries; another site cannot read it to forge a form. */
export function csrfTokenValid(req: Request, session: Session): boolean {
  const given = (req.body as Record<string, unknown> | undefined)?._csrf;
  return tokenMatches(session.csrfToken, given);
}
