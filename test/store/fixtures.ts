import { createHash } from 'node:crypto';
import { EVENT_TYPES, type NotiType } from '../../src/notifications/event-types';
import type { NormalizedEvent } from '../../src/notifications/normalized-event';
import type { InboxEntry, RejectionEntry } from '../../src/store/store';

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

/** A normalized event as the notification layer would build it; the dedup key follows SPEC 2.4. */
export function inboxEntry(fields: EventFields = {}): InboxEntry {
  const notiType = fields.notiType ?? '10';
  const mallId = fields.mallId ?? 'T0001234';
  const pgCno = fields.pgCno ?? '20261121000000000001';
  const cancelPgCno = fields.cancelPgCno ?? null;
  const statusCode = fields.statusCode ?? null;
  const dedupKey = [mallId, notiType, pgCno, cancelPgCno ?? '', statusCode ?? ''].join('|');
  const data = { mallId, notiType, pgCno, ...(cancelPgCno ? { cancelPgCno } : {}), ...fields.data };
  const event: NormalizedEvent = {
    id: `evt_${createHash('sha256').update(dedupKey).digest('hex').slice(0, 24)}`,
    type: EVENT_TYPES[notiType],
    notiType,
    mallId,
    pgCno,
    shopOrderNo: fields.shopOrderNo === undefined ? 'order-1' : fields.shopOrderNo,
    cancelPgCno,
    resultCode: '0000',
    resultMessage: '정상처리',
    status: statusCode ? { code: statusCode, message: null } : null,
    amount: fields.amount === undefined ? 12000 : fields.amount,
    occurredAt: '2026-11-21T12:00:00+09:00',
    receivedAt: fields.receivedAt ?? new Date().toISOString(),
    basket: [],
    source: { ip: '203.233.72.150', environment: 'production' },
    data,
  };
  const rawBody = Buffer.from(JSON.stringify(data), 'utf8');
  return {
    dedupKey,
    event,
    bodyHash: createHash('sha256').update(rawBody).digest('hex'),
    rawBody,
    contentType: 'application/json; charset=utf-8',
  };
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
