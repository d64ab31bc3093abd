import { InvalidNotification } from '../errors';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import type { IngestStore } from '../store/ingest-store';
import type { RecordResult } from '../store/store';
import type { Tracing } from '../tracing/tracing';
import { bodyHash } from '../notifications/dedup-key';
import { normalizeNotification, type Receipt } from '../notifications/normalize';
import { validateNotification } from '../notifications/schema';
import { statedNotiType } from '../notifications/stated-noti-type';

export interface ReceiveDeps {
  store: Pick<IngestStore, 'record'>;
  logger: Logger;
  metrics: Metrics;
  mallIds: readonly string[];
  /** Null or absent: tracing is off and the POST pays nothing for it. */
  tracing?: Tracing | null;
}

export interface ReceivedNotification {
  fields: Record<string, unknown>;
  rawBody: Buffer;
  contentType: string;
  receipt: Receipt;
  /** The POST's span context, kept with the outbox row (tracing on only). */
  traceContext?: string | null;
}

/**
 * Validate, normalize, and durably record one decoded notification. Resolves only after the
 * store committed, so the caller may ack `0000`; a duplicate or conflict resolves too,
 * because the gateway must stop retrying something we already hold.
 */
export async function receiveNotification(input: ReceivedNotification, deps: ReceiveDeps): Promise<RecordResult> {
  const { logger, metrics } = deps;
  const validation = validateNotification(input.fields, { mallIds: deps.mallIds });
  if (!validation.ok) {
    throw new InvalidNotification(summarizeReasons(validation.reasons), String(statedNotiType(input.fields) ?? 'unknown'));
  }
  const { event, dedupKey } = normalizeNotification(validation.value, input.receipt);
  for (const warning of validation.value.warnings) {
    logger.warn('notification field over its documented length; accepted anyway', { eventId: event.id, warning });
  }

  // Only these few strings wait with the request for its commit: the event (with every field of the
  // body) is garbage once the store has taken its row, not a few milliseconds later. Under many
  // concurrent requests, objects alive across a young-generation collection are copied and then
  // promoted to the old space, which grows with them.
  const { notiType, type, mallId, pgCno, shopOrderNo } = event;
  const sourceIp = event.source.ip;
  const stopTimer = metrics.commitLatency.startTimer();
  const result = await deps.store.record({
    dedupKey,
    event,
    bodyHash: bodyHash(validation.value.fields),
    rawBody: input.rawBody,
    contentType: input.contentType,
    traceContext: input.traceContext ?? null,
  });
  stopTimer();
  metrics.notifications.inc({ noti_type: notiType, outcome: result.outcome });

  const context = { eventId: result.eventId, type, mallId, pgCno, shopOrderNo, sourceIp };
  if (result.outcome === 'accepted') logger.info('notification accepted', context);
  else if (result.outcome === 'duplicate') logger.info('redelivery acked; already stored', context);
  else logger.warn('redelivery differs from the stored notification; kept as a conflict, not forwarded', context);
  return result;
}

/** A body can be built to fail thousands of checks; the answer, the log and the rejection get the first few. */
const MAX_REASONS = 10;

function summarizeReasons(reasons: string[]): string {
  if (reasons.length <= MAX_REASONS) return reasons.join('; ');
  return `${reasons.slice(0, MAX_REASONS).join('; ')}; and ${reasons.length - MAX_REASONS} more`;
}
