import type { Logger } from '../observability/logger';
import { backoffDelay, type BackoffOptions } from '../backoff';
import type { PublisherStatus } from './publisher';

export interface KeeperOptions<T> {
  /** Safe to log: no credentials. */
  target: string;
  /**
   * Opens one connection. `lost` must be called (once is enough) when the connection dies
   * later, so the keeper drops it and reconnects in the background.
   */
  connect(lost: (error: Error) => void): Promise<T>;
  disconnect(connection: T): Promise<void>;
  reconnect?: BackoffOptions;
  logger?: Logger;
}

const DEFAULT_RECONNECT: BackoffOptions = { baseMs: 250, maxMs: 5_000 };
const DISCONNECT_TIMEOUT_MS = 2_000;

/**
 * Holds at most one live connection to a broker. The receiver must start and keep acking the
 * gateway while the broker is down, so nothing here throws at open: `get()` fails fast for the
 * publish at hand (the relay retries it in order), and a background timer keeps reconnecting
 * after a loss so /readyz recovers without waiting for the next publish.
 */
export class ConnectionKeeper<T> {
  private connection: T | null = null;
  private connecting: Promise<T> | null = null;
  private lastError: string | null = null;
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly reconnected: Array<() => void> = [];

  constructor(private readonly options: KeeperOptions<T>) {}

  /** `listener` runs each time a connection is opened after a failure or a loss (not the first one). */
  onReconnected(listener: () => void): void {
    this.reconnected.push(listener);
  }

  /** For a client that reconnects on its own (nats.js) and reports it here. */
  announceReconnected(): void {
    this.options.logger?.info('queue connection restored', { queue: this.options.target });
    for (const listener of this.reconnected) listener();
  }

  /** Starts connecting without waiting; a failure only schedules the next try. */
  start(): void {
    this.get().catch(() => undefined);
  }

  get(): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`${this.options.target}: publisher is closed`));
    if (this.connection) return Promise.resolve(this.connection);
    this.connecting ??= this.open();
    return this.connecting;
  }

  /** Drops a connection the caller found broken (e.g. a channel error during publish). */
  invalidate(connection: T, error: Error): void {
    if (this.connection !== connection) return;
    this.connection = null;
    this.lastError = error.message;
    this.options.logger?.warn('queue connection lost; reconnecting', { queue: this.options.target, error: error.message });
    void this.disconnectQuietly(connection);
    this.scheduleReconnect();
  }

  status(): PublisherStatus {
    if (this.connection) return { connected: true, detail: this.options.target };
    const why = this.closed ? 'closed' : this.lastError ?? 'connecting';
    return { connected: false, detail: `${this.options.target}: ${why}` };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const pending = this.connecting;
    const connection = this.connection;
    this.connection = null;
    if (connection) await this.disconnectQuietly(connection);
    // A connect that was in flight still ends in a live connection: close that one too.
    const late = await pending?.catch(() => null);
    if (late && late !== connection) await this.disconnectQuietly(late);
  }

  /** A polite close waits for the broker's reply, which a dead socket never sends: shutdown must not hang on it. */
  private async disconnectQuietly(connection: T): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DISCONNECT_TIMEOUT_MS);
    });
    await Promise.race([this.options.disconnect(connection).catch(() => undefined), gaveUp]);
    clearTimeout(timer);
  }

  private async open(): Promise<T> {
    try {
      let current: T | null = null;
      const connection = await this.options.connect((error) => {
        if (current) this.invalidate(current, error);
      });
      current = connection;
      if (this.closed) {
        await this.disconnectQuietly(connection);
        throw new Error(`${this.options.target}: publisher is closed`);
      }
      const restored = this.failures > 0 || this.lastError !== null;
      this.connection = connection;
      this.lastError = null;
      this.failures = 0;
      if (restored) this.announceReconnected();
      return connection;
    } catch (error) {
      this.lastError = (error as Error).message;
      this.failures += 1;
      if (this.failures === 1) {
        this.options.logger?.warn('queue unreachable; events wait in the outbox', {
          queue: this.options.target, error: this.lastError,
        });
      }
      this.scheduleReconnect();
      throw error;
    } finally {
      this.connecting = null;
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.timer) return;
    const delay = backoffDelay(this.failures + 1, this.options.reconnect ?? DEFAULT_RECONNECT);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.start();
    }, delay);
    // Reconnecting must never keep a stopping process alive.
    this.timer.unref();
  }
}
