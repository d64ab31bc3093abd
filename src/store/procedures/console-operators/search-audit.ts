import type { AuditPage, AuditRow, AuditSearch } from '../../store';
import { all, pageEnd, type Param, type Procedure } from '../procedure';

/**
 * The audit log newest first, a page at a time below the id `before`, narrowed by operator, action
 * and a range of `at`. An actor is the operator's name and where they acted (`kim (10.0.0.7)`,
 * `ops-lead (cli)`) or a bare name (`internal-api`): the operator matches either exactly, compared
 * by prefix with substr rather than LIKE, so a `%` or `_` in a name is itself.
 */
export function* searchAudit(search: AuditSearch): Procedure<AuditPage> {
  const conditions: string[] = [];
  const params: Param[] = [];
  if (search.operator !== undefined) {
    const prefix = `${search.operator} (`;
    conditions.push('(actor = ? OR substr(actor, 1, ?) = ?)');
    params.push(search.operator, [...prefix].length, prefix);
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
