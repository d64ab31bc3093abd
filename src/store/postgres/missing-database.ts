import { StoreUnavailable } from '../store';

/** PostgreSQL's SQLSTATE for a connection to a database the server does not have. */
const INVALID_CATALOG_NAME = '3D000';

function codeOf(error: unknown): string | undefined {
  for (let at = error; at instanceof Error; at = at.cause) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** A word the shell takes as it is, or the same word in single quotes. */
const shellWord = (word: string): string => (/^[\w.@%+=:,/-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * A DATABASE_URL that names a database its server does not have: the receiver never creates one
 * itself (a typo in the name would otherwise start it on an empty ledger, beside the real one), so
 * the refusal names the database and says how to create it. Null for any other failure.
 */
export function missingDatabase(url: string, error: unknown): StoreUnavailable | null {
  if (codeOf(error) !== INVALID_CATALOG_NAME) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || 'postgres';
  const host = parsed.hostname || 'localhost';
  const port = parsed.port || '5432';
  const user = decodeURIComponent(parsed.username);
  const createdb = ['createdb', '-h', host, '-p', port, ...(user ? ['-U', user] : []), name].map(shellWord).join(' ');
  return new StoreUnavailable(
    `PostgreSQL at ${host}:${port} has no database "${name}" (DATABASE_URL): create it with \`${createdb}\`, ` +
      `or CREATE DATABASE "${name.replace(/"/g, '""')}"; as a user allowed to, then start again`,
    { cause: error },
  );
}
