import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real, small filesystem that fills up for real (ENOSPC, short writes), so disk-full
 * behaviour is tested against the kernel instead of a mock. Needs root (CAP_SYS_ADMIN).
 */
export interface Tmpfs {
  dir: string;
  unmount(): void;
}

export function mountTmpfs(sizeKb: number): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'noti-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    unmount() {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether this process may mount a tmpfs; the reason is printed when it may not. */
export function canMountTmpfs(suite: string): boolean {
  try {
    mountTmpfs(16).unmount();
    return true;
  } catch (error) {
    console.warn(`skipping "${suite}": mounting a tmpfs needs root (${(error as Error).message.split('\n')[0]})`);
    return false;
  }
}

/** Writes until the filesystem refuses even one byte more. */
export function fillFile(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [64 * 1024, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}
