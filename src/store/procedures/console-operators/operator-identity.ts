import type { OperatorIdentity, OperatorRole } from '../../store';

/** The columns behind an OperatorIdentity; `sso` and `can_cancel` as 0/1, which both databases return alike. */
export const OPERATOR_IDENTITY_COLUMNS = 'name, role, CASE WHEN token_hash IS NULL THEN 1 ELSE 0 END AS sso, can_cancel';

export interface OperatorIdentityRow {
  name: string;
  role: OperatorRole;
  sso: number;
  can_cancel: number | string;
}

export function toOperatorIdentity(row: OperatorIdentityRow): OperatorIdentity {
  return { name: row.name, role: row.role, sso: Number(row.sso) === 1, canCancel: Number(row.can_cancel) === 1 };
}
