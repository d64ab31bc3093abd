import type { MessageKey } from './i18n/catalogues';
import type { Translator } from './i18n/translator';

/**
 * After a POST the browser is redirected (so a reload does not repeat it) with a notice code;
 * only these fixed texts are ever shown, never text taken from the URL.
 */
const NOTICES: Record<string, MessageKey> = {
  requeued: 'notice.requeued',
  'requeued-dead': 'notice.requeuedDead',
  reprocessed: 'notice.reprocessed',
  'already-reprocessed': 'notice.alreadyReprocessed',
  duplicate: 'notice.duplicate',
  resolved: 'notice.resolved',
  'already-resolved': 'notice.alreadyResolved',
  'operator-removed': 'notice.operatorRemoved',
  'cancel-requested': 'notice.cancelRequested',
  'list-imported': 'notice.listImported',
  'list-imported-matching': 'notice.listImportedMatching',
  'statement-imported': 'notice.statementImported',
  'list-already-imported': 'notice.listAlreadyImported',
  'day-closed': 'notice.dayClosed',
  'day-already-closed': 'notice.dayAlreadyClosed',
  'day-reopened': 'notice.dayReopened',
};

const count = (value: unknown): number => Math.max(0, Number.parseInt(String(value ?? '0'), 10) || 0);

export function noticeFor(query: Record<string, unknown>, t: Translator): string | null {
  // Own keys only: `?done=valueOf` names no notice, whatever Object.prototype holds.
  const key = typeof query.done === 'string' && Object.hasOwn(NOTICES, query.done) ? NOTICES[query.done] : undefined;
  // Only counts come from the URL (rows, days, differences), each read as a number.
  return key ? t(key, { n: count(query.n), days: count(query.days), d: count(query.d) }) : null;
}
