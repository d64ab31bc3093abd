import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Why a write must be refused for lack of disk space, or null when there is enough.
 * One statfs(2) per batch: cheap next to the batch's fsync. Free space is what an unprivileged
 * process may use (`bavail`), since the service does not run as root in production.
 */
export function tooLittleSpace(databasePath: string, minFreeBytes: number): string | null {
  if (minFreeBytes <= 0) return null;
  const dir = dirname(databasePath);
  let free: number;
  try {
    const stats = statfsSync(dir);
    free = stats.bavail * stats.bsize;
  } catch {
    // Not knowing is no reason to refuse acks; a deleted directory is caught by the file check.
    return null;
  }
  if (free >= minFreeBytes) return null;
  return `disk nearly full: ${free} bytes free on ${dir}, writes need at least ${minFreeBytes}`;
}
