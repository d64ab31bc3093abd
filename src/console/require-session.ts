import type { NextFunction, Request, Response } from 'express';
import { csrfTokenValid } from './csrf';
import type { Session, Sessions } from './sessions';
import { readSessionCookie } from './session-cookie';

export function sessionOf(res: Response): Session {
  return res.locals.session as Session;
}

/**
 * Pages without a session go to the sign-in (and come back after it); the console's JSON API
 * and anything else answers 401. A POST also needs the session's CSRF token.
 */
export function requireSession(sessions: Sessions) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const session = sessions.get(readSessionCookie(req));
    if (!session) {
      if (req.method === 'GET' && !req.originalUrl.startsWith('/console/api/')) {
        res.redirect(303, `/console/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
      } else {
        res.status(401).json({ error: 'sign in at /console/sign-in first' });
      }
      return;
    }
    if (req.method === 'POST' && !csrfTokenValid(req, session)) {
      res.status(403).type('text/plain').send('Forbidden: the form was missing its CSRF token or it was stale; reload the page and try again.');
      return;
    }
    res.locals.session = session;
    next();
  };
}
