import { createLogger } from '../../src/observability/logger';
import { openPublisher } from '../../src/publishers/open-publisher';
import { outboundEvent } from '../../src/publishers/publisher';
import { eventually } from '../helpers/eventually';
import { sampleEvent } from '../helpers/stored-events';

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('closing a publisher', () => {
  // Port 1 on loopback has nothing listening. A timer left behind keeps a shutting-down
  // receiver (and jest) alive after close() said it was done.
  it.each([
    ['amqp', 'amqp://127.0.0.1:1/'],
    ['nats', 'nats://127.0.0.1:1'],
    ['redis', 'redis://127.0.0.1:1/0'],
    ['http', 'http://127.0.0.1:1/events'],
  ])('that never reached its %s broker leaves no timer behind', async (_kind, url) => {
    await settle();
    const before = timers();
    const publisher = await openPublisher({ url, queueName: 'payment-notifications', logger: createLogger({ level: 'error', silent: true }) });
    await publisher.publish(outboundEvent(sampleEvent())).catch(() => undefined);
    await publisher.close();
    // Well under ioredis's 2 s grace timer, and under jest's one-second "did not exit" warning.
    await eventually(() => timers() <= before, 900, 'the timers the publisher started to end');
  });
});
