/**
 * The QUEUE_URL schemes, one per publisher: the configuration refuses any other, and
 * publishers/open-publisher.ts keeps one opener per scheme named here.
 */
export const QUEUE_SCHEMES = ['file', 'amqp', 'amqps', 'nats', 'redis', 'rediss', 'http', 'https'] as const;

export type QueueScheme = (typeof QUEUE_SCHEMES)[number];

/** The scheme `url` starts with, lower-cased, known or not. */
export function schemeOf(url: string): string | null {
  return /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase() ?? null;
}

/** The publisher's scheme `url` names, or null when no publisher has it. */
export function queueScheme(url: string): QueueScheme | null {
  const scheme = schemeOf(url);
  return (QUEUE_SCHEMES as readonly (string | null)[]).includes(scheme) ? (scheme as QueueScheme) : null;
}
