import { run, type Procedure } from '../procedure';

export function* markRejectionReprocessed(id: number, eventId: string, at: string): Procedure<void> {
  yield* run('UPDATE rejections SET reprocessed_at = ?, reprocessed_event_id = ? WHERE id = ?', at, eventId, id);
}
