import type { RotateTokenOutcome } from '../../store';
import { get, run, type Procedure } from '../procedure';

/**
 * A token is replaced because it may have leaked, so the sessions signed in with it end too, in
 * the same transaction. A single sign-on operator keeps having no token: giving one would open a
 * second way in that the company's sign-on no longer controls.
 */
export function* rotateOperatorToken(name: string, tokenHash: string, at: string): Procedure<RotateTokenOutcome> {
  const replaced = yield* run('UPDATE operators SET token_hash = ?, token_set_at = ? WHERE name = ? AND token_hash IS NOT NULL', tokenHash, at, name);
  if (replaced.changes > 0) {
    yield* run('DELETE FROM sessions WHERE operator = ?', name);
    return 'rotated';
  }
  return (yield* get('SELECT 1 AS found FROM operators WHERE name = ?', name)) ? 'sso' : 'unknown';
}
