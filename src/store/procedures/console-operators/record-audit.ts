import type { AuditEntry } from '../../store';
import { get, type Procedure } from '../procedure';

/**
 * The operator an actor names: an actor is `<operator> (<where>)` (`kim (10.0.0.7)`, `ops-lead
 * (cli)`, `kim (internal API)`), where `<where>` never holds `(`, or a bare name (`cli`). A name may
 * itself end in ` (…)`, so only the last such group is where. Migration 017 derives the same for
 * the rows written before it.
 */
export function auditOperator(actor: string): string {
  return /^([\s\S]*) \([^(]*\)$/.exec(actor)?.[1] ?? actor;
}

export function* recordAudit(entry: AuditEntry): Procedure<number> {
  const row = yield* get<{ id: number | string }>(
    'INSERT INTO audit_log (at, actor, operator, action, subject, detail) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
    entry.at, entry.actor, auditOperator(entry.actor), entry.action, entry.subject, entry.detail,
  );
  return Number(row!.id);
}
