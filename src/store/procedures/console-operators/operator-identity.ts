import type { OperatorIdentity, OperatorRole } from '../../store';

/** The columns behind an OperatorIdentity; `sso` as 0/1, which both databases return alike. */
export const OPERATOR_IDENTITY_COLUMNS = 'name, role, CASE WHEN token_hash IS NULL THEN 1 ELSE 0 END AS sso';

export interface OperatorIdentityRow {
  name: string;
  role: OperatorRole;
  sso: number;
}

export function toOperatorIdentity(row: OperatorIdentityRow): OperatorIdentity {
  return { name: row.name, role: row.role, sso: Number(row.sso) === 1 };
}
