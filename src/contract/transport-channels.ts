/**
 * How each transport carries an event: one AsyncAPI channel, server and send operation per
 * queue scheme, as the publishers in src/publishers write them. `messages` is every event
 * type's message, shared by all channels (the payload is the same bytes on every transport).
 */
const DEFAULT_QUEUE_NAME = 'payment-notifications';

const queueName = {
  description: 'QUEUE_NAME: letters, digits, - and _ only',
  default: DEFAULT_QUEUE_NAME,
  examples: [DEFAULT_QUEUE_NAME],
};

export interface Transport {
  /** The key of its server, channel and operation. */
  key: 'amqp' | 'nats' | 'redis' | 'http' | 'file';
  server: Record<string, unknown>;
  channel: Record<string, unknown>;
  operationBindings?: Record<string, unknown>;
  operationDescription: string;
}

export function transports(types: readonly string[]): Transport[] {
  const type = { description: 'the event `type`', enum: [...types], examples: ['payment.approved'] };
  return [
    {
      key: 'amqp',
      server: { host: 'rabbit.internal:5672', pathname: '/vhost', protocol: 'amqp', description: 'QUEUE_URL=amqp://user:password@rabbit.internal:5672/vhost (or amqps://)' },
      channel: {
        address: '{type}',
        title: 'RabbitMQ topic exchange',
        description: 'Published to the durable topic exchange named QUEUE_NAME (declared on connect) with the event `type` as routing key; bind `#` for everything, `payment.*`, or `order.*` and `ledger.*` for the ledger only. Properties: persistent, mandatory, messageId = event id, contentType application/json, contentEncoding utf-8, type = event type, timestamp = receive time; with tracing on, application headers `traceparent` and `tracestate`. Delivered on the publisher confirm.',
        parameters: { type },
        bindings: {
          amqp: { is: 'routingKey', exchange: { name: DEFAULT_QUEUE_NAME, type: 'topic', durable: true, autoDelete: false, vhost: '/' }, bindingVersion: '0.3.0' },
        },
      },
      operationBindings: { amqp: { deliveryMode: 2, mandatory: true, timestamp: true, bindingVersion: '0.3.0' } },
      operationDescription: 'One persistent message per event, confirmed by the broker before the receiver counts it delivered.',
    },
    {
      key: 'nats',
      server: { host: 'nats.internal:4222', protocol: 'nats', description: 'QUEUE_URL=nats://nats.internal:4222 (or nats://user:password@host, nats://TOKEN@host)' },
      channel: {
        address: '{queueName}.{type}',
        title: 'NATS JetStream subject',
        description: 'Published on `<QUEUE_NAME>.<type>` to the JetStream stream QUEUE_NAME (subjects `<QUEUE_NAME>.>`, file storage, created when missing). Header `Nats-Msg-Id` = event id: the stream drops a copy within its duplicate window; with tracing on, headers `traceparent` and `tracestate`. Delivered on the PubAck.',
        parameters: { queueName, type },
      },
      operationDescription: 'One JetStream publish per event, with Nats-Msg-Id = event id.',
    },
    {
      key: 'redis',
      server: { host: 'redis.internal:6379', pathname: '/0', protocol: 'redis', description: 'QUEUE_URL=redis://:password@redis.internal:6379/0?maxlen=100000 (maxlen optional)' },
      channel: {
        address: '{queueName}',
        title: 'Redis stream',
        description: 'One `XADD <QUEUE_NAME> [MAXLEN ~ N] * id <event id> type <type> event <JSON> [traceparent <…> [tracestate <…>]]` per event: the payload is the `event` field; `id`, `type` and (with tracing on) the W3C trace context are fields beside it. Delivered on the XADD reply.',
        parameters: { queueName },
        'x-redis-stream-fields': {
          id: 'the event id (de-duplicate on it)',
          type: 'the event type',
          event: 'the event JSON (the message payload)',
          traceparent: "with tracing on: the W3C traceparent of the publish, in the notification's trace",
          tracestate: 'with tracing on, when there is one: the W3C tracestate',
        },
      },
      operationDescription: 'One XADD per event; a backlog is one pipeline of XADDs, in order.',
    },
    {
      key: 'http',
      server: { host: 'orders.internal', pathname: '/payment-events', protocol: 'https', description: 'QUEUE_URL=https://user:password@orders.internal/payment-events (user info becomes Basic auth; QUEUE_NAME is not used)' },
      channel: {
        address: null,
        title: 'HTTP POST',
        description: "POST of the event JSON to QUEUE_URL's path with `Content-Type: application/json` and `Idempotency-Key: <event id>` (with tracing on, also `traceparent` and `tracestate`). 2xx is delivery; 408, 429, 5xx, 3xx and network errors are retried in order; any other 4xx marks the event dead.",
      },
      operationBindings: { http: { method: 'POST', bindingVersion: '0.3.0' } },
      operationDescription: 'One POST per event, 10 s time-out.',
    },
    {
      key: 'file',
      server: { host: 'localhost', pathname: '/var/lib/noti-receiver/events.ndjson', protocol: 'file', description: 'QUEUE_URL=file:///var/lib/noti-receiver/events.ndjson (or file:./relative/path)' },
      channel: {
        address: null,
        title: 'File lines (NDJSON)',
        description: "One event JSON per line, delivered once its whole line is fdatasync'ed; a line may repeat (at least once), never be cut. With tracing on, the line's last members are `traceparent` and `tracestate` (the W3C trace context of the publish), after the event's own fields.",
        'x-file-line-trace-members': ['traceparent', 'tracestate'],
      },
      operationDescription: 'One line per event; a backlog is one write and one fdatasync.',
    },
  ];
}
