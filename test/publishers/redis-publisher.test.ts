import Redis from 'ioredis';
import { isPermanent, outboundEvent, type Publisher } from '../../src/publishers/publisher';
import { openRedisPublisher, parseRedisUrl } from '../../src/publishers/redis-publisher';
import { describeWithBroker, uniqueName } from './broker-env';
import { oneOfEachType, sampleEvent } from '../helpers/stored-events';
import { contractProblems, oneOfEveryKind } from '../helpers/event-contract';

describeWithBroker('TEST_REDIS_URL', 'redis publisher', (brokerUrl) => {
  let redis: Redis;
  let key: string;
  let publisher: Publisher | undefined;

  beforeEach(() => {
    key = uniqueName('noti-test');
    redis = new Redis(brokerUrl);
  });

  afterEach(async () => {
    await publisher?.close();
    publisher = undefined;
    await redis.del(key);
    await redis.quit();
  });

  it('XADDs every event type with its id, type and JSON, in order', async () => {
    publisher = openRedisPublisher({ url: brokerUrl, queueName: key });
    const events = oneOfEachType();
    for (const event of events) await publisher.publish(outboundEvent(event));

    const entries = await redis.xrange(key, '-', '+');
    expect(entries).toHaveLength(events.length);
    entries.forEach(([, fields], i) => {
      const event = events[i]!;
      expect(fields).toEqual(['id', event.id, 'type', event.type, 'event', JSON.stringify(event)]);
    });
    expect(contractProblems(entries.map(([, fields]) => fields[fields.indexOf('event') + 1]))).toEqual([]);
    expect(publisher.status().connected).toBe(true);
  });

  it('XADDs every event type of docs/asyncapi.json as the document describes it', async () => {
    publisher = openRedisPublisher({ url: brokerUrl, queueName: key });
    const events = oneOfEveryKind();
    await publisher.publishBatch!(events);

    const entries = await redis.xrange(key, '-', '+');
    const field = (fields: string[], name: string) => fields[fields.indexOf(name) + 1];
    expect(entries.map(([, fields]) => [field(fields, 'id'), field(fields, 'type')])).toEqual(events.map((event) => [event.id, event.type]));
    expect(contractProblems(entries.map(([, fields]) => field(fields, 'event')))).toEqual([]);
  });

  it('XADDs a batch in one pipeline, in order, with the stored JSON byte for byte', async () => {
    publisher = openRedisPublisher({ url: brokerUrl, queueName: key });
    const events = Array.from({ length: 200 }, () => sampleEvent());
    await publisher.publishBatch!(events.map(outboundEvent));

    const entries = await redis.xrange(key, '-', '+');
    expect(entries.map(([, fields]) => fields[1])).toEqual(events.map((event) => event.id));
    expect(entries[0]![1][5]).toBe(JSON.stringify(events[0]));
  });

  it('caps the stream near ?maxlen= from the URL', async () => {
    const url = new URL(brokerUrl);
    url.searchParams.set('maxlen', '10');
    publisher = openRedisPublisher({ url: url.toString(), queueName: key });
    for (let i = 0; i < 500; i += 1) await publisher.publish(outboundEvent(sampleEvent()));
    // `~` lets Redis trim only whole macro nodes (100 entries by default), never below the cap.
    const length = await redis.xlen(key);
    expect(length).toBeGreaterThanOrEqual(10);
    expect(length).toBeLessThan(500);
  });

  it('opens while Redis is unreachable and fails publishes fast, as transient', async () => {
    publisher = openRedisPublisher({ url: 'redis://127.0.0.1:1/0', queueName: key });
    const started = Date.now();
    const failure = await publisher.publish(outboundEvent(sampleEvent())).then(() => null, (error: unknown) => error);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(failure).toEqual(expect.objectContaining({ message: expect.any(String) }));
    expect(isPermanent(failure)).toBe(false);
    expect(publisher.status().connected).toBe(false);
  });
});

describe('redis QUEUE_URL', () => {
  it('takes maxlen from the query and connects without it', () => {
    expect(parseRedisUrl('redis://u:p@127.0.0.1:6379/2?maxlen=100000')).toEqual({
      connectUrl: 'redis://u:p@127.0.0.1:6379/2', maxLen: 100000,
    });
    expect(parseRedisUrl('redis://127.0.0.1:6379').maxLen).toBeNull();
  });

  it('refuses a maxlen that is not a positive integer', () => {
    expect(() => parseRedisUrl('redis://127.0.0.1:6379?maxlen=ten')).toThrow(/maxlen must be a positive integer/);
  });
});
