import type { DeliveryAttempt } from '../store';
import { DELIVERY_ATTEMPT_COLUMNS, toDeliveryAttempt } from './delivery-history';
import { all, type Procedure } from './procedure';

export function* listDeliveryAttempts(eventId: string): Procedure<DeliveryAttempt[]> {
  const rows = yield* all<Parameters<typeof toDeliveryAttempt>[0]>(
    `SELECT ${DELIVERY_ATTEMPT_COLUMNS} FROM delivery_attempts
     WHERE outbox_seq = (SELECT o.seq FROM inbox i JOIN outbox o ON o.inbox_seq = i.seq WHERE i.event_id = ?)
     ORDER BY id`,
    eventId,
  );
  return rows.map(toDeliveryAttempt);
}
