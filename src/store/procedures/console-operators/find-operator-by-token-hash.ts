import type { OperatorIdentity } from '../../store';
import { OPERATOR_IDENTITY_COLUMNS, toOperatorIdentity, type OperatorIdentityRow } from './operator-identity';
import { get, type Procedure } from '../procedure';

/**
 * Sign-in with a token: found by the hash of what was typed, through the unique index. That the
 * search takes longer or shorter depending on the hash tells nothing usable (operator-credentials.ts).
 */
export function* findOperatorByTokenHash(tokenHash: string): Procedure<OperatorIdentity | null> {
  const row = yield* get<OperatorIdentityRow>(`SELECT ${OPERATOR_IDENTITY_COLUMNS} FROM operators WHERE token_hash = ?`, tokenHash);
  return row ? toOperatorIdentity(row) : null;
}
