import { BOOTSTRAP_OPERATOR, type OperatorRole, type SessionCheck, type SessionRecord } from '../../store';
import { get, type Procedure } from '../procedure';

interface SessionRow {
  operator: string;
  csrf_token: string;
  token_hash: string | null;
  created_at: number | string;
  last_seen_at: number | string;
  role: OperatorRole | null;
  locale: string | null;
}

/**
 * A live session and its operator's role now. Both expiries are in the query (idle since
 * last_seen_at, absolute since created_at), so an expired row that pruning has not reached yet
 * is no session. The role comes from the operator record at every request: a removed operator's
 * session, even one created while the removal committed, finds no record and is none. The
 * bootstrap admin has no record (see BOOTSTRAP_OPERATOR): its session holds while the token it
 * signed in with is still ADMIN_TOKEN.
 */
export function* findSession(idHash: string, check: SessionCheck): Procedure<SessionRecord | null> {
  const row = yield* get<SessionRow>(
    `SELECT s.operator, s.csrf_token, s.token_hash, s.created_at, s.last_seen_at, s.locale, o.role
     FROM sessions s LEFT JOIN operators o ON o.name = s.operator
     WHERE s.id_hash = ? AND s.last_seen_at > ? AND s.created_at > ?`,
    idHash, check.now - check.idleMs, check.now - check.absoluteMs,
  );
  if (!row) return null;
  const role = row.role ?? (bootstrapSession(row, check) ? 'admin' : null);
  if (role === null) return null;
  return { operator: row.operator, role, throughSignOn: row.token_hash === null, csrfToken: row.csrf_token, createdAt: Number(row.created_at), lastSeenAt: Number(row.last_seen_at), locale: row.locale };
}

function bootstrapSession(row: SessionRow, check: SessionCheck): boolean {
  return row.operator === BOOTSTRAP_OPERATOR && row.token_hash !== null && row.token_hash === check.bootstrapTokenHash;
}
