import { NOTI_TYPES, type NotiType } from '../notifications/event-types';
import {
  ESCROW_STATUSES,
  JSON_BUILDERS,
  basketApprovalNotification,
  changeNotification,
  escrowNotification,
  nextPgCno,
  unionPayForm,
  type JsonNotification,
} from './notification-builders';
import { faultyStory, type FaultName } from './faulty-stories';
import { coherentStory, StoryOrder, type PaymentStory } from './payment-stories';
import type { WireNotification } from './wire-notification';

/**
 * What the simulator sends: for each selected event type, `count` orders whose notifications tell
 * a coherent payment story featuring that type, then one order per fault asked for. Each order's
 * number is new (`SIM-<run>-<n>`), and its notifications carry the simulator's marker.
 */
export function planStories(types: readonly NotiType[], count: number, faults: readonly FaultName[] = []): PaymentStory[] {
  const run = Date.now().toString(36);
  // The gateway's clock for the stories: a minute ago, one second a notification, never in the future.
  const startMs = Date.now() - 60_000;
  let n = 0;
  const order = () => new StoryOrder(`SIM-${run}-${(n += 1)}`, startMs);
  const stories: PaymentStory[] = [];
  for (let i = 0; i < count; i += 1) for (const type of types) stories.push(coherentStory(type, i, order()));
  for (const fault of faults) stories.push(faultyStory(fault, order()));
  return stories;
}

/** How many of one payment's partial cancels (event 20) are sent before a new payment starts. */
const CANCELS_PER_PAYMENT = 3;
/** Every third approval is a basket payment, so basket fields are always exercised. */
const BASKET_EVERY = 3;

/**
 * `count` realistic notifications of each event type, interleaved by type, each for an order of
 * its own (a cancel of no payment): the benchmark's traffic, not the simulator's stories. Partial
 * cancels share their payment's `pgCno` with their own `cancelPgCno`; escrow notifications walk
 * one `pgCno` through several statuses. Both must be stored as separate events.
 */
export function planNotifications(types: readonly NotiType[], count: number): WireNotification[] {
  const perType = types.map((type) => Array.from({ length: count }, notificationsOf(type)));
  const interleaved: WireNotification[] = [];
  for (let i = 0; i < count; i += 1) for (const list of perType) interleaved.push(list[i]!);
  return interleaved;
}

export function parseEventSelection(text: string): NotiType[] {
  if (text === 'all') return [...NOTI_TYPES];
  const selected = text.split(',').map((s) => s.trim());
  for (const type of selected) {
    if (!(NOTI_TYPES as string[]).includes(type)) throw new Error(`unknown event "${type}"; use one of ${NOTI_TYPES.join(', ')} or all`);
  }
  return selected as NotiType[];
}

function notificationsOf(type: NotiType): (_: unknown, index: number) => WireNotification {
  if (type === '70') {
    return () => {
      const form = unionPayForm();
      return { notiType: '70', body: form.body, contentType: form.contentType, ackForm: 'form' };
    };
  }
  if (type === '20') {
    let pgCno = '';
    return (_, i) => {
      if (i % CANCELS_PER_PAYMENT === 0) pgCno = nextPgCno();
      return json('20', changeNotification({ pgCno, cancelAmount: '1000', amount: '1000', cancelRemainAmount: String(9000 - 1000 * (i % CANCELS_PER_PAYMENT)) }));
    };
  }
  if (type === '40') {
    let pgCno = '';
    return (_, i) => {
      if (i % ESCROW_STATUSES.length === 0) pgCno = nextPgCno();
      return json('40', escrowNotification({ pgCno, ...ESCROW_STATUSES[i % ESCROW_STATUSES.length]! }));
    };
  }
  if (type === '10') {
    return (_, i) => json('10', i % BASKET_EVERY === BASKET_EVERY - 1 ? basketApprovalNotification(3) : JSON_BUILDERS['10']());
  }
  const build = JSON_BUILDERS[type];
  return () => json(type, build());
}

function json(notiType: NotiType, notification: JsonNotification): WireNotification {
  return {
    notiType,
    body: Buffer.from(JSON.stringify(notification), 'utf8'),
    contentType: 'application/json; charset=utf-8',
    ackForm: 'json',
  };
}
