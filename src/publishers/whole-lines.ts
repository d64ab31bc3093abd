import type { FileHandle } from 'node:fs/promises';

/**
 * write(2) may write fewer bytes than asked (a disk filling up) without an error; only the
 * next call fails. Keep writing until every byte is out or the disk says why it cannot.
 */
export async function writeFully(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset, null);
    if (bytesWritten <= 0) throw Object.assign(new Error('write made no progress (disk full?)'), { code: 'ENOSPC' });
    offset += bytesWritten;
  }
}

const CHUNK = 64 * 1024;

/** Cuts the file back to just after its last newline (to empty when it has none). */
export async function trimToLastWholeLine(handle: FileHandle): Promise<void> {
  const { size } = await handle.stat();
  if (size === 0) return;
  const buffer = Buffer.alloc(Math.min(CHUNK, size));
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - buffer.length);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    const newline = buffer.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (newline !== -1) {
      const keep = start + newline + 1;
      if (keep < size) await handle.truncate(keep);
      return;
    }
    end = start;
  }
  await handle.truncate(0);
}
