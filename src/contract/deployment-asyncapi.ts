import { resolve } from 'node:path';
import { redactUrl } from '../observability/redact-url';
import { queueScheme } from '../config/queue-url';
import { filePath } from '../publishers/open-publisher';
import { asyncApiDocument } from './asyncapi-document';
import type { Transport } from './transport-channels';

/** What a deployment publishes to: its QUEUE_URL (as configured, credentials and all) and QUEUE_NAME. */
export interface QueueSettings {
  url: string;
  name: string;
}

const KEYS: Record<string, Transport['key']> = { amqp: 'amqp', amqps: 'amqp', nats: 'nats', redis: 'redis', rediss: 'redis', http: 'http', https: 'http', file: 'file' };
const DEFAULT_PORTS: Record<string, string> = { amqp: '5672', amqps: '5671', nats: '4222', redis: '6379', rediss: '6379' };

type Doc = Record<string, unknown> & {
  info: Record<string, unknown>;
  servers: Record<string, Record<string, unknown>>;
  channels: Record<string, Record<string, unknown>>;
  operations: Record<string, Record<string, unknown>>;
};

/**
 * The AsyncAPI document of this deployment (GET /v1/asyncapi.json): the generic one
 * (docs/asyncapi.json) narrowed to the transport QUEUE_URL picks, with its server and its
 * exchange, subject or stream as configured, so a consumer's team reads where to bind. Never a
 * credential: the URL's user and password and its query (a token may ride there) are left out.
 */
export function deploymentAsyncApiDocument(queue: QueueSettings): Record<string, unknown> {
  const scheme = queueScheme(queue.url) ?? '';
  const key = KEYS[scheme];
  const generic = asyncApiDocument() as Doc;
  if (key === undefined) return generic;
  const operation = Object.keys(generic.operations).find((name) => (generic.operations[name]!.channel as { $ref: string }).$ref === `#/channels/${key}`)!;
  const channel = generic.channels[key]!;
  // The queue name is fixed here: a parameter for it would leave the reader to fill it in.
  const { parameters: _generic, ...rest } = generic.channels[key]!;
  return {
    ...generic,
    info: {
      ...generic.info,
      description: `${generic.info.description as string} This document describes this deployment: it publishes over ${key} (QUEUE_URL ${shownUrl(queue.url, scheme)}) with QUEUE_NAME ${queue.name}.`,
    },
    servers: { [key]: server(key, scheme, queue.url) },
    channels: { [key]: { ...rest, ...deployedChannel(key, channel, queue) } },
    operations: { [operation]: generic.operations[operation] },
  };
}

/** This deployment's server: where its QUEUE_URL points, never who it signs in as. */
function server(key: Transport['key'], scheme: string, raw: string): Record<string, unknown> {
  const description = `QUEUE_URL of this deployment, without credentials or query: ${shownUrl(raw, scheme)}`;
  if (key === 'file') return { host: 'localhost', pathname: resolve(filePath(raw)), protocol: 'file', description };
  const url = new URL(raw);
  const port = url.port || DEFAULT_PORTS[scheme];
  const host = port ? `${url.hostname}:${port}` : url.hostname;
  return { host, ...(url.pathname && url.pathname !== '/' ? { pathname: url.pathname } : {}), protocol: scheme, description };
}

/** The address and bindings that name this deployment's exchange, subject or stream. */
function deployedChannel(key: Transport['key'], channel: Record<string, unknown>, queue: QueueSettings): Record<string, unknown> {
  const { name } = queue;
  const parameters = channel.parameters as Record<string, unknown> | undefined;
  const typeOnly = parameters?.type ? { parameters: { type: parameters.type } } : {};
  const here = (what: string) => ({ description: `${channel.description as string} In this deployment: ${what}.` });
  switch (key) {
    case 'amqp': {
      const bindings = channel.bindings as { amqp: { exchange: Record<string, unknown> } };
      const path = new URL(queue.url).pathname.slice(1);
      const vhost = path ? decodeURIComponent(path) : '/';
      return {
        ...typeOnly,
        ...here(`the topic exchange \`${name}\` on vhost \`${vhost}\``),
        bindings: { amqp: { ...bindings.amqp, exchange: { ...bindings.amqp.exchange, name, vhost } } },
      };
    }
    case 'nats':
      return { address: `${name}.{type}`, ...typeOnly, ...here(`subjects \`${name}.<type>\` of the JetStream stream \`${name}\``) };
    case 'redis':
      return { address: name, ...here(`the stream \`${name}\`${maxLenOf(queue.url)}`) };
    case 'http':
      return here(`POST to ${shownUrl(queue.url, 'http')}`);
    case 'file':
      return here(`the file ${resolve(filePath(queue.url))}`);
  }
}

const maxLenOf = (raw: string) => {
  const maxLen = new URL(raw).searchParams.get('maxlen');
  return maxLen ? `, trimmed to about ${maxLen} entries (MAXLEN ~ ${maxLen})` : '';
};

/** The URL as a reader may see it: user info and query removed, as in logs; a file's path made absolute. */
const shownUrl = (raw: string, scheme: string): string => (scheme === 'file' ? `file:${resolve(filePath(raw))}` : redactUrl(raw));
