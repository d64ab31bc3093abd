import { Router, type NextFunction, type Request, type Response } from 'express';
import type { ConsoleDeps } from '../console-deps';
import { sessionOf } from '../require-session';
import { localeOf, negotiateLocale, type Locale } from './locale';
import { translatorFor } from './translator';

/** The browser's own preference, where no session has chosen (the sign-in page, the refusal pages). */
export const browserLocale = (req: Request): Locale => negotiateLocale(req.headers['accept-language']);

/** Only back into the console: a crafted `back` must not turn the switch into an open redirect. */
function consolePath(value: unknown, fallback = '/console'): string {
  return typeof value === 'string' && value.length <= 2000 && /^\/console(\/|\?|$)/.test(value) && !/[\\]|\/\//.test(value) ? value : fallback;
}

/**
 * After the session is known: the language its pages speak (the one the header's switch chose,
 * else the browser's) and where the switch comes back to.
 */
export function sessionLanguage() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const session = sessionOf(res);
    res.locals.session = { ...session, t: translatorFor(session.locale ?? browserLocale(req)), here: req.originalUrl };
    next();
  };
}

/**
 * The header's switch: any role may choose its language (it changes no money and no record), so
 * this is mounted before the roles' default deny; the session's CSRF check has run.
 */
export function languageRoutes(deps: Pick<ConsoleDeps, 'sessions'>): Router {
  const router = Router();
  router.post('/locale', async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const locale = localeOf(body.locale);
    if (locale) await deps.sessions.setLocale(sessionOf(res).idHash, locale);
    res.redirect(303, consolePath(body.back));
  });
  return router;
}
