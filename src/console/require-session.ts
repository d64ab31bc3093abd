import type { NextFunction, Request, Response } from 'express';
import { shownAddress } from '../http/forwarded-for';
import type { OperatorRole } from '../store/store';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { csrfTokenValid } from './csrf';
import { forbiddenPage, tokenOperatorPage, unknownOperatorPage } from './pages/refusal-pages';
import { requestOrigin } from './request-origin';
import { roleAllows } from './roles';
import type { Session } from './sessions';
import { readSessionCookie, setSessionCookie } from './session-cookie';
import { signOnName, signOnOf, type SignOn } from './single-sign-on';

/** The session of this request and what the audit calls its operator: the record's name and the address acting now. */
export interface SignedInOperator extends Session {
  actor: string;
}

export function sessionOf(res: Response): SignedInOperator {
  return res.locals.session as SignedInOperator;
}

export function actorName(operator: string, address: string): string {
  return `${operator} (${shownAddress(address)})`;
}

export type SessionDeps = Pick<ConsoleDeps, 'config' | 'store' | 'sessions' | 'logger' | 'now' | 'signInRefusals'>;

/**
 * The request's session from its cookie; without one, a sign-on proxy's header (ADMIN_AUTH_HEADER)
 * signs a single sign-on operator in here and now. `refused`: the proxy named someone the header
 * may not sign in, and the 403 page saying so has been sent (unless `refusedSignOn` is `ignore`:
 * the token form, where token operators behind the same proxy still sign in). Once per request:
 * a request the console router passes on meets the listener's own session check, which must not
 * make a second session from the same header.
 */
export async function currentSession(
  req: Request, res: Response, deps: SessionDeps, refusedSignOn: 'refuse' | 'ignore' = 'refuse',
): Promise<SignedInOperator | 'refused' | null> {
  if (res.locals.session) return res.locals.session as SignedInOperator;
  const origin = requestOrigin(req, deps.config.TRUST_PROXY, deps.config.ADMIN_PUBLIC_URL ?? null);
  const existing = await deps.sessions.get(readSessionCookie(req, origin.https));
  if (existing && !signedOnAsSomeoneElse(req, deps, existing)) return remember(res, { ...existing, actor: actorName(existing.operator, origin.client) });
  // The proxy now names another person at this browser (the previous one signed out there, the
  // cookie stayed): their session is over, or the audit would name the wrong person.
  if (existing) await deps.sessions.end(existing.idHash);
  const signOn = await signOnOf(req, deps);
  if (signOn.kind === 'none') return null;
  if (signOn.kind === 'refused') {
    if (refusedSignOn === 'ignore') return null;
    await refuseSignOn(res, deps, signOn, origin.client);
    return 'refused';
  }
  const { id, session } = await deps.sessions.create(signOn.operator, null);
  setSessionCookie(res, id, origin.https);
  const actor = actorName(session.operator, origin.client);
  await audit(deps, actor, 'signed in', null, 'through the sign-on proxy');
  return remember(res, { ...session, actor });
}

function remember(res: Response, session: SignedInOperator): SignedInOperator {
  res.locals.session = session;
  return session;
}

/**
 * Each refusal is logged with its count; the audit gets the first of the client's window only,
 * since a person the proxy let through can reload the page as often as they like.
 */
async function refuseSignOn(res: Response, deps: SessionDeps, signOn: Extract<SignOn, { kind: 'refused' }>, client: string): Promise<void> {
  const count = deps.signInRefusals?.add(`sign-on ${client}`, 'sign_on') ?? 1;
  const why = signOn.reason === 'token' ? 'who signs in with a token' : 'who is no operator';
  if (count === 1) {
    await audit(deps, actorName('unidentified', client), 'sign-in refused', null, `the sign-on proxy names ${JSON.stringify(signOn.name)}, ${why}`);
  }
  deps.logger.warn(`console sign-in refused: the sign-on proxy names someone ${why}`, { ip: shownAddress(client), refusedInWindow: count });
  res.status(403).type('html').send(signOn.reason === 'token' ? tokenOperatorPage(signOn.name) : unknownOperatorPage(signOn.name));
}

/**
 * A session the proxy's header made answers to that header: a token session does not (the token
 * proves who signed in, and token operators sit behind the same proxy as everyone else).
 */
function signedOnAsSomeoneElse(req: Request, deps: SessionDeps, session: Session): boolean {
  if (!session.throughSignOn) return false;
  const name = signOnName(req, deps.config);
  return name !== null && name !== session.operator;
}

/**
 * Pages without a session go to the sign-in (and come back after it); the console's JSON API
 * and anything else answers 401. A POST also needs the session's CSRF token.
 */
export function requireSession(deps: SessionDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const session = await currentSession(req, res, deps);
      if (session === 'refused') return;
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
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The server's half of the roles (the pages only hide what this refuses): a request needing more
 * than the operator's role is 403 before any handler runs, so it changes nothing.
 */
export function requireRole(needs: OperatorRole | ((req: Request) => OperatorRole | null), logger: ConsoleDeps['logger']) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const session = sessionOf(res);
    const wanted = typeof needs === 'function' ? needs(req) : needs;
    if (wanted === null || roleAllows(session.role, wanted)) return next();
    logger.warn('console request refused: role too low', { role: session.role, needs: wanted, method: req.method, path: req.originalUrl });
    res.status(403).type('html').send(forbiddenPage(session, `Your role (${session.role}) may not do this; it needs ${wanted}.`));
  };
}
