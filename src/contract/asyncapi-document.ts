import { EVENT_KINDS, type EventKind } from './event-catalogue';
import { eventExamples, notificationExample } from './event-examples';
import { jsonSchemas } from './json-schemas';
import { transports } from './transport-channels';
import { httpHeaders, messageHeaders, TRACEPARENT_EXAMPLE } from './message-headers';
import { EVENT_TYPES, NOTI_TYPES } from '../notifications/event-types';

/** `payment.approved` → `paymentApproved`, `PaymentApproved`: message and schema names. */
export const messageName = (type: string): string => type.replace(/[._]([a-z])/g, (_, letter: string) => letter.toUpperCase());
const schemaName = (type: string): string => messageName(type).replace(/^[a-z]/, (letter) => letter.toUpperCase());

/**
 * The AsyncAPI 3.0 document of everything the relay publishes (docs/asyncapi.json,
 * GET /v1/asyncapi.json): built from the zod schemas the events are typed by, with examples the
 * service's own builders made. `npm run asyncapi` writes it; a test keeps the committed copy equal.
 */
export function asyncApiDocument(): Record<string, unknown> {
  const examples = examplesByType();
  const { schemas } = jsonSchemas(Object.fromEntries(EVENT_KINDS.map((kind) => [schemaName(kind.type), kind.schema])));
  for (const kind of EVENT_KINDS) withFileTraceMembers(schemas[schemaName(kind.type)] as { properties: Record<string, unknown> });
  const messages = Object.fromEntries(EVENT_KINDS.map((kind) => [messageName(kind.type), message(kind, examples[kind.type])]));
  const channelMessages = Object.fromEntries(EVENT_KINDS.map((kind) => [messageName(kind.type), { $ref: `#/components/messages/${messageName(kind.type)}` }]));
  const all = transports(EVENT_KINDS.map((kind) => kind.type));
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'payment-noti-receiver events',
      version: '1',
      description: [
        'Every event the receiver publishes to the queue named by QUEUE_URL (the scheme picks the transport) and QUEUE_NAME.',
        'Events leave in arrival order, at least once: consumers must be idempotent on the event `id` (also the AMQP messageId, the NATS `Nats-Msg-Id`, the Redis `id` field and the HTTP `Idempotency-Key`).',
        'A notification event carries the gateway\'s fields in `data`; the ledger\'s events (`order.*`, `ledger.*`) carry an order\'s figures; the command events (`wallet.*`, `van.*`) a command the internal API sent.',
      ].join(' '),
    },
    defaultContentType: 'application/json',
    servers: Object.fromEntries(all.map((t) => [t.key, t.server])),
    channels: Object.fromEntries(all.map((t) => [t.key, { ...t.channel, servers: [{ $ref: `#/servers/${t.key}` }], messages: channelMessages }])),
    operations: Object.fromEntries(all.map((t) => [`publishTo${t.key[0]!.toUpperCase()}${t.key.slice(1)}`, {
      action: 'send',
      channel: { $ref: `#/channels/${t.key}` },
      summary: `What the receiver sends over ${t.key}`,
      description: t.operationDescription,
      ...(t.operationBindings ? { bindings: t.operationBindings } : {}),
      messages: EVENT_KINDS.map((kind) => ({ $ref: `#/channels/${t.key}/messages/${messageName(kind.type)}` })),
    }])),
    components: { schemas, messages },
  };
}

function message(kind: EventKind, example: unknown): Record<string, unknown> {
  return {
    name: kind.type,
    title: kind.type,
    summary: kind.summary,
    contentType: 'application/json',
    headers: messageHeaders(),
    payload: { $ref: `#/components/schemas/${schemaName(kind.type)}` },
    correlationId: { description: 'the event id, also the message id on every transport', location: '$message.payload#/id' },
    bindings: {
      amqp: { contentEncoding: 'utf-8', messageType: kind.type, bindingVersion: '0.3.0' },
      http: { headers: httpHeaders(), bindingVersion: '0.3.0' },
    },
    examples: [{ name: messageName(kind.type), summary: `${kind.type}, as the service builds it`, payload: example }],
  };
}

/**
 * The file sink has no headers: with tracing on, its line carries the trace context as two
 * trailing members after the event's own fields. Declared, so a line still validates.
 */
function withFileTraceMembers(schema: { properties: Record<string, unknown> }): void {
  schema.properties.traceparent = { type: 'string', description: fileOnly('the W3C traceparent of the publish'), examples: [TRACEPARENT_EXAMPLE] };
  schema.properties.tracestate = { type: 'string', description: fileOnly('the W3C tracestate, when there is one') };
}

const fileOnly = (what: string) => `file sink lines only, with tracing on: ${what}; on the other transports it is a header or a field beside the event`;

function examplesByType(): Record<string, unknown> {
  return {
    ...Object.fromEntries(NOTI_TYPES.map((notiType) => [EVENT_TYPES[notiType], notificationExample(notiType)])),
    ...eventExamples(),
  };
}
