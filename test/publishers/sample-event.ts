import { createHash, randomUUID } from 'node:crypto';
import { EVENT_TYPES, NOTI_TYPES, type NotiType } from '../../src/notifications/event-types';
import type { NormalizedEvent } from '../../src/notifications/normalized-event';
import type { InboxEntry } from '../../src/store/store';

/** A normalized event as the receiver would build it; each call gets a fresh, unique id. */
export function sampleEvent(overrides: Partial<NormalizedEvent> & { notiType?: NotiType } = {}): NormalizedEvent {
  const notiType = overrides.notiType ?? '10';
  const pgCno = overrides.pgCno ?? `PG${randomUUID().replace(/-/g, '').slice(0, 18)}`;
  return {
    id: `evt_${createHash('sha256').update(`T0001234|${notiType}|${pgCno}`).digest('hex').slice(0, 24)}`,
    type: EVENT_TYPES[notiType],
    notiType,
    mallId: 'T0001234',
    pgCno,
    shopOrderNo: `ORDER-${pgCno.slice(-6)}`,
    cancelPgCno: null,
    resultCode: '0000',
    resultMessage: '정상처리',
    status: null,
    amount: 12000,
    occurredAt: '2026-11-21T12:00:00+09:00',
    receivedAt: new Date().toISOString(),
    basket: [],
    source: { ip: '61.33.205.151', environment: 'development' },
    data: { resCd: '0000', resMsg: '정상처리', mallId: 'T0001234', notiType, pgCno },
    ...overrides,
  };
}

/** One event of every gateway type, in notiType order. */
export function oneOfEachType(): NormalizedEvent[] {
  return NOTI_TYPES.map((notiType) => sampleEvent({ notiType }));
}

export function inboxEntry(event: NormalizedEvent): InboxEntry {
  const rawBody = Buffer.from(JSON.stringify(event.data));
  return {
    dedupKey: `${event.mallId}|${event.notiType}|${event.pgCno}`,
    event,
    bodyHash: createHash('sha256').update(rawBody).digest('hex'),
    rawBody,
    contentType: 'application/json; charset=utf-8',
  };
}
