import { createMetrics } from '../../src/observability/metrics';
import { registerBacklogGauges } from '../../src/store/backlog-gauges';
import { registerRelayGauge } from '../../src/relay/relay-gauge';
import type { Backlog } from '../../src/store/store';

/** A store whose availability the test switches, so the outage is deterministic. */
function switchableStore(backlog: Backlog) {
  let up = true;
  const unavailable = () => Promise.reject(new Error('connection refused'));
  return {
    store: {
      ping: () => (up ? Promise.resolve() : unavailable()),
      backlog: () => (up ? Promise.resolve(backlog) : unavailable()),
    },
    setUp: (value: boolean) => void (up = value),
  };
}

/** One store read serves all gauges of one scrape; real scrapes are separate requests, so let one pass. */
const nextScrape = () => new Promise((resolve) => setImmediate(resolve));

const sample = (text: string, name: string) => new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1];

describe('store and backlog gauges', () => {
  it('report store_up 1 and the backlog while the store answers', async () => {
    const metrics = createMetrics();
    const { store } = switchableStore({ pending: 3, dead: 1, oldestPendingAgeMs: 42_000 });
    registerBacklogGauges(metrics, store);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'noti_receiver_store_up')).toBe('1');
    expect(sample(text, 'noti_receiver_outbox_pending')).toBe('3');
    expect(sample(text, 'noti_receiver_outbox_dead')).toBe('1');
    expect(sample(text, 'noti_receiver_outbox_oldest_pending_age_seconds')).toBe('42');
  });

  it('go visibly stale during a store outage: store_up 0 and no backlog values, then recover', async () => {
    const metrics = createMetrics();
    const { store, setUp } = switchableStore({ pending: 3, dead: 1, oldestPendingAgeMs: 42_000 });
    registerBacklogGauges(metrics, store);
    await metrics.registry.metrics();

    setUp(false);
    await nextScrape();
    const during = await metrics.registry.metrics();
    expect(sample(during, 'noti_receiver_store_up')).toBe('0');
    expect(sample(during, 'noti_receiver_outbox_pending')).toBeUndefined();
    expect(sample(during, 'noti_receiver_outbox_dead')).toBeUndefined();
    expect(sample(during, 'noti_receiver_outbox_oldest_pending_age_seconds')).toBeUndefined();

    setUp(true);
    await nextScrape();
    const after = await metrics.registry.metrics();
    expect(sample(after, 'noti_receiver_store_up')).toBe('1');
    expect(sample(after, 'noti_receiver_outbox_pending')).toBe('3');
  });

  it('say whether this replica runs the relay', async () => {
    const metrics = createMetrics();
    let holdsLock = false;
    registerRelayGauge(metrics, { state: () => ({ holdsLock }) });
    expect(sample(await metrics.registry.metrics(), 'noti_receiver_relay_lock_held')).toBe('0');
    holdsLock = true;
    expect(sample(await metrics.registry.metrics(), 'noti_receiver_relay_lock_held')).toBe('1');
  });
});
