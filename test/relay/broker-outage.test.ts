import amqp, { type ChannelModel } from 'amqplib';
import { connect, type NatsConnection } from 'nats';
import Redis from 'ioredis';
import { Writable } from 'node:stream';
import type { NormalizedEvent } from '../../src/notifications/normalized-event';
import { createLogger, type Logger } from '../../src/observability/logger';
import { openAmqpPublisher } from '../../src/publishers/amqp-publisher';
import { openNatsPublisher } from '../../src/publishers/nats-publisher';
import { openHttpPublisher } from '../../src/publishers/http-publisher';
import { openRedisPublisher } from '../../src/publishers/redis-publisher';
import type { Publisher } from '../../src/publishers/publisher';
import { describeWithBroker, eventually, uniqueName } from '../publishers/broker-env';
import { startEndpoint } from '../publishers/http-endpoint';
import { expectInOrderWithoutGaps, RelayHarness } from './relay-harness';
import { TcpProxy } from '../helpers/tcp-proxy';

jest.setTimeout(60_000);

/** What each broker test plugs into the one outage scenario below. */
interface Destination {
  publisher(url: string): Promise<Publisher> | Publisher;
  /** Every message id the consumer has seen so far, in arrival order. */
  receivedIds(): Promise<string[]>;
}

/**
 * The scenario the issue asks for: a burst is under way, the broker vanishes mid-burst, the
 * gateway keeps sending (every notification still stored), the broker comes back, and the
 * whole backlog arrives in arrival order.
 */
async function outageScenario(
  brokerUrl: string,
  destination: Destination,
  { downAtStart = false } = {},
): Promise<{ ids: string[]; recordedIds: string[] }> {
  const proxy = await TcpProxy.forUrl(brokerUrl);
  if (downAtStart) await proxy.cut();
  const harness = new RelayHarness(await destination.publisher(proxy.urlFor(brokerUrl)));
  try {
    let before: NormalizedEvent[] = [];
    if (!downAtStart) {
      before = await harness.record(200);
      await eventually(async () => ((await destination.receivedIds()).length >= 5 ? true : undefined), 15_000, 'the burst to start arriving');
      await proxy.cut();
    }
    const during = await harness.record(30);
    await harness.waitForBacklog();
    expect(harness.publisher.status().connected).toBe(false);

    await proxy.start();
    const recorded = [...before, ...during];
    await harness.waitForDrain();
    const ids = await eventually(async () => {
      const seen = await destination.receivedIds();
      return new Set(seen).size >= recorded.length ? seen : undefined;
    }, 15_000, 'every event at the consumer');
    expectInOrderWithoutGaps(ids, recorded);
    await eventually(() => (harness.publisher.status().connected ? true : undefined), 10_000, 'the publisher to report connected');
    return { ids, recordedIds: recorded.map((event) => event.id) };
  } finally {
    await harness.close();
    await proxy.cut();
  }
}

/** Binds an exclusive queue to the exchange and collects each message's id into `ids`, as a consumer would. */
async function consumeExchange(brokerUrl: string, exchange: string, ids: string[]): Promise<ChannelModel> {
  const consumer = await amqp.connect(brokerUrl);
  const channel = await consumer.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, exchange, '#');
  await channel.consume(queue, (message) => message && ids.push(String(message.properties.messageId)), { noAck: true });
  return consumer;
}

async function deleteExchange(consumer: ChannelModel, exchange: string): Promise<void> {
  const channel = await consumer.createChannel();
  await channel.deleteExchange(exchange);
  await consumer.close();
}

describeWithBroker('TEST_AMQP_URL', 'relay through a RabbitMQ outage', (brokerUrl) => {
  let consumer: ChannelModel;
  const exchange = uniqueName('noti-outage');
  const ids: string[] = [];

  beforeAll(async () => {
    consumer = await consumeExchange(brokerUrl, exchange, ids);
  });

  afterAll(() => deleteExchange(consumer, exchange));

  const destination: Destination = {
    publisher: (url) => openAmqpPublisher({ url, exchange, connectTimeoutMs: 1_000, confirmTimeoutMs: 2_000 }),
    receivedIds: async () => ids,
  };

  it('delivers every event stored during the outage, in order, with no gap', async () => {
    await outageScenario(brokerUrl, destination);
  });

  it('starts with RabbitMQ down and delivers the backlog once it is up', async () => {
    ids.length = 0;
    await outageScenario(brokerUrl, destination, { downAtStart: true });
  });
});

/** The message ids in a JetStream stream, in order: what the queue received. */
async function natsStreamIds(nc: NatsConnection, queueName: string): Promise<string[]> {
  const jsm = await nc.jetstreamManager();
  const info = await jsm.streams.info(queueName).catch(() => null);
  if (!info || info.state.messages === 0) return [];
  const consumer = await nc.jetstream().consumers.get(queueName);
  const ids: string[] = [];
  const batch = await consumer.fetch({ max_messages: info.state.messages, expires: 2_000 });
  for await (const message of batch) {
    ids.push(message.headers?.get('Nats-Msg-Id') ?? '');
    if (ids.length === info.state.messages) break;
  }
  return ids;
}

describeWithBroker('TEST_NATS_URL', 'relay through a NATS outage', (brokerUrl) => {
  let nc: NatsConnection;
  const queueName = uniqueName('noti-outage');

  beforeAll(async () => {
    nc = await connect({ servers: new URL(brokerUrl).host });
  });

  afterAll(async () => {
    await (await nc.jetstreamManager()).streams.delete(queueName).catch(() => undefined);
    await nc.close();
  });

  const streamIds = () => natsStreamIds(nc, queueName);

  const destination: Destination = {
    publisher: (url) => openNatsPublisher({ url, queueName, connectTimeoutMs: 1_000, ackTimeoutMs: 1_000 }),
    receivedIds: streamIds,
  };

  it('delivers every event stored during the outage exactly once, in order', async () => {
    const { ids, recordedIds } = await outageScenario(brokerUrl, destination);
    // JetStream's duplicate window absorbs the relay's retries: exactly once, not just at least once.
    expect(ids).toEqual(recordedIds);
  });

  it('starts with NATS down, creates the stream once it is up and delivers the backlog exactly once', async () => {
    await (await nc.jetstreamManager()).streams.delete(queueName);
    const { ids, recordedIds } = await outageScenario(brokerUrl, destination, { downAtStart: true });
    expect(ids).toEqual(recordedIds);
  });
});

describeWithBroker('TEST_REDIS_URL', 'relay through a Redis outage', (brokerUrl) => {
  let redis: Redis;
  const key = uniqueName('noti-outage');

  beforeAll(() => {
    redis = new Redis(brokerUrl);
  });

  afterAll(async () => {
    await redis.del(key);
    await redis.quit();
  });

  const destination: Destination = {
    publisher: (url) => openRedisPublisher({ url, queueName: key, commandTimeoutMs: 1_000 }),
    receivedIds: async () => (await redis.xrange(key, '-', '+')).map(([, fields]) => fields[1] ?? ''),
  };

  it('delivers every event stored during the outage, in order, with no gap', async () => {
    await outageScenario(brokerUrl, destination);
  });

  it('starts with Redis down and delivers the backlog once it is up', async () => {
    await redis.del(key);
    await outageScenario(brokerUrl, destination, { downAtStart: true });
  });
});

describe('relay through an HTTP endpoint outage', () => {
  it.each([
    ['during a burst', false],
    ['from the start', true],
  ])('delivers every event stored while the endpoint is down %s, in order, with no gap', async (_when, downAtStart) => {
    const endpoint = await startEndpoint();
    try {
      await outageScenario(endpoint.url, {
        publisher: (url) => openHttpPublisher({ url, timeoutMs: 1_000 }),
        receivedIds: async () => endpoint.received.map((request) => String(request.headers['idempotency-key'])),
      }, { downAtStart });
    } finally {
      await endpoint.close();
    }
  });
});

/** Every log line, parsed, as an operator's log shipper would see it. */
function capturedLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: 'info', stream }), lines };
}

/**
 * The relay's back-off is a guess at when the queue is back; once the publisher has its
 * connection again the backlog goes at once. The back-off here (a minute) is far longer than the
 * wait for the drain below, so only the wake-up on the restored connection can pass it.
 */
async function restoredScenario(brokerUrl: string, destination: Destination): Promise<Array<Record<string, unknown>>> {
  const proxy = await TcpProxy.forUrl(brokerUrl);
  const { logger, lines } = capturedLogger();
  const harness = new RelayHarness(await destination.publisher(proxy.urlFor(brokerUrl)), {
    logger, backoff: { baseMs: 60_000, maxMs: 60_000 },
  });
  try {
    const before = await harness.record(1);
    await harness.waitForDrain();
    await proxy.cut();
    await eventually(() => (harness.publisher.status().connected ? undefined : true), 15_000, 'the publisher to notice the outage');
    const during = await harness.record(20);
    await harness.waitForBacklog();
    await proxy.start();
    await eventually(() => (harness.publisher.status().connected ? true : undefined), 15_000, 'the connection to come back');
    await harness.waitForDrain(15_000);
    const recorded = [...before, ...during];
    const ids = await eventually(async () => {
      const seen = await destination.receivedIds();
      return new Set(seen).size >= recorded.length ? seen : undefined;
    }, 15_000, 'every event at the consumer');
    expectInOrderWithoutGaps(ids, recorded);
    return lines;
  } finally {
    await harness.close();
    await proxy.cut();
  }
}

/** One warning per failed attempt: the publish that failed, never a second line saying something else about it. */
function expectOneLinePerFailedAttempt(lines: Array<Record<string, unknown>>): void {
  expect(lines.filter((line) => line.message === 'batch publish failed; publishing one at a time')).toEqual([]);
  const failed = lines.filter((line) => line.message === 'publish failed; retrying in order');
  expect(failed.length).toBeGreaterThan(0);
  expect(failed.map((line) => line.attempt)).toEqual(failed.map((_line, i) => i + 1));
  const relayWarnings = lines.filter((line) => line.level === 'warn' && !/^queue /.test(String(line.message)));
  expect(relayWarnings).toEqual(failed);
}

describeWithBroker('TEST_AMQP_URL', 'relay when the RabbitMQ connection is restored', (brokerUrl) => {
  let consumer: ChannelModel;
  const exchange = uniqueName('noti-restored');
  const ids: string[] = [];

  beforeAll(async () => {
    consumer = await consumeExchange(brokerUrl, exchange, ids);
  });

  afterAll(() => deleteExchange(consumer, exchange));

  it('delivers the backlog as soon as the connection is back, not after the back-off, with one log line per failed attempt', async () => {
    const lines = await restoredScenario(brokerUrl, {
      publisher: (url) => openAmqpPublisher({ url, exchange, connectTimeoutMs: 1_000, confirmTimeoutMs: 2_000 }),
      receivedIds: async () => ids,
    });
    expectOneLinePerFailedAttempt(lines);
  });
});

describeWithBroker('TEST_REDIS_URL', 'relay when the Redis connection is restored', (brokerUrl) => {
  let redis: Redis;
  const key = uniqueName('noti-restored');

  beforeAll(() => {
    redis = new Redis(brokerUrl);
  });

  afterAll(async () => {
    await redis.del(key);
    await redis.quit();
  });

  it('delivers the backlog as soon as the connection is back, not after the back-off, with one log line per failed attempt', async () => {
    const lines = await restoredScenario(brokerUrl, {
      publisher: (url) => openRedisPublisher({ url, queueName: key, commandTimeoutMs: 1_000 }),
      receivedIds: async () => (await redis.xrange(key, '-', '+')).map(([, fields]) => fields[1] ?? ''),
    });
    expectOneLinePerFailedAttempt(lines);
  });
});

describeWithBroker('TEST_NATS_URL', 'relay when the NATS connection is restored', (brokerUrl) => {
  let nc: NatsConnection;
  const queueName = uniqueName('noti-restored');

  beforeAll(async () => {
    nc = await connect({ servers: new URL(brokerUrl).host });
  });

  afterAll(async () => {
    await (await nc.jetstreamManager()).streams.delete(queueName).catch(() => undefined);
    await nc.close();
  });

  const streamIds = () => natsStreamIds(nc, queueName);

  it('delivers the backlog as soon as nats.js has reconnected, not after the back-off, with one log line per failed attempt', async () => {
    const lines = await restoredScenario(brokerUrl, {
      publisher: (url) => openNatsPublisher({ url, queueName, connectTimeoutMs: 1_000, ackTimeoutMs: 1_000 }),
      receivedIds: streamIds,
    });
    expectOneLinePerFailedAttempt(lines);
  });
});
