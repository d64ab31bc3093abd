import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger';
import { QUEUE_SCHEMES } from '../../src/config/queue-url';
import { openPublisher } from '../../src/publishers/open-publisher';
import { isPermanent, outboundEvent } from '../../src/publishers/publisher';
import { redactUrl } from '../../src/observability/redact-url';
import { sampleEvent } from '../helpers/stored-events';

describe('opening the publisher named by QUEUE_URL', () => {
  it('knows every queue scheme docs/queues.md lists', () => {
    expect(QUEUE_SCHEMES).toEqual(expect.arrayContaining(['file', 'amqp', 'nats', 'redis', 'http', 'https']));
  });

  // Port 1 on loopback has nothing listening: the receiver must still start and keep acking.
  // Brokers log the outage (with the address, for the operator); HTTP has no connection to lose.
  it.each([
    ['amqp', 'amqp://merchant:s3cret@127.0.0.1:1/', 1],
    ['nats', 'nats://merchant:s3cret@127.0.0.1:1', 1],
    ['redis', 'redis://merchant:s3cret@127.0.0.1:1/0', 1],
    ['http', 'http://merchant:s3cret@127.0.0.1:1/events', 0],
  ])('opens a %s publisher while nothing listens, fails the publish as transient, and never shows the password', async (kind, url, warnings) => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger({ level: 'debug', stream });
    const publisher = await openPublisher({ url, queueName: 'payment-notifications', logger });
    try {
      expect(publisher.kind).toBe(kind);
      const failure = await publisher.publish(outboundEvent(sampleEvent())).then(() => null, (error: unknown) => error);
      expect(failure).toEqual(expect.objectContaining({ message: expect.any(String) }));
      expect(isPermanent(failure)).toBe(false);
      const status = publisher.status();
      expect(status.connected).toBe(false);
      expect(JSON.stringify(status)).not.toContain('s3cret');
      const logged = lines.map((line) => JSON.parse(line) as { level: string; queue?: string });
      expect(logged.filter((entry) => entry.level === 'warn' && entry.queue?.includes('127.0.0.1:1'))).toHaveLength(warnings);
      expect(lines.join('')).not.toContain('s3cret');
      expect((failure as Error).message).not.toContain('s3cret');
    } finally {
      await publisher.close();
      await publisher.close();
    }
  });
});

describe('redactUrl', () => {
  it('drops user info and query, which can both carry secrets', () => {
    expect(redactUrl('amqp://user:pw@rabbit:5672/vhost')).toBe('amqp://rabbit:5672/vhost');
    expect(redactUrl('https://orders.internal/hook?token=abc')).toBe('https://orders.internal/hook');
    expect(redactUrl('redis://:pw@127.0.0.1:6379/0?maxlen=10')).toBe('redis://127.0.0.1:6379/0');
  });
});
