import type { ConflictLink } from '../../store';
import { all, type Procedure } from '../procedure';

/**
 * What the event's page lists of each conflicting redelivery: no body. A gateway may resend a
 * 60 KB body hundreds of times; carried whole, their bodies were megabytes for a list of links.
 */
export function* conflictsOfEvent(eventId: string): Procedure<ConflictLink[]> {
  return yield* all<ConflictLink>(`SELECT id, received_at AS "receivedAt", source_ip AS "sourceIp" FROM conflicts WHERE event_id = ? ORDER BY id`, eventId);
}
