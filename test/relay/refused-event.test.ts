import { openHttpPublisher } from '../../src/publishers/http-publisher';
import { eventually } from '../publishers/broker-env';
import { startEndpoint } from '../publishers/http-endpoint';
import { RelayHarness } from './relay-harness';

describe('an event the endpoint refuses for good', () => {
  it('is marked dead with the last error, the relay moves on, and requeue delivers it later', async () => {
    let refusing = true;
    // The harness records types in a fixed rotation, so the second event is the one payment.changed.
    const endpoint = await startEndpoint((request) => {
      const { type } = JSON.parse(request.body) as { type: string };
      return refusing && type === 'payment.changed' ? 400 : 200;
    });
    const harness = new RelayHarness(openHttpPublisher({ url: endpoint.url }));
    try {
      const [first, refused, third] = await harness.record(3);
      expect(refused!.type).toBe('payment.changed');
      await harness.waitForDrain();
      const delivered = () => endpoint.received.map((request) => request.headers['idempotency-key']);
      expect(delivered()).toEqual([first!.id, refused!.id, third!.id]);

      const dead = await harness.store.getEvent(refused!.id);
      expect(dead?.status).toBe('dead');
      expect(dead?.lastError).toMatch(/answered 400/);
      expect((await harness.store.getEvent(third!.id))?.status).toBe('delivered');
      expect((await harness.store.backlog(Date.now())).dead).toBe(1);

      refusing = false;
      expect(await harness.store.requeue(refused!.id)).toBe(true);
      await eventually(async () => ((await harness.store.getEvent(refused!.id))?.status === 'delivered' ? true : undefined), 10_000, 'the requeued event to be delivered');
      expect(delivered()).toEqual([first!.id, refused!.id, third!.id, refused!.id]);
      expect((await harness.store.backlog(Date.now())).dead).toBe(0);

      // The relay names its publisher on every attempt it records, so the console can show where each went.
      const attempts = await harness.store.deliveryAttempts(refused!.id);
      expect(attempts.map(({ outcome, publisher }) => ({ outcome, publisher }))).toEqual([
        { outcome: 'dead', publisher: 'http' },
        { outcome: 'requeued', publisher: null },
        { outcome: 'delivered', publisher: 'http' },
      ]);
    } finally {
      await harness.close();
      await endpoint.close();
    }
  });
});
