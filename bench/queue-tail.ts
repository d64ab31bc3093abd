import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Receive-to-queue latency measured from outside: polls the file sink, and for each event
 * line that appeared, takes "now" minus the event's own `receivedAt`. Both clocks are this
 * machine's; the error is the poll interval plus the bench's own event-loop delay.
 */
export function tailQueueFile(path: string, pollMs = 10) {
  let fd: number | null = null;
  let offset = 0;
  let partial = '';
  const latenciesMs: number[] = [];
  const poll = () => {
    if (fd === null) {
      if (!existsSync(path)) return;
      fd = openSync(path, 'r');
      offset = fstatSync(fd).size; // Only events appended from now on count.
    }
    const size = fstatSync(fd).size;
    if (size <= offset) return;
    const buffer = Buffer.allocUnsafe(size - offset);
    readSync(fd, buffer, 0, buffer.length, offset);
    offset = size;
    const now = Date.now();
    const lines = (partial + buffer.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const receivedAt = /"receivedAt":"([^"]+)"/.exec(line)?.[1];
      if (receivedAt) latenciesMs.push(now - Date.parse(receivedAt));
    }
  };
  const timer = setInterval(poll, pollMs);
  return {
    /** Stops tailing and returns one latency per event forwarded while it ran. */
    stop(): number[] {
      clearInterval(timer);
      poll();
      if (fd !== null) closeSync(fd);
      return latenciesMs;
    },
  };
}
