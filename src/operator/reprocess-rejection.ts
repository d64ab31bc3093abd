import { AddressList } from '../config/address-list';
import type { Config } from '../config/env';
import { GATEWAY_ADDRESSES } from '../config/gateway-addresses';
import { ReceiverError } from '../errors';
import { decodeBody } from '../notifications/decode-body';
import { receiveNotification } from '../http/receive-notification';
import type { Logger } from '../observability/logger';
import { createMetrics } from '../observability/metrics';
import type { GatewayEnvironment } from '../notifications/normalized-event';
import type { RecordOutcome, RejectionRow, Store } from '../store/store';

export type ReprocessResult =
  | { ok: true; outcome: RecordOutcome | 'already-reprocessed'; eventId: string }
  | { ok: false; reasons: string[] };

type ReprocessConfig = Pick<Config, 'EXTRA_ALLOWED_IPS' | 'MALL_IDS'>;

/**
 * The environment the stored source was admitted under. A rejection is kept only for an
 * allowed source, so its address is one of the gateway's own (production or development,
 * whatever GATEWAY_ENV the operator's shell has) or one still in EXTRA_ALLOWED_IPS; an
 * address since dropped from EXTRA_ALLOWED_IPS must not become an event.
 */
function storedSourceEnvironment(sourceIp: string, extraAllowed: AddressList): GatewayEnvironment | null {
  for (const environment of ['production', 'development'] as const) {
    if (new AddressList().addAll(GATEWAY_ADDRESSES[environment]).has(sourceIp)) return environment;
  }
  return extraAllowed.has(sourceIp) ? 'extra' : null;
}

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
  const environment = storedSourceEnvironment(rejection.sourceIp, config.EXTRA_ALLOWED_IPS);
  if (environment === null) {
    return { ok: false, reasons: [`source ${rejection.sourceIp} is not a gateway address nor in EXTRA_ALLOWED_IPS`] };
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
