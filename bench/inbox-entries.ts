import { decodeBody } from '../src/notifications/decode-body';
import { bodyHash } from '../src/notifications/dedup-key';
import type { NotiType } from '../src/notifications/event-types';
import { normalizeNotification } from '../src/notifications/normalize';
import { validateNotification } from '../src/notifications/schema';
import { planNotifications } from '../src/simulator/scenario';
import type { WireNotification } from '../src/simulator/wire-notification';
import type { InboxEntry } from '../src/store/store';

/**
 * `count` store entries of the simulator's notifications of `types`, made as the receiver makes
 * them (decode, validate, normalize, hash): what the store-level benches record without HTTP.
 */
export function inboxEntries(types: readonly NotiType[], count: number): InboxEntry[] {
  const wires = planNotifications(types, Math.ceil(count / types.length));
  const receivedAt = new Date().toISOString();
  return wires.slice(0, count).map((wire) => inboxEntry(wire, receivedAt));
}

/** One notification's store entry, received at `receivedAt`. */
export function inboxEntry(wire: WireNotification, receivedAt = new Date().toISOString()): InboxEntry {
  const validation = validateNotification(decodeBody(wire.body, wire.contentType), { mallIds: [] });
  if (!validation.ok) throw new Error(`simulator notification invalid: ${validation.reasons.join('; ')}`);
  const { event, dedupKey } = normalizeNotification(validation.value, { receivedAt, sourceIp: '203.233.72.150', environment: 'production' });
  return { dedupKey, event, bodyHash: bodyHash(validation.value.fields), rawBody: wire.body, contentType: wire.contentType };
}
