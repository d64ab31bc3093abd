import { queueScheme, schemeOf, type QueueScheme } from '../config/queue-url';
import type { Logger } from '../observability/logger';
import { openFilePublisher } from './file-publisher';
import type { Publisher } from './publisher';

export interface PublisherOptions {
  /** The raw `QUEUE_URL`: kept as text because WHATWG URL parsing loses relative `file:` paths. */
  url: string;
  queueName: string;
  /** Connection losses and recoveries are logged here; credentials never are. */
  logger?: Logger;
}

type Opener = (options: PublisherOptions) => Promise<Publisher>;

const amqp: Opener = async ({ url, queueName, logger }) =>
  (await import('./amqp-publisher')).openAmqpPublisher({ url, exchange: queueName, logger });
const nats: Opener = async ({ url, queueName, logger }) =>
  (await import('./nats-publisher')).openNatsPublisher({ url, queueName, logger });
const redis: Opener = async ({ url, queueName, logger }) =>
  (await import('./redis-publisher')).openRedisPublisher({ url, queueName, logger });
const http: Opener = async ({ url }) => (await import('./http-publisher')).openHttpPublisher({ url });

/**
 * One opener per `QUEUE_URL` scheme; the relay never knows which one it talks to. Broker
 * openers resolve even while the broker is down: the receiver must start and keep acking.
 * Broker clients are loaded only for the scheme in use, so they cost no memory otherwise.
 */
const OPENERS: Record<QueueScheme, Opener> = {
  file: async ({ url }) => openFilePublisher(filePath(url)),
  amqp,
  amqps: amqp,
  nats,
  redis,
  rediss: redis,
  http,
  https: http,
};

export async function openPublisher(options: PublisherOptions): Promise<Publisher> {
  const scheme = queueScheme(options.url);
  if (!scheme) throw new Error(`unsupported QUEUE_URL scheme ${schemeOf(options.url) ?? '(none)'}`);
  return OPENERS[scheme](options);
}

/** `file:./data/x.ndjson` is relative to the working directory; `file:///abs/x` is absolute. */
export function filePath(url: string): string {
  const rest = url.replace(/^file:/i, '');
  return rest.startsWith('//') ? decodeURIComponent(new URL(url).pathname) : decodeURIComponent(rest);
}
