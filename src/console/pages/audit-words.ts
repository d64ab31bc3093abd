import type { OperatorRole } from '../../store/store';
import { OPERATOR_ROLES } from '../../store/store';
import { html, isolated, type SafeHtml } from '../html';
import type { MessageKey } from '../i18n/catalogues';
import type { Translator } from '../i18n/translator';
import { COMMAND_STATES, type CommandState } from '../../store/command-types';
import { commandKindName } from './command-kind-name';
import { money } from './money';
import { refusalReasons } from './refusal-reason';

/**
 * Every action the audit log records, by the name it is stored under (the log, the CLI and the
 * Audit filter's value use that name), with the key of its name in the page's words. A new
 * audited action adds one line here (test/console/audit-words.test.ts finds any that does not).
 */
export const AUDIT_ACTIONS: Readonly<Record<string, MessageKey>> = {
  'signed in': 'auditAction.signedIn',
  'signed out': 'auditAction.signedOut',
  'sign-in refused': 'auditAction.signInRefused',
  requeued: 'auditAction.requeued',
  'requeued all dead': 'auditAction.requeuedAllDead',
  reprocessed: 'auditAction.reprocessed',
  'reprocess refused': 'auditAction.reprocessRefused',
  'resolved discrepancy': 'auditAction.resolvedDiscrepancy',
  'imported gateway list': 'auditAction.importedGatewayList',
  'saved column mapping': 'auditAction.savedColumnMapping',
  'closed day': 'auditAction.closedDay',
  'reopened day': 'auditAction.reopenedDay',
  'added operator': 'auditAction.addedOperator',
  'replaced operator token': 'auditAction.replacedOperatorToken',
  'removed operator': 'auditAction.removedOperator',
  exported: 'auditAction.exported',
  'requested cancel': 'auditAction.requestedCancel',
};

/** An action's name in the page's words; one the list does not know is shown as stored. */
export function auditActionName(t: Translator, action: string): string {
  const key = Object.prototype.hasOwnProperty.call(AUDIT_ACTIONS, action) ? AUDIT_ACTIONS[action] : undefined;
  return key ? t(key) : action;
}

const isRole = (text: string): text is OperatorRole => (OPERATOR_ROLES as readonly string[]).includes(text);

/**
 * A stored detail (written in English for the log and the CLI) in the page's words. Each form the
 * service writes is read back by its shape; the values in it (counts, addresses, names, notes, ids)
 * are kept as they are, isolated. A detail of no known form is shown as stored, marked English.
 */
export function auditDetail(t: Translator, action: string, detail: string | null): SafeHtml | string {
  if (detail === null) return '';
  const role = (name: string) => (isRole(name) ? t(`role.${name}`) : name);
  let m: RegExpExecArray | null;
  if ((m = /^role (\w+)$/.exec(detail))) return t('auditDetail.role', { role: role(m[1]!) });
  if (detail === 'through the sign-on proxy') return t('auditDetail.throughSignOn');
  if ((m = /^wrong token \((\d+) from this address within (\d+) minutes\)$/.exec(detail))) {
    return t('auditDetail.wrongToken', { count: Number(m[1]), minutes: Number(m[2]) });
  }
  if ((m = /^too many wrong tokens: (\d+) from this address within (\d+) minutes; locked out until (\S+) \(attempts until then are logged, not audited\)$/.exec(detail))) {
    return t('auditDetail.lockedOut', { count: Number(m[1]), minutes: Number(m[2]), time: t.time(m[3]) });
  }
  if ((m = /^the sign-on proxy names ("(?:[^"\\]|\\.)*"), who (signs in with a token|is no operator)$/.exec(detail))) {
    const name = JSON.parse(m[1]!) as string;
    return t.rich(m[2] === 'is no operator' ? 'auditDetail.signOnUnknown' : 'auditDetail.signOnTokenOperator', { name: isolated(name) });
  }
  if (action === 'added operator' && (m = /^(\w+)(, single sign-on)?(, may cancel payments)?$/.exec(detail)) && isRole(m[1]!)) {
    return t('auditDetail.addedOperator', { role: role(m[1]!), sso: m[2] ? 'yes' : 'no', cancel: m[3] ? 'yes' : 'no' });
  }
  if (action === 'exported' && (m = /^range (\S+) to (\S+); filters (.+); (\d+) rows; (complete|failed|client disconnected)$/.exec(detail))) {
    const [from, to, filters] = [m[1]!, m[2]!, m[3]!];
    const range = from === '…' && to === '…' ? t('auditDetail.allDays') : t('auditDetail.range', { from, to });
    const filterText = filters === 'none' ? t('auditDetail.noFilter') : html`<code>${filters}</code>`;
    return t.rich('auditDetail.exported', { range, filters: filterText, rows: Number(m[4]), end: m[5] === 'client disconnected' ? 'gone' : m[5] });
  }
  if (action === 'requested cancel' && (m = /^command (\S+) \((\S+), (\S+)\): (full|partial) cancel of (\d+) ([A-Z]{3}) minor units of pgCno (\S+)$/.exec(detail))) {
    const state = (COMMAND_STATES as readonly string[]).includes(m[3]!) ? t(`commandState.${m[3] as CommandState}`) : m[3]!;
    return t.rich('auditDetail.requestedCancel', {
      command: html`<span class="mono">${m[1]!}</span>`, kind: commandKindName(t, m[2]!), state,
      type: m[4], amount: money(t, Number(m[5]), m[6]!), pgCno: html`<span class="mono">${m[7]!}</span>`,
    });
  }
  if (action === 'reprocess refused') return refusalReasons(t, detail);
  if ((m = /^(\d+) session\(s\) ended$/.exec(detail))) return t('auditDetail.sessionsEnded', { count: Number(m[1]) });
  if ((m = /^(\d+) event\(s\)$/.exec(detail))) return t('auditDetail.events', { count: Number(m[1]) });
  if (action === 'reprocessed' && (m = /^(accepted|duplicate|conflict|already-reprocessed) as (\S+)$/.exec(detail))) {
    return t.rich('auditDetail.reprocessed', { outcome: m[1], eventId: m[2] });
  }
  // A resolution's `mall/order: note`, a refusal's reasons: what people and the gateway's rules wrote.
  return html`<span lang="en">${isolated(detail)}</span>`;
}

/** The subject of a row: `rejection 12` in the page's words; ids, names and filters as stored. */
export function auditSubject(t: Translator, subject: string | null): SafeHtml | string {
  if (subject === null) return '';
  const m = /^rejection (\d+)$/.exec(subject);
  return m ? t('auditSubject.rejection', { id: m[1] }) : isolated(subject);
}

/**
 * Who acted, as the audit names them: a person's name and address as stored; the service's own
 * words around them (`unidentified`, `internal API`) in the page's language.
 */
export function auditActor(t: Translator, actor: string): SafeHtml {
  let m: RegExpExecArray | null;
  if ((m = /^(.*) \(internal API\)$/.exec(actor))) return t.rich('auditActor.internalApi', { name: isolated(m[1]!) });
  if ((m = /^unidentified \((.*)\)$/.exec(actor))) return t.rich('auditActor.unidentified', { address: isolated(m[1]!) });
  return isolated(actor);
}
