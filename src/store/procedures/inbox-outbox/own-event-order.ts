import { orderNamedBy } from '../../../ledger/fold/own-event-order';
import type { EventRow } from '../../store';

/**
 * The event JSON of the service's own entries (the ledger's events, a command's final state), whose
 * inbox rows name no order: a listing reads the order from the event. Only those rows carry it.
 */
export const OWN_EVENT_JSON_COLUMN = `CASE WHEN i.shop_order_no IS NULL AND i.origin <> 'gateway' THEN i.event_json END AS "ownEventJson"`;

/** Rows read with OWN_EVENT_JSON_COLUMN, each own event with the order it names. */
export function withOwnEventOrders(rows: Array<EventRow & { ownEventJson: string | null }>): EventRow[] {
  return rows.map(({ ownEventJson, ...row }) => (ownEventJson === null ? row : { ...row, shopOrderNo: orderNamedBy(parsed(ownEventJson))?.shopOrderNo ?? null }));
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}
