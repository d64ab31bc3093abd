import type { AuditPage, AuditRow, AuditSearch } from '../../store';
import { all, pageEnd, type Param, type Procedure } from '../procedure';

/**
 * The audit log newest first, a page at a time below the id `before`, narrowed by operator, action
 * and a range of `at`. The operator is matched exactly on the name stored apart from where they
 * acted (`auditOperator`): a prefix of the actor would also match another operator whose name
 * starts with this one's and ` (`, and `=` leaves a `%` or `_` in a name itself.
 */
export function* searchAudit(search: AuditSearch): Procedure<AuditPage> {
  const conditions: string[] = [];
  const params: Param[] = [];
  if (search.operator !== undefined) {
    conditions.push('operator = ?');
    params.push(search.operator);
  }
  if (search.action !== undefined) {
    conditions.push('action = ?');
    params.push(search.action);
  }
  if (search.from !== undefined) {
    conditions.push('at >= ?');
    params.push(search.from);
  }
  if (search.to !== undefined) {
    conditions.push('at < ?');
    params.push(search.to);
  }
  if (search.before !== undefined) {
    conditions.push('id < ?');
    params.push(search.before);
  }
  const rows = yield* all<AuditRow>(
    `SELECT id, at, actor, action, subject, detail FROM audit_log${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
    ...params, search.limit,
  );
  return { rows: rows.map((row) => ({ ...row, id: Number(row.id) })), last: pageEnd(rows, search.limit, (row) => row.id) };
}
