import { eucKrByteLength } from '../../euc-kr';
import { OPTIONAL_JSON_FIELDS, REQUIRED_JSON_FIELDS } from '../../notifications/fields';
import { statedNotiType } from '../../notifications/stated-noti-type';
import type { OrderKey, RefusalFact } from './ledger-facts';
import { ledgerId } from './ledger-id';

/**
 * A refused notification as the ledger keeps it, from the fields of its stored body (JSON or the
 * UnionPay form's names): the order it names, its type and payment when readable. Null when the
 * mall or the order number cannot be read: it names no order.
 */
export function refusalFact(fields: Record<string, unknown>, rejectionId: number, receivedAt: string): { order: OrderKey; fact: RefusalFact } | null {
  const mallId = text(fields.mallId, REQUIRED_JSON_FIELDS.mallId) ?? text(fields.memb_id, REQUIRED_JSON_FIELDS.mallId);
  const shopOrderNo = text(fields.shopOrderNo, REQUIRED_JSON_FIELDS.shopOrderNo) ?? text(fields.order_no, REQUIRED_JSON_FIELDS.shopOrderNo);
  if (mallId === null || shopOrderNo === null) return null;
  return {
    order: { mallId, shopOrderNo },
    fact: {
      kind: 'refusal',
      id: ledgerId('rfs_', [rejectionId]),
      at: receivedAt,
      recordedAt: receivedAt,
      rejectionId,
      notiType: text(statedNotiType(fields), REQUIRED_JSON_FIELDS.notiType),
      pgCno: text(fields.pgCno, REQUIRED_JSON_FIELDS.pgCno) ?? text(fields.cno, REQUIRED_JSON_FIELDS.pgCno),
      cancelPgCno: text(fields.cancelPgCno, OPTIONAL_JSON_FIELDS.cancelPgCno!),
    },
  };
}

/**
 * The same bounds a valid body's fields have, in the gateway's EUC-KR bytes (an order number is
 * 40): nothing longer is a mall, an order number or a code, and a longer text read as one would
 * carry whatever a sender put in it into the ledger, the console and the alerts.
 */
function text(value: unknown, maxBytes: number): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed !== '' && eucKrByteLength(trimmed) <= maxBytes ? trimmed : null;
}
