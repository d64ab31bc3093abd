import { commandEvent } from '../commands/command-event';
import type { CommandRecord } from '../commands/command-record';
import { computeOrderRecord } from '../ledger/fold/compute-order-record';
import { expectationFact } from '../ledger/fold/expectation-fact';
import { ledgerEvents } from '../ledger/fold/ledger-events';
import { ledgerId } from '../ledger/fold/ledger-id';
import type { LedgerFact, OrderKey } from '../ledger/fold/ledger-facts';
import { DEFAULT_LEDGER_SETTINGS } from '../config/ledger-settings';
import { notificationFact } from '../ledger/fold/notification-fact';
import type { OrderRecord } from '../ledger/fold/order-record';
import { orderSummary } from '../ledger/fold/order-summary';
import { EVENT_ID_PREFIX } from '../notifications/dedup-key';
import type { NotiType } from '../notifications/event-types';
import { normalizeNotification } from '../notifications/normalize';
import type { NormalizedEvent } from '../notifications/normalized-event';
import { validateNotification } from '../notifications/schema';
import { JSON_BUILDERS, unionPayFields } from '../simulator/notification-builders';

/**
 * One example per event type, made by the builders the service itself runs (the simulator's
 * notifications through the real validation and normalization, the ledger's and the commands'
 * event builders), with fixed numbers and times so the generated document is reproducible.
 */
const ORDER: OrderKey = { mallId: 'T0001234', shopOrderNo: 'ORD-20261121-0001' };
const PG_CNO = '26112112000000000001';
const CANCEL_PG_CNO = '26112112000000000002';
const GATEWAY_TIME = '20261121120000';
const RECEIVED_AT = '2026-11-21T03:00:00.123Z';

/** The gateway's dates, which the builders would otherwise take from the clock. */
const fixedDates = {
  transactionDate: GATEWAY_TIME, cancelDate: GATEWAY_TIME, depositDate: GATEWAY_TIME, escrowChangeDate: GATEWAY_TIME, refundDate: GATEWAY_TIME,
};

export function notificationExample(notiType: NotiType): NormalizedEvent {
  const body: Record<string, string> = notiType === '70'
    ? unionPayFields({ memb_id: ORDER.mallId, order_no: ORDER.shopOrderNo, cno: PG_CNO })
    : JSON_BUILDERS[notiType]({ ...ORDER, pgCno: PG_CNO, ...(notiType === '20' ? { cancelPgCno: CANCEL_PG_CNO } : {}) });
  // Only the dates the builder set: a builder's field list is part of what the example shows.
  for (const [name, value] of Object.entries(fixedDates)) if (name in body) body[name] = value;
  const valid = validateNotification(body, { mallIds: [] });
  if (!valid.ok) throw new Error(`example ${notiType} is not a valid notification: ${valid.reasons.join('; ')}`);
  return normalizeNotification(valid.value, { receivedAt: RECEIVED_AT, sourceIp: '203.233.72.150', environment: 'production' }).event;
}

function orderRecord(facts: LedgerFact[]): OrderRecord {
  const { record } = computeOrderRecord(ORDER, facts, { now: '2026-11-22T03:00:00.000Z', settings: DEFAULT_LEDGER_SETTINGS });
  if (record === null) throw new Error('the example order has no record');
  return record;
}

function ledgerExamples() {
  const expected = expectationFact(ORDER, { amount: 12000, currency: 'KRW', method: 'card', expiresAt: null }, '2026-11-21T02:55:00.000Z');
  const paid = notificationFact(notificationExample('10'));
  const short = notificationFact({ ...notificationExample('10'), amount: 10000, data: { ...notificationExample('10').data, amount: '10000' } });
  if (paid === null || short === null) throw new Error('the example approval names no order');
  const awaiting = orderRecord([expected]);
  const paidRecord = orderRecord([expected, paid.fact]);
  const [statusChanged] = ledgerEvents(awaiting, paidRecord);
  const [discrepancy] = ledgerEvents(awaiting, orderRecord([expected, short.fact]));
  if (statusChanged?.type !== 'order.status_changed' || discrepancy?.type !== 'ledger.discrepancy') throw new Error('the example ledger events changed');
  // No builder sends order.updated yet: its example is the same summary, as the ledger makes it.
  const updated = {
    id: ledgerId(EVENT_ID_PREFIX, ['order.updated', ORDER.mallId, ORDER.shopOrderNo, JSON.stringify(paidRecord)]),
    type: 'order.updated' as const,
    at: paidRecord.updatedAt,
    order: orderSummary(paidRecord),
  };
  return { statusChanged, discrepancy, updated };
}

function commandRecord(command: 'wallet-b.cancel' | 'van.approve', state: string): CommandRecord {
  const request = command === 'wallet-b.cancel'
    ? { mallId: ORDER.mallId, pgCno: PG_CNO, shopTransactionId: 'st-20261122-0001', reviseTypeCode: '40', cancelReqDate: '20261122', memo: 'customer asked' }
    : { mallId: ORDER.mallId, shopTransactionId: 'van-20261122-0001', amount: '15000' };
  const answer = state === 'succeeded' ? { resCd: '0000', resMsg: '정상처리' } : { resCd: 'R104', resMsg: '취소 불가 거래' };
  return {
    command, shopTransactionId: String(request.shopTransactionId), mallId: ORDER.mallId, state, attempts: state === 'net_cancel_failed' ? 5 : 1,
    request, response: state === 'net_cancel_failed' ? null : answer, lastError: state === 'net_cancel_failed' ? 'time-out after 30000 ms' : null,
    createdAt: '2026-11-22T01:02:03.456Z', updatedAt: '2026-11-22T01:02:04.012Z',
  } as CommandRecord;
}

const commandExample = (type: Parameters<typeof commandEvent>[0], record: CommandRecord): unknown => JSON.parse(commandEvent(type, record).json);

/** The example event of each type the relay publishes, by type. */
export function eventExamples(): Record<string, unknown> {
  const ledger = ledgerExamples();
  return {
    'ledger.discrepancy': ledger.discrepancy,
    'order.status_changed': ledger.statusChanged,
    'order.updated': ledger.updated,
    'wallet.cancel.succeeded': commandExample('wallet.cancel.succeeded', commandRecord('wallet-b.cancel', 'succeeded')),
    'wallet.cancel.failed': commandExample('wallet.cancel.failed', commandRecord('wallet-b.cancel', 'failed')),
    'van.net_cancel.failed': commandExample('van.net_cancel.failed', commandRecord('van.approve', 'net_cancel_failed')),
  };
}
