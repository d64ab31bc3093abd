import { Router, type Response } from 'express';
import { newSecret, secretHash } from '../store/operator-credentials';
import { lookalikeProblem, newOperatorNameProblem, operatorNameProblem } from '../store/operator-name';
import { OPERATOR_ROLES, type OperatorRole } from '../store/store';
import { audit } from './audit';
import type { ConsoleDeps } from './console-deps';
import { noticeFor } from './notices';
import { operatorNameProblemText } from './pages/operator-name-problem';
import { operatorsPage, type OperatorsPageState } from './pages/operators-page';
import { sessionOf } from './require-session';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The Operators page (admins only: mounted behind requireRole('admin')). The same verbs and audit
 * actions as `noti-receiver operators`; a new token is shown in the answer to the POST, this once,
 * and never in a URL (a URL lands in the history and in proxies' logs).
 */
export function operatorsRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const { store } = deps;
  const show = async (res: Response, status: number, state: OperatorsPageState) => {
    res.status(status).type('html').send(operatorsPage(sessionOf(res), await store.listOperators(), state));
  };

  router.get('/', async (req, res) => {
    await show(res, 200, { notice: noticeFor(req.query, sessionOf(res).t) });
  });

  router.post('/add', async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const name = text(body.name);
    const role = text(body.role) as OperatorRole;
    const sso = body.sso === 'on';
    const canCancel = body.can_cancel === 'on';
    const { t } = sessionOf(res);
    // The store's reasons are English (the CLI and the internal API print them): read back in the page's words.
    const storeProblem = (why: string | null) => (why === null ? null : operatorNameProblemText(t, why));
    const problem = storeProblem(newOperatorNameProblem(name)) ?? (OPERATOR_ROLES.includes(role) ? null : t('operators.chooseRole'))
      ?? storeProblem(lookalikeProblem(name, (await store.listOperators()).map((operator) => operator.name)));
    if (problem) return show(res, 422, { error: problem });
    const token = sso ? null : newSecret();
    const at = deps.now().toISOString();
    if ((await store.addOperator({ name, role, tokenHash: token === null ? null : secretHash(token), createdAt: at, canCancel })) === 'exists') {
      return show(res, 409, { error: t('operators.exists', { name }) });
    }
    await audit(deps, sessionOf(res).actor, 'added operator', name, `${role}${sso ? ', single sign-on' : ''}${canCancel ? ', may cancel payments' : ''}`);
    await show(res, 200, token === null
      ? { notice: t('operators.addedSso', { name, role: t(`role.${role}`) }) }
      : { notice: t('operators.added', { name, role: t(`role.${role}`) }), newToken: { name, token } });
  });

  router.post('/token', async (req, res) => {
    const name = text((req.body as Record<string, unknown>).name);
    const { t } = sessionOf(res);
    const token = newSecret();
    const outcome = operatorNameProblem(name) ? 'unknown' : await store.rotateOperatorToken(name, secretHash(token), deps.now().toISOString());
    if (outcome === 'unknown') return show(res, 404, { error: t('operators.unknown', { name }) });
    if (outcome === 'sso') return show(res, 409, { error: t('operators.ssoNoToken', { name }) });
    await audit(deps, sessionOf(res).actor, 'replaced operator token', name, null);
    await show(res, 200, { notice: t('operators.replaced', { name }), newToken: { name, token } });
  });

  router.post('/remove', async (req, res) => {
    const name = text((req.body as Record<string, unknown>).name);
    const removed = operatorNameProblem(name) ? { removed: false, sessionsEnded: 0 } : await store.removeOperator(name);
    if (!removed.removed) return show(res, 404, { error: sessionOf(res).t('operators.unknown', { name }) });
    await audit(deps, sessionOf(res).actor, 'removed operator', name, `${removed.sessionsEnded} session(s) ended`);
    res.redirect(303, `/console/operators?done=operator-removed&n=${removed.sessionsEnded}`);
  });

  return router;
}
