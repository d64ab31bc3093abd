import type { OperatorRow } from '../../store';
import { OPERATOR_IDENTITY_COLUMNS, toOperatorIdentity, type OperatorIdentityRow } from './operator-identity';
import { all, type Procedure } from '../procedure';

/** Every operator by name; never a token's hash. The table holds people, so reading it whole is its size. */
export function* listOperators(): Procedure<OperatorRow[]> {
  const rows = yield* all<OperatorIdentityRow & { created_at: string; token_set_at: string | null }>(
    `SELECT ${OPERATOR_IDENTITY_COLUMNS}, created_at, token_set_at FROM operators ORDER BY name`,
  );
  return rows.map((row) => ({ ...toOperatorIdentity(row), createdAt: row.created_at, tokenSetAt: row.token_set_at }));
}
