import type { OperatorRole } from '../store/store';

/** Each role may do everything the roles before it may. */
const RANK: Record<OperatorRole, number> = { viewer: 0, operator: 1, admin: 2 };

export function roleAllows(role: OperatorRole, needs: OperatorRole): boolean {
  return RANK[role] >= RANK[needs];
}

/** What a state-changing console request needs unless its route asks for more: viewers only read. */
export const ACTING_ROLE: OperatorRole = 'operator';
