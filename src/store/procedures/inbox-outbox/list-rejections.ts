import type { RejectionRow } from '../../store';
import { REJECTION_COLUMNS } from './columns';
import { all, type Procedure } from '../procedure';

export function* listRejections(limit = 100): Procedure<RejectionRow[]> {
  return yield* all<RejectionRow>(`SELECT ${REJECTION_COLUMNS} FROM rejections ORDER BY id DESC LIMIT ?`, limit);
}
