import { EVENT_ID_PREFIX } from '../notifications/dedup-key';
import { sha256Hex } from '../sha256-hex';
import type { CommandRecord } from './command-record';
import type { CommandEvent } from '../store/command-types';
import type { CommandEventPayload } from './command-event-schema';

/**
 * A command's final state as an event for the internal queue. The id is stable for that final
 * state of that command (a relay retry is idempotent downstream), yet an operator's retry that
 * ends again gets a new one.
 */
export function commandEvent(type: CommandEvent['type'], record: CommandRecord): CommandEvent {
  const digest = sha256Hex(`${record.shopTransactionId}|${record.state}|${record.attempts}`);
  const id = `${EVENT_ID_PREFIX}cmd_${digest.slice(0, 32)}`;
  const event: CommandEventPayload = {
    id,
    type,
    mallId: record.mallId,
    shopTransactionId: record.shopTransactionId,
    occurredAt: record.updatedAt,
    receivedAt: record.updatedAt,
    data: record,
  };
  const json = JSON.stringify(event);
  const pgCno = typeof record.request.pgCno === 'string' ? record.request.pgCno : '';
  return { id, type, mallId: record.mallId, pgCno, json, bodyHash: sha256Hex(json) };
}
