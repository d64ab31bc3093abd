import { run, type Procedure } from '../procedure';

/** Every lease freed: with one SQLite file there is one process, so a lease found at start is a dead process's. */
export function* releaseCommandLeases(): Procedure<number> {
  return (yield* run('UPDATE commands SET locked_by = NULL, locked_until = NULL WHERE locked_by IS NOT NULL')).changes;
}
