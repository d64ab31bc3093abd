import { createLogger } from '../../src/observability/logger';
import type { OutboundEvent, Publisher } from '../../src/publishers/publisher';
import { startRelay } from '../../src/relay/relay';
import type { OutboxRecord, Store } from '../../src/store/store';
import { eventually } from '../helpers/eventually';

/**
 * The relay forwards the event JSON the store committed, byte for byte: it neither parses
 * nor re-serializes it, so what a consumer reads is what was stored at receipt.
 */
describe('relay forwards the stored event JSON untouched', () => {
  it('hands the publisher the exact stored text, with id, type and receipt time from the row', async () => {
    // Spacing, key order and a long number that JSON.parse would round: any re-serialization shows.
    const eventJson = '{ "id": "evt_1",  "type": "payment.approved", "amount": 12345678901234567890, "data": {"z": 1, "a": 2} }';
    const row: OutboxRecord = {
      seq: 1, eventId: 'evt_1', eventType: 'payment.approved', receivedAt: '2026-11-22T00:00:00.000Z',
      attempts: 0, nextAttemptAt: 0, eventJson,
    };
    let pending = [row];
    const delivered: number[] = [];
    const store = {
      holdsRelayLock: async () => true,
      nextPending: async () => pending,
      markDelivered: async (seqs: readonly number[]) => {
        delivered.push(...seqs);
        pending = [];
      },
      onNewEvents: () => undefined,
    } as unknown as Store;
    const published: OutboundEvent[] = [];
    const publisher: Publisher = {
      kind: 'capture',
      publish: async (event) => void published.push(event),
      status: () => ({ connected: true }),
      close: async () => undefined,
    };
    const relay = startRelay({ store, publisher, logger: createLogger({ level: 'error', silent: true }), pollIntervalMs: 10 });
    await eventually(() => delivered.length === 1, 5_000, 'the row to be delivered');
    await relay.stop();
    expect(published).toEqual([{ id: 'evt_1', type: 'payment.approved', receivedAt: '2026-11-22T00:00:00.000Z', json: eventJson }]);
  });
});
