/**
 * After a POST the browser is redirected (so a reload does not repeat it) with a notice code;
 * only these fixed texts are ever shown, never text taken from the URL.
 */
const NOTICES: Record<string, (n: number) => string> = {
  requeued: () => 'Requeued: the relay forwards it again within about a second.',
  'requeued-dead': (n) => `Requeued ${n} dead event(s) matching this filter.`,
  reprocessed: () => 'Reprocessed: the rejection is now a stored event.',
  'already-reprocessed': () => 'This rejection was already reprocessed.',
  'duplicate': () => 'The body matches an event already stored; nothing new to forward.',
  resolved: () => "Resolved: the note is on the discrepancy and in the audit; the order's status was recomputed.",
  'already-resolved': () => 'This discrepancy was already resolved; the first resolution stands.',
  'operator-removed': (n) => `Removed the operator and ended ${n} console session(s).`,
};

export function noticeFor(query: Record<string, unknown>): string | null {
  // Own keys only: `?done=valueOf` (or constructor, __proto__…) must not find Object.prototype's.
  const make = typeof query.done === 'string' && Object.hasOwn(NOTICES, query.done) ? NOTICES[query.done] : undefined;
  return make ? make(Math.max(0, Number.parseInt(String(query.n ?? '0'), 10) || 0)) : null;
}
