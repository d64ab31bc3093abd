import { run, type Procedure } from '../procedure';

/** Signing out, on every replica at once. */
export function* endSession(idHash: string): Procedure<boolean> {
  return (yield* run('DELETE FROM sessions WHERE id_hash = ?', idHash)).changes > 0;
}
