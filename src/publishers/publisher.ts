import type { NormalizedEvent } from '../notifications/normalized-event';

/**
 * Where the relay hands a stored event. `publish` resolves only once the destination has
 * taken responsibility for the event (fsync, broker confirm, 2xx): the relay marks the
 * outbox row delivered on that promise alone.
 */
export interface Publisher {
  /** A short name for logs, metrics and /readyz, e.g. `file`, `amqp`. */
  readonly kind: string;
  publish(event: NormalizedEvent): Promise<void>;
  /**
   * Optional: take several events in order at once (one write, one fsync or one round of
   * confirms). All or nothing as far as the relay knows: on failure it falls back to `publish`
   * one at a time, so a partly written batch is only repeated (at least once), never lost.
   */
  publishBatch?(events: readonly NormalizedEvent[]): Promise<void>;
  /** Optional: open the destination anew (the file sink after log rotation; SIGHUP). */
  reopen?(): Promise<void>;
  /** Cheap liveness view for /readyz; never throws. */
  status(): PublisherStatus;
  close(): Promise<void>;
}

export interface PublisherStatus {
  connected: boolean;
  detail?: string;
}

/** The destination said no for good (e.g. HTTP 400): retrying the same bytes cannot help. */
export class PermanentPublishError extends Error {
  override readonly name = 'PermanentPublishError';
}

/** Everything else is treated as transient: the relay retries with backoff and keeps order. */
export function isPermanent(error: unknown): boolean {
  return error instanceof PermanentPublishError;
}
