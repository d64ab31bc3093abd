import type { Config } from '../config/env';
import { ReceiverError } from '../errors';
import { decodeBody } from '../http/decode-body';
import { sourceClassifier } from '../http/source-check';
import { receiveNotification } from '../notifications/receive-notification';
import type { Logger } from '../observability/logger';
import { createMetrics } from '../observability/metrics';
import type { RecordOutcome, RejectionRow, Store } from '../store/store';

export type ReprocessResult =
  | { ok: true; outcome: RecordOutcome | 'already-reprocessed'; eventId: string }
  | { ok: false; reasons: string[] };

type ReprocessConfig = Pick<Config, 'GATEWAY_ENV' | 'EXTRA_ALLOWED_IPS' | 'TRUST_PROXY' | 'MALL_IDS'>;

/**
 * Runs a rejected body through the receive path again under the current configuration.
 * It goes through `receiveNotification`, exactly as a live request would, so an accepted one
 * is deduplicated against what arrived since (the gateway may have resent it after a fix)
 * and gets its outbox row in the same transaction.
 */
export async function reprocessRejection(
  rejection: RejectionRow,
  deps: { store: Store; config: ReprocessConfig; logger: Logger; now?: () => Date },
): Promise<ReprocessResult> {
  if (rejection.reprocessedEventId) {
    return { ok: true, outcome: 'already-reprocessed', eventId: rejection.reprocessedEventId };
  }
  if (!rejection.rawBody) {
    return { ok: false, reasons: ['the body was not kept (it was too large to read); ask the gateway to resend it'] };
  }
  const { config } = deps;
  // The source is judged again too: a rejection recorded under an older allowlist must not
  // become an event if that address is no longer trusted.
  const environment = sourceClassifier({
    gatewayEnv: config.GATEWAY_ENV,
    extraAllowed: config.EXTRA_ALLOWED_IPS,
    trustProxy: config.TRUST_PROXY,
  })(rejection.sourceIp);
  if (environment === null) {
    return { ok: false, reasons: [`source ${rejection.sourceIp} is not allowed by GATEWAY_ENV=${config.GATEWAY_ENV} and EXTRA_ALLOWED_IPS`] };
  }

  let result;
  try {
    const fields = decodeBody(rejection.rawBody, rejection.contentType ?? undefined);
    result = await receiveNotification(
      {
        fields,
        rawBody: rejection.rawBody,
        contentType: rejection.contentType ?? '',
        receipt: { receivedAt: rejection.receivedAt, sourceIp: rejection.sourceIp, environment },
      },
      { store: deps.store, logger: deps.logger, metrics: createMetrics(), mallIds: config.MALL_IDS },
    );
  } catch (error) {
    if (error instanceof ReceiverError) return { ok: false, reasons: error.message.split('; ') };
    throw error;
  }
  // A crash between the two commits leaves the rejection unmarked; running this again then
  // finds the event as a duplicate and marks it, so the pair is safe to repeat.
  await deps.store.markRejectionReprocessed(rejection.id, result.eventId, (deps.now?.() ?? new Date()).toISOString());
  return { ok: true, outcome: result.outcome, eventId: result.eventId };
}
