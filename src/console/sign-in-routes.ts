import { Router } from 'express';
import { shownAddress } from '../http/forwarded-for';
import { secretHash } from '../store/operator-credentials';
import { BOOTSTRAP_OPERATOR, type OperatorIdentity } from '../store/store';
import { tokenMatches } from './admin-token';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { localeOf, type Locale } from './i18n/locale';
import { browserLocale } from './i18n/session-language';
import { translatorFor } from './i18n/translator';
import { signInPage } from './pages/sign-in-page';
import { SIGN_IN_WINDOW_MS, createSignInThrottle } from './sign-in-throttle';
import { requestOrigin } from './request-origin';
import { actorName, currentSession, requireSession, sessionOf } from './require-session';
import { clearSessionCookie, setSessionCookie } from './session-cookie';

/** Only back into the console: a crafted `next` must not turn the sign-in into an open redirect. */
function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/console(\/|\?|$)/.test(value) && !/[\\]|\/\//.test(value) ? value : '/console';
}

/** Nobody is known until a token matches: refusals name the address only. */
const UNIDENTIFIED = 'unidentified';

/** The bootstrap `admin` (ADMIN_TOKEN, compared in constant time) or the token operator whose token this is. */
async function operatorOfToken(deps: ConsoleDeps, token: unknown): Promise<OperatorIdentity | null> {
  if (typeof token !== 'string' || token.length === 0 || token.length > 1024) return null;
  if (tokenMatches(deps.adminToken, token)) return { name: BOOTSTRAP_OPERATOR, role: 'admin', sso: false, canCancel: true };
  return deps.store.findOperatorByTokenHash(secretHash(token));
}

/** The sign-in page's language: the one its switch chose (in the URL or the form), else the browser's. */
function words(req: Parameters<typeof browserLocale>[0], chosen: Locale | null) {
  return { t: translatorFor(chosen ?? browserLocale(req)), chosen };
}

export function signInRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const throttle = createSignInThrottle({ now: () => deps.now().getTime() });
  const originOf = (req: Parameters<typeof requestOrigin>[0]) => requestOrigin(req, deps.config.TRUST_PROXY, deps.config.ADMIN_PUBLIC_URL ?? null);

  router.get('/sign-in', async (req, res) => {
    // A sign-on proxy's known operator is signed in here too; for a name that is no operator the
    // form is shown, since token operators (the bootstrap admin among them) sign in behind it too.
    const session = await currentSession(req, res, deps, 'ignore');
    if (session === 'refused') return;
    if (session) return res.redirect(303, safeNext(req.query.next));
    const chosen = localeOf(req.query.lang);
    res.status(200).type('html').send(signInPage({ next: safeNext(req.query.next), ...words(req, chosen) }));
  });

  router.post('/sign-in', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const chosen = localeOf(body.lang);
    const { t } = words(req, chosen);
    // Behind a trusted proxy every operator shares the proxy's address: count, audit and name
    // the forwarded client instead, so one person's typos cannot lock out the whole office.
    const origin = originOf(req);
    const address = origin.client;
    const waitMs = throttle.waitMs(address);
    if (waitMs > 0) {
      const retryAt = new Date(deps.now().getTime() + waitMs).toISOString();
      // A lockout writes one audit row per client and window, whatever is sent meanwhile: the
      // first refusal in it, naming the address and the wrong tokens that caused it.
      const refused = deps.signInRefusals?.add(`lockout ${address}`, 'locked_out') ?? 1;
      if (refused === 1) {
        await audit(deps, actorName(UNIDENTIFIED, address), 'sign-in refused',
          null, `too many wrong tokens: ${throttle.failures(address)} from this address within ${SIGN_IN_WINDOW_MS / 60_000} minutes; locked out until ${retryAt} (attempts until then are logged, not audited)`);
      }
      deps.logger.warn('console sign-in refused: too many wrong tokens', { ip: shownAddress(address), retryAt, refusedInWindow: refused });
      res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
      res.status(429).type('html').send(signInPage({
        next: safeNext(body.next), t, chosen,
        error: t('signIn.tooMany', { address: shownAddress(address), time: t.time(retryAt), minutes: Math.ceil(waitMs / 60_000) }),
      }));
      return;
    }
    const operator = await operatorOfToken(deps, body.token);
    if (!operator) {
      const failures = throttle.failed(address);
      deps.signInRefusals?.tally('wrong_token');
      await audit(deps, actorName(UNIDENTIFIED, address), 'sign-in refused', null, `wrong token (${failures} from this address within ${SIGN_IN_WINDOW_MS / 60_000} minutes)`);
      deps.logger.warn('console sign-in refused: wrong token', { ip: shownAddress(address), failures });
      res.status(401).type('html').send(signInPage({ next: safeNext(body.next), t, chosen, error: t('signIn.wrongToken') }));
      return;
    }
    throttle.succeeded(address);
    // A language chosen on the sign-in page is the session's from now on; otherwise the browser's decides.
    const { id, session } = await deps.sessions.create(operator, body.token as string, chosen);
    setSessionCookie(res, id, origin.https);
    await audit(deps, actorName(session.operator, address), 'signed in', null, `role ${session.role}`);
    res.redirect(303, safeNext(body.next));
  });

  // Any role may sign out; the session ends in the database, so on every replica at once.
  router.post('/sign-out', requireSession(deps), async (req, res) => {
    const session = sessionOf(res);
    await deps.sessions.end(session.idHash);
    clearSessionCookie(res, originOf(req).https);
    await audit(deps, session.actor, 'signed out', null);
    res.redirect(303, '/console/sign-in');
  });

  return router;
}
