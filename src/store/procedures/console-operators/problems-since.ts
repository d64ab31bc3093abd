import type { ProblemCounts } from '../../store';
import { get, type Procedure } from '../procedure';

/** Rejections and conflicts received at or after `since` (ISO): the overview's "last 24 h". */
export function* problemsSince(since: string): Procedure<ProblemCounts> {
  const row = yield* get<{ rejections: number | string; conflicts: number | string }>(
    `SELECT (SELECT count(*) FROM rejections WHERE received_at >= ?) AS rejections,
       (SELECT count(*) FROM conflicts WHERE received_at >= ?) AS conflicts`,
    since, since,
  );
  return { rejections: Number(row?.rejections ?? 0), conflicts: Number(row?.conflicts ?? 0) };
}
