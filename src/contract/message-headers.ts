/**
 * The headers beside the payload. Only the transports with headers carry them: AMQP's
 * application headers, NATS headers, HTTP headers. Redis and the file sink have none.
 */
const string = (description: string, example?: string) => ({ type: 'string', description, ...(example ? { examples: [example] } : {}) });

export function messageHeaders(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      'Nats-Msg-Id': string('NATS only: the event id; JetStream drops a copy within its duplicate window', 'evt_0f1e2d3c4b5a69788796a5b4c3d2e1f0'),
      'Idempotency-Key': string('HTTP only: the event id', 'evt_0f1e2d3c4b5a69788796a5b4c3d2e1f0'),
      'Content-Type': string('NATS and HTTP: application/json', 'application/json'),
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
    },
  };
}
