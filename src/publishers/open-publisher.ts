import { openFilePublisher } from './file-publisher';
import type { Publisher } from './publisher';

export interface PublisherOptions {
  /** The raw `QUEUE_URL`: kept as text because WHATWG URL parsing loses relative `file:` paths. */
  url: string;
  queueName: string;
}

type Opener = (options: PublisherOptions) => Promise<Publisher>;

/** One opener per `QUEUE_URL` scheme; the relay never knows which one it talks to. */
const OPENERS: Record<string, Opener> = {
  file: async ({ url }) => openFilePublisher(filePath(url)),
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
