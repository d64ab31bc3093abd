import {
  connect,
  Events,
  headers,
  StorageType,
  type ConnectionOptions,
  type JetStreamClient,
  type NatsConnection,
} from 'nats';
import type { Logger } from '../observability/logger';
import { ConnectionKeeper } from './connection-keeper';
import type { OutboundEvent, Publisher } from './publisher';
import { redactUrl } from '../observability/redact-url';

export interface NatsPublisherOptions {
  url: string;
  /** Subject prefix: events go to `<queueName>.<type>`; the stream is named `<queueName>`. */
  queueName: string;
  logger?: Logger;
  connectTimeoutMs?: number;
  /** How long to wait for the stream's PubAck before the relay retries. */
  ackTimeoutMs?: number;
}

interface NatsLink {
  nc: NatsConnection;
  js: JetStreamClient;
}

/**
 * NATS JetStream: `publish` resolves only on the stream's PubAck. Each message carries
 * `Nats-Msg-Id` = event id, so when the relay retries an event whose ack was lost, the
 * stream's duplicate window drops the copy and consumers see it once. A batch is published
 * without waiting in between, then every PubAck is awaited together.
 */
export async function openNatsPublisher(options: NatsPublisherOptions): Promise<Publisher> {
  const { queueName, logger } = options;
  assertSubjectPrefix(queueName);
  // QUEUE_NAME allows only letters, digits, - and _ (config/env.ts), so it is a valid stream name as it is.
  const stream = queueName;
  const target = `${redactUrl(options.url)} stream ${stream}`;
  const ackTimeoutMs = options.ackTimeoutMs ?? 5_000;
  // nats.js reconnects by itself once connected; this only tracks the gaps for status and fail-fast.
  let disconnected = false;
  let streamReady = false;

  const keeper = new ConnectionKeeper<NatsLink>({
    target,
    logger,
    async connect(lost) {
      const nc = await connect({
        ...connectionOptions(options.url),
        timeout: options.connectTimeoutMs ?? 5_000,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
      });
      disconnected = false;
      watchStatus(nc);
      // Only a fatal error (e.g. bad credentials) or our own close ends a connection for good.
      void nc.closed().then((error) => lost(error ?? new Error('connection closed')));
      try {
        await ensureStream(nc);
        return { nc, js: nc.jetstream() };
      } catch (error) {
        await nc.close().catch(() => undefined);
        throw error;
      }
    },
    async disconnect({ nc }) {
      await nc.drain().catch(() => nc.close());
    },
  });
  keeper.start();

  function watchStatus(nc: NatsConnection): void {
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === Events.Disconnect) {
          disconnected = true;
          logger?.warn('queue connection lost; reconnecting', { queue: target });
        } else if (status.type === Events.Reconnect) {
          disconnected = false;
          keeper.announceReconnected();
        }
      }
    })().catch(() => undefined);
  }

  async function ensureStream(nc: NatsConnection): Promise<void> {
    const jsm = await nc.jetstreamManager();
    try {
      await jsm.streams.info(stream);
    } catch (error) {
      if (!/stream not found/i.test((error as Error).message)) throw error;
      // File storage: the backlog handed to NATS must survive a nats-server restart too.
      await jsm.streams.add({ name: stream, subjects: [`${queueName}.>`], storage: StorageType.File });
      logger?.info('created JetStream stream', { stream, subjects: `${queueName}.>` });
    }
    streamReady = true;
  }

  async function publishAll(events: readonly OutboundEvent[]): Promise<void> {
    const { nc, js } = await keeper.get();
    // While nats.js reconnects it would buffer the publish and we would only learn on the ack timeout.
    if (disconnected) throw new Error(`${target}: disconnected, reconnecting`);
    if (!streamReady) await ensureStream(nc);
    const acks = events.map((event) => {
      // One headers object per message: nats.js writes the message id into it.
      const h = headers();
      h.set('Content-Type', 'application/json');
      if (event.trace) {
        h.set('traceparent', event.trace.traceparent);
        if (event.trace.tracestate) h.set('tracestate', event.trace.tracestate);
      }
      return js.publish(`${queueName}.${event.type}`, event.json, { msgID: event.id, headers: h, timeout: ackTimeoutMs });
    });
    const outcomes = await Promise.allSettled(acks);
    const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (!failure) return;
    // 503 "no responders": the stream was deleted under us; recreate it before the retry.
    if (/503|no responders/i.test((failure.reason as Error).message)) streamReady = false;
    throw failure.reason;
  }

  return {
    kind: 'nats',
    publish: (event: OutboundEvent) => publishAll([event]),
    publishBatch: publishAll,
    status() {
      const status = keeper.status();
      return disconnected ? { connected: false, detail: `${target}: disconnected, reconnecting` } : status;
    },
    onReconnected: (listener) => keeper.onReconnected(listener),
    close: () => keeper.close(),
  };
}

function connectionOptions(raw: string): ConnectionOptions {
  const url = new URL(raw);
  const server = url.port ? url.host : `${url.host}:4222`;
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  if (user && pass) return { servers: server, user, pass };
  // `nats://TOKEN@host` is how NATS tools spell a token.
  if (user) return { servers: server, token: user };
  return { servers: server };
}

function assertSubjectPrefix(queueName: string): void {
  if (!/^[^\s.*>]+(\.[^\s.*>]+)*$/.test(queueName)) {
    throw new Error(`QUEUE_NAME ${JSON.stringify(queueName)} is not a valid NATS subject prefix: use dot-separated tokens without spaces, '*' or '>'`);
  }
}
