import { run, type Procedure } from '../procedure';

/** The language a session chose (null: back to the browser's); false when there is no such session. */
export function* setSessionLocale(idHash: string, locale: string | null): Procedure<boolean> {
  const changed = yield* run('UPDATE sessions SET locale = ? WHERE id_hash = ?', locale, idHash);
  return changed.changes > 0;
}
