import type { AddOperatorOutcome, NewOperator } from '../../store';
import { run, type Procedure } from '../procedure';

/** An existing name is left as it is: replacing a token is `rotateOperatorToken`, a role change is remove and add. */
export function* addOperator(operator: NewOperator): Procedure<AddOperatorOutcome> {
  const inserted = yield* run(
    `INSERT INTO operators (name, role, token_hash, created_at, token_set_at, can_cancel) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (name) DO NOTHING`,
    operator.name, operator.role, operator.tokenHash, operator.createdAt, operator.tokenHash === null ? null : operator.createdAt, operator.canCancel ? 1 : 0,
  );
  return inserted.changes > 0 ? 'added' : 'exists';
}
