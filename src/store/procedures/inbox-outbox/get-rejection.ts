import type { RejectionRow } from '../../store';
import { REJECTION_COLUMNS } from './columns';
import { get, type Procedure } from '../procedure';

export function* getRejection(id: number): Procedure<RejectionRow | null> {
  return (yield* get<RejectionRow>(`SELECT ${REJECTION_COLUMNS} FROM rejections WHERE id = ?`, id)) ?? null;
}
