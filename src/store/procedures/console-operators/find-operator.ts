import type { OperatorIdentity } from '../../store';
import { OPERATOR_IDENTITY_COLUMNS, toOperatorIdentity, type OperatorIdentityRow } from './operator-identity';
import { get, type Procedure } from '../procedure';

/** The operator a single sign-on proxy names (ADMIN_AUTH_HEADER), matched exactly. */
export function* findOperator(name: string): Procedure<OperatorIdentity | null> {
  const row = yield* get<OperatorIdentityRow>(`SELECT ${OPERATOR_IDENTITY_COLUMNS} FROM operators WHERE name = ?`, name);
  return row ? toOperatorIdentity(row) : null;
}
