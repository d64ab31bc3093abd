import amqp from 'amqplib';
import Redis from 'ioredis';
import { connect } from 'nats';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { contractProblems } from '../helpers/event-contract';
import { eventually } from '../helpers/eventually';
import { describeWithBroker, uniqueName } from '../publishers/broker-env';
import { startOtlpCollector } from './otlp-collector';
import { startTracedReceiver, type TracedReceiver } from './traced-receiver';

const SERVER = 2;

/** A message as a consumer of the broker got it: the event JSON and the traceparent beside it. */
interface Consumed {
  json: string;
  traceparent: string | undefined;
}

/**
 * On each real broker, a consumer receives with the notification's event a `traceparent`
 * (header or stream field) of the trace the notification's POST started, exported by the
 * built service to a collector this test runs.
 */
async function expectNotificationTrace(env: Record<string, string>, consume: () => Promise<Consumed[]>): Promise<void> {
  const collector = await startOtlpCollector();
  let receiver: TracedReceiver | null = null;
  try {
    receiver = await startTracedReceiver(collector.url, env);
    expect(await receiver.post(approvalNotification())).toBe(200);
    const server = await eventually(() => collector.spans.find((span) => span.kind === SERVER), 15_000, 'the POST span');
    const eventId = server.attributes['noti.event_id'];
    const consumed = await eventually(async () => (await consume()).find((message) => (JSON.parse(message.json) as { id: string }).id === eventId), 15_000, 'the event at the consumer');
    expect(consumed.traceparent).toMatch(new RegExp(`^00-${server.traceId}-[0-9a-f]{16}-01$`));
    expect(contractProblems([consumed.json])).toEqual([]);
  } finally {
    await receiver?.close();
    await collector.close();
  }
}

describeWithBroker('TEST_AMQP_URL', 'trace context in RabbitMQ messages', (url) => {
  it("a consumer's message carries a traceparent header of the notification's trace", async () => {
    const exchange = uniqueName('noti-trace');
    const connection = await amqp.connect(url);
    const channel = await connection.createChannel();
    const received: Consumed[] = [];
    try {
      await channel.assertExchange(exchange, 'topic', { durable: true });
      const { queue } = await channel.assertQueue('', { exclusive: true });
      await channel.bindQueue(queue, exchange, '#');
      await channel.consume(queue, (message) => {
        if (message) received.push({ json: message.content.toString('utf8'), traceparent: message.properties.headers?.traceparent as string | undefined });
      }, { noAck: true });
      await expectNotificationTrace({ QUEUE_URL: url, QUEUE_NAME: exchange }, () => Promise.resolve(received));
    } finally {
      await channel.deleteExchange(exchange).catch(() => undefined);
      await connection.close();
    }
  }, 60_000);
});

describeWithBroker('TEST_NATS_URL', 'trace context in NATS JetStream messages', (url) => {
  it("a consumer's message carries a traceparent header of the notification's trace", async () => {
    const queueName = uniqueName('noti-trace');
    const nc = await connect({ servers: new URL(url).host });
    try {
      await expectNotificationTrace({ QUEUE_URL: url, QUEUE_NAME: queueName }, async () => {
        const consumer = await nc.jetstream().consumers.get(queueName);
        const messages: Consumed[] = [];
        for await (const message of await consumer.fetch({ max_messages: 10, expires: 1_000 })) {
          messages.push({ json: message.string(), traceparent: message.headers?.get('traceparent') });
          message.ack();
        }
        return messages;
      });
    } finally {
      await (await nc.jetstreamManager()).streams.delete(queueName).catch(() => undefined);
      await nc.close();
    }
  }, 60_000);
});

describeWithBroker('TEST_REDIS_URL', 'trace context in Redis stream entries', (url) => {
  it("a consumer's entry carries a traceparent field of the notification's trace", async () => {
    const stream = uniqueName('noti-trace');
    const redis = new Redis(url);
    try {
      await expectNotificationTrace({ QUEUE_URL: url, QUEUE_NAME: stream }, async () => {
        const entries = await redis.xrange(stream, '-', '+');
        const field = (fields: string[], name: string) => (fields.includes(name) ? fields[fields.indexOf(name) + 1] : undefined);
        return entries.map(([, fields]) => ({ json: field(fields, 'event') ?? 'null', traceparent: field(fields, 'traceparent') }));
      });
    } finally {
      await redis.del(stream);
      await redis.quit();
    }
  }, 60_000);
});
