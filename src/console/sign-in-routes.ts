import { Router, type Request } from 'express';
import { tokenMatches } from './admin-token';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { signInPage } from './pages/sign-in-page';
import { createSignInThrottle } from './sign-in-throttle';
import { requireSession, sessionOf } from './require-session';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie';

/** Only back into the console: a crafted `next` must not turn the sign-in into an open redirect. */
function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/console(\/|\?|$)/.test(value) && !/[\\]|\/\//.test(value) ? value : '/console';
}

function actorOf(req: Request, name: unknown): string {
  const cleaned = typeof name === 'string' ? name.replace(/[\p{C}]/gu, '').trim().slice(0, 40) : '';
  return `${cleaned || 'operator'} (${req.ip ?? 'unknown address'})`;
}

export function signInRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const throttle = createSignInThrottle({ now: () => deps.now().getTime() });

  router.get('/sign-in', (req, res) => {
    if (deps.sessions.get(readSessionCookie(req))) return res.redirect(303, safeNext(req.query.next));
    res.type('html').send(signInPage({ next: safeNext(req.query.next) }));
  });

  router.post('/sign-in', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const actor = actorOf(req, body.name);
    const address = req.ip ?? 'unknown';
    const waitMs = throttle.waitMs(address);
    if (waitMs > 0) {
      res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
      res.status(429).type('html').send(signInPage({ next: safeNext(body.next), error: `Too many wrong tokens from this address; try again in ${Math.ceil(waitMs / 60_000)} minute(s).` }));
      return;
    }
    if (!tokenMatches(deps.adminToken, body.token)) {
      throttle.failed(address);
      await audit(deps, actor, 'sign-in refused', null, 'wrong token');
      deps.logger.warn('console sign-in refused: wrong token', { ip: req.ip });
      res.status(401).type('html').send(signInPage({ next: safeNext(body.next), error: 'That token is not right.', name: typeof body.name === 'string' ? body.name : '' }));
      return;
    }
    throttle.succeeded(address);
    const session = deps.sessions.create(actor);
    setSessionCookie(req, res, session.id);
    await audit(deps, actor, 'signed in', null);
    res.redirect(303, safeNext(body.next));
  });

  router.post('/sign-out', requireSession(deps.sessions), async (req, res) => {
    const session = sessionOf(res);
    deps.sessions.destroy(session.id);
    clearSessionCookie(req, res);
    await audit(deps, session.actor, 'signed out', null);
    res.redirect(303, '/console/sign-in');
  });

  return router;
}
