import { statSync } from 'node:fs';

/** `dev:ino` of what `path` names now, or null when nothing does (deleted). */
export function fileIdentity(path: string): string | null {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stats ? `${stats.dev}:${stats.ino}` : null;
}

/**
 * Null while `path` still names the file opened as `identity`, else what went wrong, for the log.
 * `what` names the file: the database itself, or its write-ahead log.
 */
export function fileReplaced(path: string, identity: string, what = 'database file'): string | null {
  const now = fileIdentity(path);
  if (now === identity) return null;
  return now === null
    ? `${what} ${path} was deleted while the service had it open; restart the service`
    : `${what} ${path} was replaced while the service had it open; restart the service`;
}
