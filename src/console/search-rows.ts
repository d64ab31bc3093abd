import type { PaymentHit, SearchMatch } from '../ledger-projector/ledger-store';
import { maskSensitive } from '../observability/mask';
import type { ConsoleDeps } from './console-deps';

/**
 * What a result row says it matched. Besides the store's keys: the amount of a notification that
 * did not succeed (its resCd is not 0000: the ledger moves no money on it), and that of a refund
 * the bank could not pay out (51): neither is money paid or returned.
 */
export type ShownMatch = SearchMatch | 'declinedAmount' | 'refundFailedAmount';

/** One result row: the hit, what it is shown as, and the last four digits of its payment's card. */
export interface SearchRow {
  hit: PaymentHit;
  shownAs: ShownMatch;
  cardLastFour: string | null;
}

/** The card number a notification's fields carry, masked as every page masks it (at most its first six and last four digits). */
function maskedCardOf(data: Record<string, unknown>): string | null {
  const masked = maskSensitive(data) as Record<string, unknown>;
  for (const value of [masked.cardMaskNo, masked.cardNo]) if (typeof value === 'string' && value.trim() !== '') return value;
  return null;
}

interface Said {
  succeeded: boolean;
  cardLastFour: string | null;
}

/**
 * The hits as the results list shows them, each read against its stored notification: whether
 * it succeeded, and the last four digits of the card, so that orders of one amount can be told
 * apart by what the caller reads off their card. A cancel's notification may carry no card: its
 * payment's (the order's payment of the same pgCno) is read instead. No card once retention
 * removed the notification's fields, or when the masked number ends in no four digits.
 */
export async function searchRows(store: Pick<ConsoleDeps['store'], 'getEvent'>, hits: readonly PaymentHit[]): Promise<SearchRow[]> {
  const said = new Map<string, Promise<Said | null>>();
  const saidOf = (eventId: string) => {
    if (!said.has(eventId)) {
      said.set(eventId, store.getEvent(eventId).then((detail) => {
        if (!detail) return null;
        const card = detail.prunedAt === null ? maskedCardOf(detail.event.data) : null;
        return { succeeded: detail.event.resultCode === '0000', cardLastFour: /(\d{4})\s*$/.exec(card ?? '')?.[1] ?? null };
      }));
    }
    return said.get(eventId)!;
  };
  return Promise.all(hits.map(async (hit): Promise<SearchRow> => {
    const { order, payment } = hit;
    if (payment === null) return { hit, shownAs: hit.matched, cardLastFour: null };
    const own = await saidOf(payment.eventId);
    const paid = order.payments.find((p) => p.pgCno === payment.pgCno && p.eventId !== payment.eventId);
    const cardLastFour = own?.cardLastFour ?? (paid ? (await saidOf(paid.eventId))?.cardLastFour ?? null : null);
    return { hit, shownAs: shownAs(hit.matched, payment.notiType, own), cardLastFour };
  }));
}

function shownAs(matched: SearchMatch, notiType: string, said: Said | null): ShownMatch {
  if (matched !== 'amount' && matched !== 'cancelAmount') return matched;
  // Event 51 carries the bank's failure code in resCd: it is a failed refund, whatever that code.
  if (notiType === '51') return 'refundFailedAmount';
  return said !== null && !said.succeeded ? 'declinedAmount' : matched;
}
