import type { DeliveryAttempt } from '../../store';
import { DELIVERY_ATTEMPT_COLUMNS, toDeliveryAttempt } from './delivery-history';
import { EVENT_SEQ } from './event-seq';
import { all, type Procedure } from '../procedure';

export function* listDeliveryAttempts(eventId: string): Procedure<DeliveryAttempt[]> {
  const rows = yield* all<Parameters<typeof toDeliveryAttempt>[0]>(
    `SELECT ${DELIVERY_ATTEMPT_COLUMNS} FROM delivery_attempts
     WHERE outbox_seq = (SELECT seq FROM outbox WHERE inbox_seq = ${EVENT_SEQ})
     ORDER BY id`,
    eventId,
  );
  return rows.map(toDeliveryAttempt);
}
