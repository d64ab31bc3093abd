import type { ConflictFact, MoneyFields, NotificationFact } from './ledger-facts';
import { ledgerId } from './ledger-id';

const money = (f: NotificationFact): MoneyFields => ({ amount: f.amount, cancelAmount: f.cancelAmount, remainAmount: f.remainAmount, resCd: f.resCd });

/**
 * A conflicting redelivery as the ledger keeps it: the stored notification's money fields and the
 * redelivery's, when they differ (a redelivery that differs elsewhere, a message text, moves no
 * money and is no alarm: null). The same second version received again is the same fact.
 */
export function conflictFact(stored: NotificationFact, redelivered: NotificationFact, receivedAt: string): ConflictFact | null {
  const before = money(stored);
  const after = money(redelivered);
  if (JSON.stringify(before) === JSON.stringify(after)) return null;
  return {
    kind: 'conflict',
    id: ledgerId('cfl_', [stored.id, JSON.stringify(after)]),
    at: receivedAt,
    recordedAt: receivedAt,
    eventId: stored.id,
    pgCno: stored.pgCno,
    notiType: stored.notiType,
    stored: before,
    redelivered: after,
  };
}
