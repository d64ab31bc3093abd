import type { AuditEntry } from '../../store';
import { get, type Procedure } from '../procedure';

export function* recordAudit(entry: AuditEntry): Procedure<number> {
  const row = yield* get<{ id: number | string }>(
    'INSERT INTO audit_log (at, actor, action, subject, detail) VALUES (?, ?, ?, ?, ?) RETURNING id',
    entry.at, entry.actor, entry.action, entry.subject, entry.detail,
  );
  return Number(row!.id);
}
