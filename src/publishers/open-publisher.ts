import type { Logger } from '../observability/logger';
import { openAmqpPublisher } from './amqp-publisher';
import { openFilePublisher } from './file-publisher';
import { openHttpPublisher } from './http-publisher';
import { openNatsPublisher } from './nats-publisher';
import type { Publisher } from './publisher';
import { openRedisPublisher } from './redis-publisher';

export interface PublisherOptions {
  /** The raw `QUEUE_URL`: kept as text because WHATWG URL parsing loses relative `file:` paths. */
  url: string;
  queueName: string;
  /** Connection losses and recoveries are logged here; credentials never are. */
  logger?: Logger;
}

type Opener = (options: PublisherOptions) => Promise<Publisher>;

/**
 * One opener per `QUEUE_URL` scheme; the relay never knows which one it talks to. Broker
 * openers resolve even while the broker is down: the receiver must start and keep acking.
 */
const OPENERS: Record<string, Opener> = {
  file: async ({ url }) => openFilePublisher(filePath(url)),
  amqp: async ({ url, queueName, logger }) => openAmqpPublisher({ url, exchange: queueName, logger }),
  amqps: async ({ url, queueName, logger }) => openAmqpPublisher({ url, exchange: queueName, logger }),
  nats: async ({ url, queueName, logger }) => openNatsPublisher({ url, queueName, logger }),
  redis: async ({ url, queueName, logger }) => openRedisPublisher({ url, queueName, logger }),
  rediss: async ({ url, queueName, logger }) => openRedisPublisher({ url, queueName, logger }),
  http: async ({ url }) => openHttpPublisher({ url }),
  https: async ({ url }) => openHttpPublisher({ url }),
};

export const SUPPORTED_QUEUE_SCHEMES = Object.keys(OPENERS);

export function queueScheme(url: string): string | null {
  return /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase() ?? null;
}

export async function openPublisher(options: PublisherOptions): Promise<Publisher> {
  const scheme = queueScheme(options.url);
  const opener = scheme ? OPENERS[scheme] : undefined;
  if (!opener) throw new Error(`unsupported QUEUE_URL scheme ${scheme ?? '(none)'}`);
  return opener(options);
}

/** `file:./data/x.ndjson` is relative to the working directory; `file:///abs/x` is absolute. */
export function filePath(url: string): string {
  const rest = url.replace(/^file:/i, '');
  return rest.startsWith('//') ? decodeURIComponent(new URL(url).pathname) : decodeURIComponent(rest);
}
