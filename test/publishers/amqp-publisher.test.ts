import amqp, { type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { openAmqpPublisher } from '../../src/publishers/amqp-publisher';
import { isPermanent, outboundEvent, type Publisher } from '../../src/publishers/publisher';
import { TcpProxy } from '../helpers/tcp-proxy';
import { describeWithBroker, eventually, uniqueName } from './broker-env';
import { oneOfEachType } from '../helpers/stored-events';
import { contractProblems, oneOfEveryKind } from '../helpers/event-contract';

describeWithBroker('TEST_AMQP_URL', 'amqp publisher', (brokerUrl) => {
  let consumer: ChannelModel;
  let channel: Channel;
  let exchange: string;
  let publisher: Publisher | undefined;
  const received: ConsumeMessage[] = [];

  beforeEach(async () => {
    exchange = uniqueName('noti-test');
    received.length = 0;
    consumer = await amqp.connect(brokerUrl);
    channel = await consumer.createChannel();
  });

  afterEach(async () => {
    await publisher?.close();
    publisher = undefined;
    await channel.deleteExchange(exchange).catch(() => undefined);
    await consumer.close();
  });

  async function bindQueue(pattern: string): Promise<void> {
    // The publisher declares the exchange; the consumer re-declares it with the same arguments,
    // which RabbitMQ refuses (PRECONDITION_FAILED) unless it really is a durable topic exchange.
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true });
    await channel.bindQueue(queue, exchange, pattern);
    await channel.consume(queue, (message) => message && received.push(message), { noAck: true });
  }

  it('sends every event type as a persistent JSON message routed by its type, with the event id as message id', async () => {
    publisher = openAmqpPublisher({ url: brokerUrl, exchange });
    const events = oneOfEachType();
    await publisher.publish(outboundEvent(events[0]!));
    await bindQueue('#');
    for (const event of events) await publisher.publish(outboundEvent(event));

    const messages = await eventually(() => (received.length >= events.length ? received : undefined), 5_000, 'all messages');
    expect(messages).toHaveLength(events.length);
    messages.forEach((message, i) => {
      const event = events[i]!;
      expect(message.fields.exchange).toBe(exchange);
      expect(message.fields.routingKey).toBe(event.type);
      expect(message.properties.messageId).toBe(event.id);
      expect(message.properties.contentType).toBe('application/json');
      expect(message.properties.deliveryMode).toBe(2);
      expect(JSON.parse(message.content.toString('utf8'))).toEqual(event);
    });
    expect(contractProblems(messages.map((message) => message.content.toString('utf8')))).toEqual([]);
    expect(publisher.status().connected).toBe(true);
  });

  it('sends every event type of docs/asyncapi.json as the document describes it, routed by its type', async () => {
    publisher = openAmqpPublisher({ url: brokerUrl, exchange });
    const events = oneOfEveryKind();
    await publisher.publish(events[0]!);
    await bindQueue('#');
    await publisher.publishBatch!(events);

    const messages = await eventually(() => (received.length >= events.length ? received : undefined), 5_000, 'all messages');
    expect(messages.map((message) => message.fields.routingKey)).toEqual(events.map((event) => event.type));
    expect(contractProblems(messages.map((message) => message.content.toString('utf8')))).toEqual([]);
  });

  it('lets a consumer bind only the types it wants by routing key', async () => {
    publisher = openAmqpPublisher({ url: brokerUrl, exchange });
    await publisher.publish(outboundEvent(oneOfEachType()[0]!));
    await bindQueue('vaccount.*');
    for (const event of oneOfEachType()) await publisher.publish(outboundEvent(event));
    await eventually(() => (received.length >= 2 ? true : undefined), 5_000, 'vaccount messages');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.map((m) => m.fields.routingKey)).toEqual(['vaccount.deposited', 'vaccount.deposit_cancelled']);
  });

  it('rejects, as transient, a message the broker nacks', async () => {
    publisher = openAmqpPublisher({ url: brokerUrl, exchange });
    const [first, second] = oneOfEachType();
    await publisher.publish(outboundEvent(first!));
    // A full queue with overflow=reject-publish makes RabbitMQ nack instead of confirm.
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true, arguments: { 'x-max-length': 1, 'x-overflow': 'reject-publish' } });
    await channel.bindQueue(queue, exchange, '#');
    await publisher.publish(outboundEvent(first!));
    const failure = await publisher.publish(outboundEvent(second!)).then(() => null, (error: unknown) => error);
    expect((failure as Error | null)?.message).toMatch(/nack/i);
    expect(isPermanent(failure)).toBe(false);

    await channel.purgeQueue(queue);
    await publisher.publish(outboundEvent(second!));
    expect(publisher.status().connected).toBe(true);
  });

  it('publishes a batch in order and resolves once the broker confirmed all of it', async () => {
    publisher = openAmqpPublisher({ url: brokerUrl, exchange });
    await publisher.publish(outboundEvent(oneOfEachType()[0]!));
    await bindQueue('#');
    const events = [...oneOfEachType(), ...oneOfEachType(), ...oneOfEachType()];
    await publisher.publishBatch!(events.map(outboundEvent));
    const messages = await eventually(() => (received.length >= events.length ? received : undefined), 5_000, 'the batch');
    expect(messages.map((m) => m.properties.messageId)).toEqual(events.map((event) => event.id));
    expect(messages.map((m) => JSON.parse(m.content.toString('utf8')))).toEqual(events);
  });

  it('rejects a whole batch when the broker nacks one message of it', async () => {
    publisher = openAmqpPublisher({ url: brokerUrl, exchange });
    const events = oneOfEachType();
    await publisher.publish(outboundEvent(events[0]!));
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true, arguments: { 'x-max-length': 2, 'x-overflow': 'reject-publish' } });
    await channel.bindQueue(queue, exchange, '#');
    const failure = await publisher.publishBatch!(events.map(outboundEvent)).then(() => null, (error: unknown) => error);
    expect((failure as Error | null)?.message).toMatch(/nack/i);
    expect(isPermanent(failure)).toBe(false);
  });

  it('opens while the broker is down, fails publishes as transient, and connects by itself once it is back', async () => {
    const proxy = await TcpProxy.forUrl(brokerUrl);
    try {
      await proxy.cut();
      publisher = openAmqpPublisher({ url: proxy.urlFor(brokerUrl), exchange, connectTimeoutMs: 1_000 });
      const event = oneOfEachType()[0]!;
      const failure = await publisher.publish(outboundEvent(event)).then(() => null, (error: unknown) => error);
      // Node's socket errors come from another realm than jest's `Error`: check the shape instead.
      expect(failure).toEqual(expect.objectContaining({ message: expect.any(String) }));
      expect(isPermanent(failure)).toBe(false);
      expect(publisher.status().connected).toBe(false);
      expect(publisher.status().detail).not.toContain('guest:guest');

      await proxy.start();
      // No publish in between: the background reconnect alone must bring the status back.
      const open = publisher;
      await eventually(() => (open.status().connected ? true : undefined), 10_000, 'reconnect');
      await bindQueue('#');
      await publisher.publish(outboundEvent(event));
      await eventually(() => (received.length === 1 ? true : undefined), 5_000, 'message after reconnect');
    } finally {
      await proxy.cut();
    }
  });
});
