import { maskSensitive } from '../../observability/mask';
import { jsonField } from '../../store/procedures/json-field';
import { all, dialect, type Procedure } from '../../store/procedures/procedure';

/** What a search hit's stored notification says beyond its payment_search row. */
export interface HitDetail {
  /** The gateway's resCd: a notification that did not succeed (not 0000) moves no money. */
  resultCode: string | null;
  /** The last four digits of the card it names, as the pages mask the number; null when none. */
  cardLastFour: string | null;
}

/**
 * The details of notifications named by (pgCno, event id), read from the inbox by its unique key
 * on both databases (an event id alone would read SQLite's whole key index), 50 a statement. A
 * notification whose fields retention removed keeps its resCd and names no card any more.
 */
export function* hitDetails(events: ReadonlyArray<readonly [pgCno: string, eventId: string]>): Procedure<Map<string, HitDetail>> {
  const sql = yield* dialect();
  const details = new Map<string, HitDetail>();
  const distinct = [...new Map(events.map(([pgCno, eventId]) => [eventId, [pgCno, eventId] as const])).values()];
  for (let i = 0; i < distinct.length; i += 50) {
    const chunk = distinct.slice(i, i + 50);
    const rows = yield* all<{ event_id: string; result_code: string | null; card_mask_no: unknown; card_no: unknown }>(
      `SELECT event_id, ${jsonField(sql, 'event_json', ['resultCode'])} AS result_code,
         ${jsonField(sql, 'event_json', ['data', 'cardMaskNo'])} AS card_mask_no, ${jsonField(sql, 'event_json', ['data', 'cardNo'])} AS card_no
       FROM inbox WHERE ${chunk.map(() => '(pg_cno = ? AND event_id = ?)').join(' OR ')}`,
      ...chunk.flatMap(([pgCno, eventId]) => [pgCno, eventId]),
    );
    for (const row of rows) details.set(row.event_id, { resultCode: row.result_code, cardLastFour: lastFourOf(row.card_mask_no, row.card_no) });
  }
  return details;
}

/** The card's last four digits once masked as every page masks it (at most its first six and last four stay). */
function lastFourOf(cardMaskNo: unknown, cardNo: unknown): string | null {
  const masked = maskSensitive({ cardMaskNo, cardNo }) as Record<string, unknown>;
  for (const value of [masked.cardMaskNo, masked.cardNo]) {
    if (typeof value === 'string' && value.trim() !== '') return /(\d{4})\s*$/.exec(value)?.[1] ?? null;
  }
  return null;
}
