import type { ConflictFact, MoneyFields, NotificationFact, OrderKey } from './ledger-facts';
import { ledgerId } from './ledger-id';

const money = (f: NotificationFact): MoneyFields => ({ amount: f.amount, cancelAmount: f.cancelAmount, remainAmount: f.remainAmount, resCd: f.resCd });

type Version = { order: OrderKey; fact: NotificationFact };

/**
 * A conflicting redelivery as the ledger keeps it, with the orders it is a fact of: the stored
 * notification's money fields and the redelivery's, when they differ, or when the redelivery names
 * another order (the gateway's payment number is one payment: the same pgCno approved under two
 * orders is an alarm on both, whatever the amounts). A redelivery that differs elsewhere, a
 * message text, moves no money and is no alarm: null. The same second version received again is
 * the same fact.
 */
export function conflictFact(stored: Version, redelivered: Version, receivedAt: string): { orders: OrderKey[]; fact: ConflictFact } | null {
  const before = money(stored.fact);
  const after = money(redelivered.fact);
  const otherOrder = stored.order.mallId !== redelivered.order.mallId || stored.order.shopOrderNo !== redelivered.order.shopOrderNo;
  if (!otherOrder && JSON.stringify(before) === JSON.stringify(after)) return null;
  const fact: ConflictFact = {
    kind: 'conflict',
    // The order is in the id only when it differs: a money conflict keeps the id it always had.
    id: ledgerId('cfl_', otherOrder ? [stored.fact.id, JSON.stringify(after), redelivered.order.mallId, redelivered.order.shopOrderNo] : [stored.fact.id, JSON.stringify(after)]),
    at: receivedAt,
    recordedAt: receivedAt,
    eventId: stored.fact.id,
    pgCno: stored.fact.pgCno,
    notiType: stored.fact.notiType,
    stored: before,
    redelivered: after,
  };
  if (redelivered.fact.simulator === true) fact.simulator = true;
  if (!otherOrder) return { orders: [stored.order], fact };
  fact.orders = { stored: stored.order, redelivered: redelivered.order };
  return { orders: [stored.order, redelivered.order], fact };
}
