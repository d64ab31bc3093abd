import type { NewSession } from '../../store';
import { run, type Procedure } from '../procedure';

/**
 * Written without checking the operator: one removed in this very moment is refused by
 * `findSession`, which reads the operator record at every request.
 */
export function* createSession(session: NewSession): Procedure<void> {
  yield* run(
    'INSERT INTO sessions (id_hash, operator, csrf_token, token_hash, created_at, last_seen_at, locale) VALUES (?, ?, ?, ?, ?, ?, ?)',
    session.idHash, session.operator, session.csrfToken, session.tokenHash, session.now, session.now, session.locale ?? null,
  );
}
