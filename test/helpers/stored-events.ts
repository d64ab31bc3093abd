import { randomUUID } from 'node:crypto';
import { bodyHash, dedupKey, eventIdFor } from '../../src/notifications/dedup-key';
import { EVENT_TYPES, NOTI_TYPES, type NotiType } from '../../src/notifications/event-types';
import type { NormalizedEvent } from '../../src/notifications/normalized-event';
import type { InboxEntry, RejectionEntry } from '../../src/store/store';

/**
 * Normalized events and inbox entries for store, relay and publisher tests that start below
 * the HTTP layer. Keys, ids and body hashes come from the production functions, so these
 * fixtures dedupe exactly as real notifications do.
 */
export function sampleEvent(overrides: Partial<NormalizedEvent> & { notiType?: NotiType } = {}): NormalizedEvent {
  const notiType = overrides.notiType ?? '10';
  const mallId = overrides.mallId ?? 'T0001234';
  const pgCno = overrides.pgCno ?? `PG${randomUUID().replace(/-/g, '').slice(0, 18)}`;
  const shopOrderNo = overrides.shopOrderNo === undefined ? `ORDER-${pgCno.slice(-6)}` : overrides.shopOrderNo;
  const event: NormalizedEvent = {
    id: '',
    type: EVENT_TYPES[notiType],
    notiType,
    mallId,
    pgCno,
    shopOrderNo,
    cancelPgCno: null,
    resultCode: '0000',
    resultMessage: '정상처리',
    status: null,
    amount: 12000,
    occurredAt: '2026-11-21T12:00:00+09:00',
    receivedAt: new Date().toISOString(),
    basket: [],
    source: { ip: '61.33.205.151', environment: 'development' },
    data: gatewayFields({ notiType, mallId, pgCno, shopOrderNo }),
    ...overrides,
  };
  return { ...event, id: overrides.id ?? eventIdFor(keyOf(event)) };
}

/** One event of every gateway type, in notiType order. */
export function oneOfEachType(): NormalizedEvent[] {
  return NOTI_TYPES.map((notiType) => sampleEvent({ notiType }));
}

/** What the receive path hands the store for `event`. */
export function entryFor(event: NormalizedEvent): InboxEntry {
  return {
    dedupKey: keyOf(event),
    event,
    bodyHash: bodyHash(event.data),
    rawBody: Buffer.from(JSON.stringify(event.data), 'utf8'),
    contentType: 'application/json; charset=utf-8',
  };
}

export interface EventFields {
  notiType?: NotiType;
  mallId?: string;
  pgCno?: string;
  cancelPgCno?: string | null;
  statusCode?: string | null;
  shopOrderNo?: string | null;
  amount?: number | null;
  receivedAt?: string;
  /** Extra gateway fields: a different value here is a different body under the same dedup key. */
  data?: Record<string, unknown>;
}

/** An inbox entry for the dedup key these fields name, with a fixed payment by default. */
export function inboxEntry(fields: EventFields = {}): InboxEntry {
  const notiType = fields.notiType ?? '10';
  const mallId = fields.mallId ?? 'T0001234';
  const pgCno = fields.pgCno ?? '20261121000000000001';
  const cancelPgCno = fields.cancelPgCno ?? null;
  const statusCode = fields.statusCode ?? null;
  return entryFor(
    sampleEvent({
      notiType,
      mallId,
      pgCno,
      cancelPgCno,
      shopOrderNo: fields.shopOrderNo === undefined ? 'order-1' : fields.shopOrderNo,
      status: statusCode ? { code: statusCode, message: null } : null,
      amount: fields.amount === undefined ? 12000 : fields.amount,
      receivedAt: fields.receivedAt ?? new Date().toISOString(),
      source: { ip: '203.233.72.150', environment: 'production' },
      data: { ...gatewayFields({ notiType, mallId, pgCno, shopOrderNo: fields.shopOrderNo === undefined ? 'order-1' : fields.shopOrderNo }), ...(cancelPgCno ? { cancelPgCno } : {}), ...fields.data },
    }),
  );
}

export function rejectionEntry(fields: Partial<RejectionEntry> = {}): RejectionEntry {
  return {
    receivedAt: new Date().toISOString(),
    sourceIp: '203.233.72.150',
    contentType: 'application/json; charset=utf-8',
    rawBody: Buffer.from('{"resCd":'),
    httpStatus: 400,
    reason: 'body is not valid JSON',
    ...fields,
  };
}

/** The fields every notification carries, in its layout's names (event 70's form has its own). */
function gatewayFields(o: { notiType: NotiType; mallId: string; pgCno: string; shopOrderNo: string | null }): Record<string, string> {
  const shopOrderNo = o.shopOrderNo ?? '';
  if (o.notiType === '70') return { res_cd: '0000', res_msg: '정상처리', noti_type: '70', cno: o.pgCno, memb_id: o.mallId, order_no: shopOrderNo };
  return { resCd: '0000', resMsg: '정상처리', mallId: o.mallId, notiType: o.notiType, pgCno: o.pgCno, shopOrderNo };
}

function keyOf(event: NormalizedEvent): string {
  return dedupKey({
    mallId: event.mallId,
    notiType: event.notiType,
    pgCno: event.pgCno,
    cancelPgCno: event.cancelPgCno,
    statusCode: event.status?.code ?? null,
  });
}
