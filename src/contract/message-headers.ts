/**
 * The headers beside the payload. Only the transports with headers carry them: AMQP's
 * application headers, NATS headers, HTTP headers. Redis has fields beside the event instead,
 * and the file line trailing members (see transport-channels.ts).
 */
export const TRACEPARENT_EXAMPLE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

const traceHeaders = {
  traceparent: { type: 'string', pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$', description: "with tracing on: the W3C traceparent of the publish span, in the notification's trace", examples: [TRACEPARENT_EXAMPLE] },
  tracestate: { type: 'string', description: 'with tracing on: the W3C tracestate, when there is one' },
};

const string = (description: string, example?: string) => ({ type: 'string', description, ...(example ? { examples: [example] } : {}) });

export function messageHeaders(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      'Nats-Msg-Id': string('NATS only: the event id; JetStream drops a copy within its duplicate window', 'evt_0f1e2d3c4b5a69788796a5b4c3d2e1f0'),
      'Idempotency-Key': string('HTTP only: the event id', 'evt_0f1e2d3c4b5a69788796a5b4c3d2e1f0'),
      'Content-Type': string('NATS and HTTP: application/json', 'application/json'),
      ...traceHeaders,
    },
  };
}

export function httpHeaders(): Record<string, unknown> {
  return {
    type: 'object',
    required: ['Content-Type', 'Idempotency-Key'],
    properties: {
      'Content-Type': { type: 'string', const: 'application/json' },
      'Idempotency-Key': string('the event id: the endpoint must be idempotent on it'),
      Authorization: string('Basic, when QUEUE_URL has user info'),
      ...traceHeaders,
    },
  };
}
