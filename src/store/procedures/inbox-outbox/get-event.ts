import { orderNamedBy } from '../../../ledger/fold/own-event-order';
import type { NormalizedEvent } from '../../../notifications/normalized-event';
import type { EventDetail } from '../../store';
import { EVENT_DETAIL_COLUMNS, withEvent } from './columns';
import { EVENT_SEQ } from './event-seq';
import { get, type Procedure } from '../procedure';

export function* getEvent(eventId: string): Procedure<EventDetail | null> {
  const row = yield* get<Omit<EventDetail, 'event'> & { event_json: string }>(
    `SELECT ${EVENT_DETAIL_COLUMNS} FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq WHERE i.seq = ${EVENT_SEQ}`,
    eventId,
  );
  if (!row) return null;
  const detail = withEvent<typeof row, NormalizedEvent>(row);
  // The ledger's own events name their order in the event, not in their inbox row: shown as the listing shows it.
  return detail.shopOrderNo === null ? { ...detail, shopOrderNo: orderNamedBy(detail.event)?.shopOrderNo ?? null } : detail;
}
