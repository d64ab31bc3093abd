import amqp, { type ChannelModel, type ConfirmChannel, type Message } from 'amqplib';
import type { Logger } from '../observability/logger';
import { ConnectionKeeper } from './connection-keeper';
import type { OutboundEvent, Publisher } from './publisher';
import { redactUrl } from '../observability/redact-url';

export interface AmqpPublisherOptions {
  url: string;
  /** The durable topic exchange; consumers bind their own queues to it by routing key (the event `type`). */
  exchange: string;
  logger?: Logger;
  connectTimeoutMs?: number;
  /** A confirm that never comes (blocked broker, half-open socket) must not stall the relay forever. */
  confirmTimeoutMs?: number;
}

interface AmqpConnection {
  model: ChannelModel;
  channel: ConfirmChannel;
}

/**
 * RabbitMQ through a confirm channel: `publish` resolves only on the broker's ack, so the
 * relay marks a row delivered only once RabbitMQ has taken the persistent message. A nack,
 * a closed channel or a confirm timeout rejects, and the relay retries the same event.
 * A batch is published in order and then waits once, for every confirm together.
 */
export function openAmqpPublisher(options: AmqpPublisherOptions): Publisher {
  const { exchange, logger } = options;
  const target = `${redactUrl(options.url)} exchange ${exchange}`;
  const confirmTimeoutMs = options.confirmTimeoutMs ?? 10_000;

  const keeper = new ConnectionKeeper<AmqpConnection>({
    target,
    logger,
    async connect(lost) {
      const model = await amqp.connect(options.url, { timeout: options.connectTimeoutMs ?? 5_000 });
      // Without these listeners an 'error' event would crash the process on a broker restart.
      model.on('error', (error: Error) => lost(error));
      model.on('close', (error?: Error) => lost(error ?? new Error('connection closed')));
      try {
        const channel = await model.createConfirmChannel();
        channel.on('error', (error: Error) => lost(error));
        channel.on('close', () => lost(new Error('channel closed')));
        // Unroutable events are acked by RabbitMQ and then dropped: say so loudly instead of silently.
        channel.on('return', (message: Message) => {
          logger?.warn('event unroutable: no queue bound to the exchange for its routing key', {
            exchange, routingKey: message.fields.routingKey, eventId: message.properties.messageId,
          });
        });
        await channel.assertExchange(exchange, 'topic', { durable: true });
        return { model, channel };
      } catch (error) {
        await model.close().catch(() => undefined);
        throw error;
      }
    },
    async disconnect({ model }) {
      await model.close();
    },
  });
  keeper.start();

  async function publishAll(events: readonly OutboundEvent[]): Promise<void> {
    const connection = await keeper.get();
    await confirmPublish(connection.channel, exchange, events, confirmTimeoutMs).catch((error: Error) => {
      if (error instanceof ConfirmTimeout) keeper.invalidate(connection, error);
      throw error;
    });
  }

  return {
    kind: 'amqp',
    publish: (event: OutboundEvent) => publishAll([event]),
    publishBatch: publishAll,
    status: () => keeper.status(),
    onReconnected: (listener) => keeper.onReconnected(listener),
    close: () => keeper.close(),
  };
}

class ConfirmTimeout extends Error {
  override readonly name = 'ConfirmTimeout';
}

/** Resolves once the broker confirmed every message; the first nack or the timeout rejects. */
function confirmPublish(channel: ConfirmChannel, exchange: string, events: readonly OutboundEvent[], timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let unconfirmed = events.length;
    let settled = false;
    const timer = setTimeout(() => settle(new ConfirmTimeout(`no publisher confirm within ${timeoutMs} ms`)), timeoutMs);
    function settle(error: unknown) {
      if (settled) return;
      if (!error && --unconfirmed > 0) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve();
    }
    try {
      for (const event of events) {
        // The return value is only a flow-control hint; the confirm callbacks are what we wait for.
        channel.publish(
          exchange,
          event.type,
          Buffer.from(event.json),
          {
            persistent: true,
            mandatory: true,
            messageId: event.id,
            contentType: 'application/json',
            contentEncoding: 'utf-8',
            type: event.type,
            timestamp: Math.floor(Date.parse(event.receivedAt) / 1000) || undefined,
            // W3C trace context as application headers, beside the body (tracing on only).
            ...(event.trace ? { headers: event.trace } : {}),
          },
          settle,
        );
      }
    } catch (error) {
      // amqplib throws synchronously when the channel is already closing.
      settle(error);
    }
  });
}
