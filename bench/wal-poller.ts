import { closeSync, openSync, readSync } from 'node:fs';
import { FrameTally, readIndexHeader } from './wal-index';

/**
 * A child process that samples a SQLite database's wal-index every millisecond and counts the
 * frames its WAL gains (wal-index.ts), so the sampling's CPU is not the measured process's.
 * Answers each message with the frames counted so far.
 */
const [shmPath] = process.argv.slice(2);
const tally = new FrameTally();
const buffer = Buffer.alloc(96);
let fd: number | null = null;

function sample(): void {
  try {
    fd ??= openSync(shmPath!, 'r');
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    tally.sample(readIndexHeader(buffer.subarray(0, read)));
  } catch {
    // No -shm yet (no connection opened the WAL), or it was replaced: the next sample retries.
    if (fd !== null) closeSync(fd);
    fd = null;
  }
}

const timer = setInterval(sample, 1);
process.on('message', () => {
  sample();
  process.send!({ frames: tally.frames, rewinds: tally.rewinds });
});
process.on('disconnect', () => clearInterval(timer));
sample();
process.send!({ ready: true });
