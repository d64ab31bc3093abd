import type { OrderKey, RefusalFact } from './ledger-facts';
import { ledgerId } from './ledger-id';

/**
 * A refused notification as the ledger keeps it, from the fields of its stored body (JSON or the
 * UnionPay form's names): the order it names, its type and payment when readable. Null when the
 * mall or the order number cannot be read: it names no order.
 */
export function refusalFact(fields: Record<string, unknown>, rejectionId: number, receivedAt: string): { order: OrderKey; fact: RefusalFact } | null {
  const mallId = text(fields.mallId) ?? text(fields.memb_id);
  const shopOrderNo = text(fields.shopOrderNo) ?? text(fields.order_no);
  if (mallId === null || shopOrderNo === null) return null;
  return {
    order: { mallId, shopOrderNo },
    fact: {
      kind: 'refusal',
      id: ledgerId('rfs_', [rejectionId]),
      at: receivedAt,
      recordedAt: receivedAt,
      rejectionId,
      notiType: text(fields.notiType) ?? text(fields.noti_type),
      pgCno: text(fields.pgCno) ?? text(fields.cno),
      cancelPgCno: text(fields.cancelPgCno),
    },
  };
}

// The same bounds a valid body's fields have: nothing longer is a mall, an order number or a code.
function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' && value.length <= 100 ? value.trim() : null;
}
