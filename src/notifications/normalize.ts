import type { GatewayEnvironment, BasketItem, NormalizedEvent } from './normalized-event';
import { EVENT_TYPES, type NotiType } from './event-types';
import { kstTimestamp } from './kst-date';
import { dedupKey, eventIdFor } from './dedup-key';
import type { ValidNotification } from './schema';

export interface Receipt {
  receivedAt: string;
  sourceIp: string;
  environment: GatewayEnvironment;
  /** The request carried the simulator's valid mark (simulator-mark.ts); never read from the body. */
  simulator?: boolean;
}

/** Which of the event's own dates says when it happened, best first. */
const OCCURRED_AT_FIELDS: Record<NotiType, string[]> = {
  '10': ['approvalDate', 'transactionDate'],
  '20': ['cancelDate', 'transactionDate'],
  '30': ['depositDate', 'transactionDate'],
  '31': ['cancelDate', 'transactionDate'],
  '40': ['escrowChangeDate', 'transactionDate'],
  '50': ['refundDate', 'transactionDate'],
  '51': ['refundDate', 'transactionDate'],
  '70': ['transactionDate'],
};

export function normalizeNotification(valid: ValidNotification, receipt: Receipt): { event: NormalizedEvent; dedupKey: string } {
  const { common, fields } = valid;
  const text = (name: string): string | null => {
    const value = fields[name];
    return typeof value === 'string' && value.trim() !== '' ? value : null;
  };
  const cancelPgCno = text('cancelPgCno');
  const statusCode = text('statusCode');
  const key = dedupKey({ mallId: common.mallId, notiType: common.notiType, pgCno: common.pgCno, cancelPgCno, statusCode });
  const amount = text('amount');

  const event: NormalizedEvent = {
    id: eventIdFor(key),
    type: EVENT_TYPES[common.notiType],
    notiType: common.notiType,
    mallId: common.mallId,
    pgCno: common.pgCno,
    shopOrderNo: common.shopOrderNo === '' ? null : common.shopOrderNo,
    cancelPgCno,
    resultCode: common.resCd,
    resultMessage: common.resMsg,
    status: statusCode ? { code: statusCode, message: text('statusMessage') } : null,
    amount: amount === null ? null : Number.parseInt(amount, 10),
    occurredAt: firstDate(OCCURRED_AT_FIELDS[common.notiType].map(text)),
    receivedAt: receipt.receivedAt,
    basket: basketOf(fields),
    // Only when true: every other event is stored and published exactly as before.
    source: { ip: receipt.sourceIp, environment: receipt.environment, ...(receipt.simulator === true && { simulator: true as const }) },
    data: fields,
  };
  return { event, dedupKey: key };
}

function firstDate(candidates: Array<string | null>): string | null {
  for (const candidate of candidates) {
    const stamp = candidate === null ? null : kstTimestamp(candidate);
    if (stamp) return stamp;
  }
  return null;
}

function basketOf(fields: Record<string, unknown>): BasketItem[] {
  if (fields.basketUsed !== 'Y') return [];
  const count = Number(fields.bkResCnt ?? 0);
  const items: BasketItem[] = [];
  for (let n = 1; n <= count; n += 1) {
    items.push({
      productNo: String(fields[`productNo${n}`] ?? ''),
      productPgCno: String(fields[`productPgCno${n}`] ?? ''),
      sellerId: String(fields[`sellerId${n}`] ?? ''),
    });
  }
  return items;
}
