import { statSync } from 'node:fs';

/** `dev:ino` of what `path` names now, or null when nothing does (deleted). */
export function fileIdentity(path: string): string | null {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stats ? `${stats.dev}:${stats.ino}` : null;
}

/** Null while `path` still names the file opened as `identity`, else what went wrong, for the log. */
export function fileReplaced(path: string, identity: string): string | null {
  const now = fileIdentity(path);
  if (now === identity) return null;
  return now === null
    ? `database file ${path} was deleted while the service had it open; restart the service`
    : `database file ${path} was replaced while the service had it open; restart the service`;
}
