import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OutboundEvent, Publisher, PublisherStatus } from './publisher';
import { trimToLastWholeLine, writeFully } from './whole-lines';

/**
 * Appends one JSON event per line. A publish resolves only when every byte of its lines was
 * written and fdatasync'ed, so a row marked delivered is on disk in the file too; a crash
 * between the two only repeats a line, which consumers de-duplicate by `id` (at-least-once).
 *
 * A failed or short write (a full disk) is cut back to the offset before it, so the file
 * always ends on a whole line and the next event is never glued onto a broken one; the
 * error reaches the relay, which retries with back-off.
 *
 * Log rotation: before each write the path is compared with the open file (device and
 * inode); when it was renamed or deleted, the path is opened anew. `reopen()` (SIGHUP)
 * does the same at once.
 */
export interface FilePublisher extends Publisher {
  reopen(): Promise<void>;
}

interface OpenFile {
  handle: FileHandle;
  dev: number;
  ino: number;
}

export async function openFilePublisher(path: string): Promise<FilePublisher> {
  let file: OpenFile | null = await openPath(path);
  let closed = false;
  let lastError: string | undefined;
  // One write, truncate or reopen at a time: a SIGHUP must not swap the handle under a write.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  async function current(): Promise<OpenFile> {
    if (closed) throw new Error('file publisher is closed');
    if (!file || !(await stillNamesPath(file, path))) await swap();
    return file!;
  }

  async function swapOut(): Promise<void> {
    const old = file;
    file = null;
    await old?.handle.close().catch(() => undefined);
  }

  async function swap(): Promise<void> {
    await swapOut();
    file = await openPath(path);
  }

  async function append(lines: Buffer): Promise<void> {
    try {
      const { handle } = await current();
      // The size now, not a remembered one: `copytruncate` rotation may have emptied the file.
      const goodSize = (await handle.stat()).size;
      try {
        await writeFully(handle, lines);
        await handle.datasync();
      } catch (error) {
        // If even the cut fails, drop the handle: the next write reopens and trims to the last whole line.
        await handle.truncate(goodSize).catch(() => swapOut());
        throw error;
      }
      lastError = undefined;
    } catch (error) {
      lastError = (error as Error).message;
      throw error;
    }
  }

  // The stored JSON is written as it is: one line per event, never parsed and re-serialized.
  const publishLines = (events: readonly OutboundEvent[]) => serially(() => append(lineBytes(events)));

  return {
    kind: 'file',
    publish: (event: OutboundEvent) => publishLines([event]),
    publishBatch: publishLines,
    reopen: () => serially(swap),
    status(): PublisherStatus {
      return { connected: !closed && lastError === undefined, detail: lastError ?? path };
    },
    close: () =>
      serially(async () => {
        closed = true;
        const old = file;
        file = null;
        await old?.handle.close();
      }),
  };
}

/**
 * The events' lines encoded straight into one buffer. Joining them into one string first made a
 * string of up to a whole batch (500 events, ~1 MB) per pass: V8 keeps strings that large in its
 * large-object space until a full collection, which showed as tens of MB of resident memory
 * under load; a buffer's bytes are freed with its small handle at the next scavenge.
 */
function lineBytes(events: readonly OutboundEvent[]): Buffer {
  const lines = events.map(lineOf);
  let size = 0;
  for (const line of lines) size += Buffer.byteLength(line, 'utf8') + 1;
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const line of lines) {
    offset += bytes.write(line, offset, 'utf8');
    bytes[offset++] = 0x0a;
  }
  return bytes;
}

/**
 * A line is the stored event JSON; with tracing on, the W3C trace context follows as its last
 * members (`traceparent`, `tracestate`), after the event's own fields, which stay as stored.
 */
function lineOf(event: OutboundEvent): string {
  if (!event.trace) return event.json;
  return `${event.json.slice(0, event.json.lastIndexOf('}'))},${JSON.stringify(event.trace).slice(1)}`;
}

/** Opens for append and drops a torn last line left by a crash mid-write, so it never glues onto the next. */
async function openPath(path: string): Promise<OpenFile> {
  await mkdir(dirname(path), { recursive: true });
  const created = !(await exists(path));
  const handle = await open(path, 'a+');
  try {
    // A new file's name must survive a power loss too, or its fsynced lines are unreachable.
    if (created) await syncDirectory(dirname(path));
    await trimToLastWholeLine(handle);
    const { dev, ino } = await handle.stat();
    return { handle, dev, ino };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

async function stillNamesPath(file: OpenFile, path: string): Promise<boolean> {
  try {
    const named = await stat(path);
    return named.dev === file.dev && named.ino === file.ino;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
