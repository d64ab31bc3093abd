import type { NormalizedEvent } from '../notifications/normalized-event';
import type { TraceHeaders } from '../tracing/tracing';

/**
 * What the relay hands a publisher: the event's JSON exactly as the store committed it
 * (written to the destination as is, never parsed and re-serialized), and the few fields
 * a destination routes or de-duplicates on.
 */
export interface OutboundEvent {
  /** The stable event id: message id, idempotency key. */
  readonly id: string;
  /** The routing key / subject suffix, e.g. `payment.approved`. */
  readonly type: string;
  readonly receivedAt: string;
  readonly json: string;
  /**
   * With tracing on: the W3C context of the publish span, carried beside the event (headers, a
   * Redis field, the file line's trailing members), never inside the event's own fields.
   */
  readonly trace?: TraceHeaders;
}

/** For a caller holding the event as an object (tests, tools). */
export function outboundEvent(event: NormalizedEvent): OutboundEvent {
  return { id: event.id, type: event.type, receivedAt: event.receivedAt, json: JSON.stringify(event) };
}

/**
 * Where the relay hands a stored event. `publish` resolves only once the destination has
 * taken responsibility for the event (fsync, broker confirm, 2xx): the relay marks the
 * outbox row delivered on that promise alone.
 */
export interface Publisher {
  /** A short name for logs, metrics and /readyz, e.g. `file`, `amqp`. */
  readonly kind: string;
  publish(event: OutboundEvent): Promise<void>;
  /**
   * Optional: take several events in order at once (one write and fsync, one wait for the
   * broker's confirms or acks, one pipeline). All or nothing as far as the relay knows: on failure it falls back to `publish`
   * one at a time, so a partly written batch is only repeated (at least once), never lost.
   */
  publishBatch?(events: readonly OutboundEvent[]): Promise<void>;
  /** Optional: open the destination anew (the file sink after log rotation; SIGHUP). */
  reopen?(): Promise<void>;
  /**
   * Optional: `listener` is called each time the connection to the broker comes back after a
   * loss, so the relay delivers the backlog then instead of waiting out its back-off (up to 30 s).
   */
  onReconnected?(listener: () => void): void;
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
