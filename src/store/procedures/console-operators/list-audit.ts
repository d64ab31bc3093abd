import type { AuditRow } from '../../store';
import { all, type Procedure } from '../procedure';

export function* listAudit(limit: number, offset = 0): Procedure<AuditRow[]> {
  const rows = yield* all<AuditRow>('SELECT id, at, actor, action, subject, detail FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?', limit, offset);
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}
