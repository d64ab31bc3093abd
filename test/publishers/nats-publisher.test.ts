import { connect, type JsMsg, type NatsConnection } from 'nats';
import { openNatsPublisher } from '../../src/publishers/nats-publisher';
import { isPermanent, outboundEvent, type Publisher } from '../../src/publishers/publisher';
import { describeWithBroker, uniqueName } from './broker-env';
import { oneOfEachType } from '../helpers/stored-events';
import { contractProblems, oneOfEveryKind } from '../helpers/event-contract';

describeWithBroker('TEST_NATS_URL', 'nats publisher', (brokerUrl) => {
  let nc: NatsConnection;
  let queueName: string;
  let publisher: Publisher | undefined;

  beforeEach(async () => {
    queueName = uniqueName('noti-test');
    nc = await connect({ servers: new URL(brokerUrl).host });
  });

  afterEach(async () => {
    await publisher?.close();
    publisher = undefined;
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(queueName).catch(() => undefined);
    await nc.close();
  });

  async function readStream(count: number): Promise<JsMsg[]> {
    const js = nc.jetstream();
    const consumer = await js.consumers.get(queueName);
    const messages: JsMsg[] = [];
    const batch = await consumer.fetch({ max_messages: count, expires: 2_000 });
    for await (const message of batch) {
      messages.push(message);
      message.ack();
    }
    return messages;
  }

  it('creates the stream and sends every event type to <queue>.<type> with the event id as Nats-Msg-Id', async () => {
    publisher = await openNatsPublisher({ url: brokerUrl, queueName });
    const events = oneOfEachType();
    for (const event of events) await publisher.publish(outboundEvent(event));

    const info = await (await nc.jetstreamManager()).streams.info(queueName);
    expect(info.config.subjects).toEqual([`${queueName}.>`]);
    const messages = await readStream(events.length + 1);
    expect(messages).toHaveLength(events.length);
    messages.forEach((message, i) => {
      const event = events[i]!;
      expect(message.subject).toBe(`${queueName}.${event.type}`);
      expect(message.headers?.get('Nats-Msg-Id')).toBe(event.id);
      expect(message.json()).toEqual(event);
    });
    expect(contractProblems(messages.map((message) => message.string()))).toEqual([]);
    expect(publisher.status().connected).toBe(true);
  });

  it('sends every event type of docs/asyncapi.json as the document describes it, on <queue>.<type>', async () => {
    publisher = await openNatsPublisher({ url: brokerUrl, queueName });
    const events = oneOfEveryKind();
    await publisher.publishBatch!(events);

    const messages = await readStream(events.length + 1);
    expect(messages.map((message) => [message.subject, message.headers?.get('Nats-Msg-Id')])).toEqual(events.map((event) => [`${queueName}.${event.type}`, event.id]));
    expect(contractProblems(messages.map((message) => message.string()))).toEqual([]);
  });

  it('publishes a batch without waiting in between and resolves once every PubAck came, in order', async () => {
    publisher = await openNatsPublisher({ url: brokerUrl, queueName });
    const events = [...oneOfEachType(), ...oneOfEachType(), ...oneOfEachType()];
    await publisher.publishBatch!(events.map(outboundEvent));

    const messages = await readStream(events.length + 1);
    expect(messages.map((message) => message.headers?.get('Nats-Msg-Id'))).toEqual(events.map((event) => event.id));
    expect(messages.map((message) => message.json())).toEqual(events);
  });

  it('lets JetStream drop a retried event with the same id', async () => {
    publisher = await openNatsPublisher({ url: brokerUrl, queueName });
    const [event] = oneOfEachType();
    await publisher.publish(outboundEvent(event!));
    await publisher.publish(outboundEvent(event!));
    const info = await (await nc.jetstreamManager()).streams.info(queueName);
    expect(info.state.messages).toBe(1);
  });

  it('reuses a stream that already exists', async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: queueName, subjects: [`${queueName}.>`] });
    publisher = await openNatsPublisher({ url: brokerUrl, queueName });
    await publisher.publish(outboundEvent(oneOfEachType()[0]!));
    expect((await jsm.streams.info(queueName)).state.messages).toBe(1);
  });

  it('opens while the server is unreachable and fails publishes as transient', async () => {
    publisher = await openNatsPublisher({ url: 'nats://127.0.0.1:1', queueName, connectTimeoutMs: 500 });
    const failure = await publisher.publish(outboundEvent(oneOfEachType()[0]!)).then(() => null, (error: unknown) => error);
    expect(failure).toEqual(expect.objectContaining({ message: expect.any(String) }));
    expect(isPermanent(failure)).toBe(false);
    expect(publisher.status().connected).toBe(false);
  });
});

