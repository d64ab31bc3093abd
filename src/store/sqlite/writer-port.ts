import type { MessagePort } from 'node:worker_threads';
import type { WriteName } from '../procedures';
import { WriteChannel } from './write-channel';
import type { FromWriter } from './writer-protocol';

/**
 * Another thread's side of the one SQLite writer, over a port the main thread handed it
 * (WriterClient.attachClient). Until the first port arrives, and between a writer's death and the
 * port to its successor, writes fail at once (503: the gateway resends). Health, checkpoints and
 * the relay's wake-ups stay with the main thread, which the writer tells of every batch.
 */
// Loaded with import(), so the SQLite modules load only where SQLite is used.
// ts-unused-exports:disable-next-line
export class WriterPort {
  private readonly channel = new WriteChannel('sqlite writer not connected yet');
  private port: MessagePort | null = null;

  /** Writes go to the writer behind `port` from now on. */
  attach(port: MessagePort): void {
    this.port?.close();
    this.port = port;
    port.on('message', (message: FromWriter) => {
      if (message.type === 'batch') this.channel.settle(message.replies);
    });
    // The writer's thread ended (died, or closed with the store): the main thread sends a new port
    // when a new writer is up.
    port.once('close', () => {
      if (this.port !== port) return;
      this.port = null;
      this.channel.refuse('sqlite writer stopped');
    });
    this.channel.open(port);
  }

  write(name: WriteName, args: unknown[]): Promise<unknown> {
    return this.channel.write(name, args);
  }

  /** Posts what is asked, waits for every reply, then lets the port go. */
  async close(): Promise<void> {
    this.channel.post();
    await this.channel.idle();
    this.channel.refuse('closed');
    const port = this.port;
    this.port = null;
    port?.close();
  }
}
