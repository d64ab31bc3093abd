import { Router } from 'express';
import { shownAddress } from '../http/forwarded-for';
import { tokenMatches } from './admin-token';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { kstTime } from './format';
import { signInPage } from './pages/sign-in-page';
import { createSignInThrottle } from './sign-in-throttle';
import { requestOrigin } from './request-origin';
import { requireSession, sessionOf } from './require-session';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie';

/** Only back into the console: a crafted `next` must not turn the sign-in into an open redirect. */
function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/console(\/|\?|$)/.test(value) && !/[\\]|\/\//.test(value) ? value : '/console';
}

function actorOf(address: string, name: unknown): string {
  const cleaned = typeof name === 'string' ? name.replace(/[\p{C}]/gu, '').trim().slice(0, 40) : '';
  return `${cleaned || 'operator'} (${shownAddress(address)})`;
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
    // Behind a trusted proxy every operator shares the proxy's address: count, audit and name
    // the forwarded client instead, so one person's typos cannot lock out the whole office.
    const origin = requestOrigin(req, deps.config.TRUST_PROXY);
    const address = origin.client;
    const actor = actorOf(address, body.name);
    const name = typeof body.name === 'string' ? body.name : '';
    const waitMs = throttle.waitMs(address);
    if (waitMs > 0) {
      const retryAt = new Date(deps.now().getTime() + waitMs).toISOString();
      await audit(deps, actor, 'sign-in refused', null, `too many wrong tokens from this address; may try again at ${retryAt}`);
      deps.logger.warn('console sign-in refused: too many wrong tokens', { ip: shownAddress(address), retryAt });
      res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
      res.status(429).type('html').send(signInPage({
        next: safeNext(body.next),
        error: `Too many wrong tokens from ${shownAddress(address)}; try again at ${kstTime(retryAt)} (in ${Math.ceil(waitMs / 60_000)} minute(s)).`,
        name,
      }));
      return;
    }
    if (!tokenMatches(deps.adminToken, body.token)) {
      throttle.failed(address);
      await audit(deps, actor, 'sign-in refused', null, 'wrong token');
      deps.logger.warn('console sign-in refused: wrong token', { ip: shownAddress(address) });
      res.status(401).type('html').send(signInPage({ next: safeNext(body.next), error: 'That token is not right.', name }));
      return;
    }
    throttle.succeeded(address);
    const session = deps.sessions.create(actor);
    setSessionCookie(res, session.id, origin.https);
    await audit(deps, actor, 'signed in', null);
    res.redirect(303, safeNext(body.next));
  });

  router.post('/sign-out', requireSession(deps.sessions), async (req, res) => {
    const session = sessionOf(res);
    deps.sessions.destroy(session.id);
    clearSessionCookie(res, requestOrigin(req, deps.config.TRUST_PROXY).https);
    await audit(deps, session.actor, 'signed out', null);
    res.redirect(303, '/console/sign-in');
  });

  return router;
}
