import { isAmountDetail } from '../ledger/fold/discrepancy-details';
import { ledgerEventSchema } from '../ledger/fold/ledger-event-schema';
import { orderKeyText } from '../ledger/fold/order-key';
import type { Discrepancy } from '../ledger/fold/order-record';
import type { AlertSources, NewAlert } from '../store/store';

/**
 * One thing to tell the people on duty, as stored: ids, kinds, codes and amounts, picked field by
 * field, never a body or an error text as a whole. A gateway notification carries card numbers,
 * names and phone numbers, and a relay error can quote a URL with its token; none of it can reach a
 * chat channel because nothing here copies a free-form field.
 */
export type Alert =
  | {
    kind: 'discrepancy';
    discrepancyId: string;
    discrepancyKind: string;
    mallId: string;
    shopOrderNo: string;
    /** null: the order names none (its amounts are shown in the default currency). */
    currency: string | null;
    /** The discrepancy's amounts (expected, notified, …), in minor units. */
    amounts: Record<string, number>;
    at: string;
  }
  | { kind: 'ledger_error'; mallId: string; shopOrderNo: string; from: string | null; at: string }
  | {
    kind: 'dead_event'; eventId: string; eventType: string | null; mallId: string | null; shopOrderNo: string | null; attempts: number | null; at: string;
    /** Its notification came from this receiver's own simulator: the message says so. Absent otherwise. */
    simulated?: true;
  };

/** The alerts the follower's sources call for, each keyed by its cause so a second read stores nothing new. */
export function alertsFrom(sources: Pick<AlertSources, 'ledgerEvents' | 'deadEvents' | 'simulatedOrders' | 'realOrders'>): NewAlert[] {
  const alerts: NewAlert[] = [];
  const simulated = new Set(sources.simulatedOrders);
  for (const { eventJson } of sources.ledgerEvents) {
    const alert = ledgerAlert(eventJson, simulated);
    if (alert) alerts.push(alert);
  }
  // Not told yet, of an order real now: held back while it looked simulated (a real notification came since).
  const keys = new Set(alerts.map((a) => a.key));
  for (const order of sources.realOrders) {
    for (const discrepancy of order.discrepancies) {
      const alert = discrepancyAlert(discrepancy, order);
      if (!keys.has(alert.key)) alerts.push(alert);
      keys.add(alert.key);
    }
  }
  // A dead event is news whoever sent the notification: the queue refused it.
  for (const dead of sources.deadEvents) {
    const alert: Alert = {
      kind: 'dead_event', eventId: dead.eventId, eventType: dead.eventType, mallId: dead.mallId, shopOrderNo: dead.shopOrderNo, attempts: dead.attempts, at: dead.at,
      ...(dead.simulated && { simulated: true as const }),
    };
    // Each time an event goes dead is news (an operator requeued it and it died again).
    alerts.push({ key: `dead:${dead.attemptId}`, kind: alert.kind, json: JSON.stringify(alert) });
  }
  return alerts;
}

function ledgerAlert(eventJson: string, simulated: ReadonlySet<string>): NewAlert | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(eventJson);
  } catch {
    return null;
  }
  const event = ledgerEventSchema.safeParse(parsed);
  if (!event.success) return null;
  const e = event.data;
  // The simulator's made-up orders (every notification signed by it) open discrepancies on purpose, on
  // fake money: as the Prometheus rule, they wake nobody. Nothing in a notification's body decides it.
  if (simulated.has(orderKeyText(e.order))) return null;
  if (e.type === 'ledger.discrepancy') return discrepancyAlert(e.discrepancy, e.order);
  if (e.type === 'order.status_changed' && e.to === 'ledger_error') {
    const alert: Alert = { kind: 'ledger_error', mallId: e.order.mallId, shopOrderNo: e.order.shopOrderNo, from: e.from, at: e.at };
    return { key: `ledger_error:${e.id}`, kind: alert.kind, json: JSON.stringify(alert) };
  }
  return null;
}

/** A discrepancy's alert, keyed by its id: told once, from its opening event or from its order's record. */
function discrepancyAlert(discrepancy: Pick<Discrepancy, 'id' | 'kind' | 'details' | 'openedAt'>, order: { mallId: string; shopOrderNo: string; currency: string | null }): NewAlert {
  const amounts: Record<string, number> = {};
  for (const [name, value] of Object.entries(discrepancy.details)) {
    if (isAmountDetail(name) && typeof value === 'number' && Number.isSafeInteger(value)) amounts[name] = value;
  }
  const alert: Alert = {
    kind: 'discrepancy', discrepancyId: discrepancy.id, discrepancyKind: discrepancy.kind, mallId: order.mallId,
    shopOrderNo: order.shopOrderNo, currency: order.currency, amounts, at: discrepancy.openedAt,
  };
  return { key: `discrepancy:${discrepancy.id}`, kind: alert.kind, json: JSON.stringify(alert) };
}
