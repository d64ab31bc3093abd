import { run, type Procedure } from '../procedure';

/** Signs an operator out everywhere (removal, a replaced token, an admin's decision). */
export function* endSessionsOf(operator: string): Procedure<number> {
  return (yield* run('DELETE FROM sessions WHERE operator = ?', operator)).changes;
}
