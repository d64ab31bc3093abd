import express, { Router } from 'express';
import { auditRoutes } from './audit-routes';
import { cancelRoutes } from './cancel-routes';
import { consoleAssets } from './console-assets';
import type { ConsoleDeps } from './console-deps';
import { commandsRoutes } from './commands-routes';
import { conflictsRoutes } from './conflicts-routes';
import { requireSameOrigin } from './csrf';
import { eventsRoutes } from './events-routes';
import { exportsRoutes } from './exports-routes';
import { ledgerRoutes } from './ledger-routes';
import { reconcileRoutes } from './reconcile-routes';
import { summaryRoutes } from './summary-routes';
import { uploadBody } from './upload-body';
import { maxFileBytesOf, uploadRoutes } from './upload-routes';
import { summaryCloseRoutes } from './summary-close-routes';
import { overviewRoutes } from './overview-routes';
import { rejectionsRoutes } from './rejections-routes';
import { operatorsRoutes } from './operators-routes';
import { requireRole, requireSession, sessionOf } from './require-session';
import { ACTING_ROLE } from './roles';
import { securityHeaders } from './security-headers';
import { signInRoutes } from './sign-in-routes';
import { languageRoutes, sessionLanguage } from './i18n/session-language';
import { playbookOrder, playbooksPage } from './pages/playbooks-page';
import { warnOfSignOnFallback } from './single-sign-on';

/** The operator console, mounted at /console on the admin listener. */
export function consoleRouter(deps: ConsoleDeps): Router {
  const router = Router();
  warnOfSignOnFallback(deps.config, deps.logger);
  router.use(securityHeaders);
  router.use(consoleAssets(deps.logger));
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  router.use(requireSameOrigin(deps.config.TRUST_PROXY, deps.config.ADMIN_PUBLIC_URL ?? null));
  router.use(signInRoutes(deps));
  // The upload's CSRF token is a field of its multipart body: the body is read (bounded) before the session's check.
  router.post('/reconcile/upload', ...uploadBody(maxFileBytesOf(deps)));
  router.use(requireSession(deps));
  router.use(sessionLanguage());
  router.use(languageRoutes(deps));
  // Default deny for the roles: every state change below needs at least an operator, whatever
  // route a later page adds; a route that needs more says so where it is mounted.
  router.use(requireRole((req) => (req.method === 'GET' || req.method === 'HEAD' ? null : ACTING_ROLE), deps.logger));
  router.use('/operators', requireRole('admin', deps.logger), operatorsRoutes(deps));
  router.use(overviewRoutes(deps));
  router.use(eventsRoutes(deps));
  router.use(rejectionsRoutes(deps));
  router.use(conflictsRoutes(deps));
  router.get('/playbooks', (req, res) => {
    res.type('html').send(playbooksPage(sessionOf(res), playbookOrder(req.query)));
  });
  router.use(auditRoutes(deps));
  router.use(commandsRoutes(deps));
  // Cancel from an order's page: the admin, or an operator given the right (checked in the route).
  router.use(cancelRoutes(deps));
  router.use(ledgerRoutes(deps));
  router.use(exportsRoutes(deps));
  router.use(summaryRoutes(deps));
  router.use(uploadRoutes(deps));
  router.use(reconcileRoutes(deps));
  router.use(summaryCloseRoutes(deps));
  return router;
}
