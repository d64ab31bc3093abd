import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OutboundEvent, Publisher, PublisherStatus } from './publisher';

/**
 * Appends one JSON event per line. Each publish is fdatasync'ed before it resolves, so a
 * row marked delivered is on disk in the file too; a crash between the two only repeats a
 * line, which consumers de-duplicate by `id` (at-least-once).
 */
export async function openFilePublisher(path: string): Promise<Publisher> {
  await mkdir(dirname(path), { recursive: true });
  let handle: FileHandle | null = await open(path, 'a');
  let lastError: string | undefined;

  async function append(events: readonly OutboundEvent[]): Promise<void> {
    if (!handle) throw new Error('file publisher is closed');
    try {
      await handle.write(events.map((event) => `${event.json}\n`).join(''));
      await handle.datasync();
      lastError = undefined;
    } catch (error) {
      lastError = (error as Error).message;
      throw error;
    }
  }

  return {
    kind: 'file',
    publish: (event: OutboundEvent) => append([event]),
    publishBatch: append,
    status(): PublisherStatus {
      return { connected: handle !== null && lastError === undefined, detail: lastError ?? path };
    },
    async close() {
      const h = handle;
      handle = null;
      await h?.close();
    },
  };
}
