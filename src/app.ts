import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import type { Config } from './config/env';
import { ackFormFor, sendFailure } from './http/acks';
import { errorHandler, failureAnswerer } from './http/error-handler';
import type { ListenerTimeouts } from './http/listener-timeouts';
import { createNotificationServer } from './http/notification-server';
import { notificationHandler, type NotificationHandler } from './http/notification-route';
import type { Logger } from './observability/logger';
import type { Metrics } from './observability/metrics';
import type { IngestStore } from './store/ingest-store';
import type { Tracing } from './tracing/tracing';

export interface AppDeps {
  config: Pick<Config, 'NOTIFY_PATH' | 'GATEWAY_ENV' | 'EXTRA_ALLOWED_IPS' | 'TRUST_PROXY' | 'MALL_IDS'>;
  store: IngestStore;
  logger: Logger;
  metrics: Metrics;
  /** Null or absent: tracing off (the default). */
  tracing?: Tracing | null;
  /**
   * The keys whose mark (simulator-mark.ts) says a notification came from this receiver's own
   * simulator; empty or absent: no notification is taken for a simulated one.
   */
  simulatorKeys?: readonly Buffer[];
}

/**
 * A request listener (what supertest and `http.createServer` take), with Express's `listen`
 * shape. `listen` runs it on the receiver's own server (time-outs, parser refusals, 100-continue);
 * tests may shorten the time-outs.
 */
export interface NotificationApp extends RequestListener {
  listen(port?: number, host?: string, timeouts?: ListenerTimeouts): Server;
}

/**
 * The notification listener's app. It holds no listener itself: main.ts and tests decide
 * where it runs. The gateway's POST to the notification path, the one hot route, goes
 * straight to its handler; everything else (other methods, other paths) goes through Express.
 */
export function createApp(deps: AppDeps): NotificationApp {
  const { config, store, logger, metrics } = deps;
  const answerFailure = failureAnswerer({ store, logger, metrics });
  const receive = notificationHandler(
    { gatewayEnv: config.GATEWAY_ENV, extraAllowed: config.EXTRA_ALLOWED_IPS, trustProxy: config.TRUST_PROXY },
    { store, logger, metrics, mallIds: config.MALL_IDS, tracing: deps.tracing ?? null },
    answerFailure,
    config.NOTIFY_PATH,
    deps.simulatorKeys ?? [],
  );
  const fallback = expressApp(config.NOTIFY_PATH, receive, metrics);
  fallback.use(errorHandler(answerFailure));

  const hotUrl = config.NOTIFY_PATH;
  const app = ((req: IncomingMessage, res: ServerResponse) => {
    // Only the exact path; its variants (a query, a trailing slash, other case) reach the
    // same handler through Express's router, so the fast dispatch never changes an answer.
    if (req.method === 'POST' && req.url === hotUrl) void receive(req, res);
    else fallback(req, res);
  }) as NotificationApp;
  app.listen = (port, host, timeouts) => createNotificationServer(app, logger, timeouts).listen(port, host);
  return app;
}

function expressApp(path: string, receive: NotificationHandler, metrics: Metrics): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  // Before the timing middleware: the handler times itself, as on the fast dispatch.
  app.post(path, (req, res) => receive(req, res));
  app.use((_req, res, next) => {
    res.locals.receivedAt = new Date().toISOString();
    const stop = metrics.ackLatency.startTimer();
    res.on('finish', () => stop({ status: String(res.statusCode) }));
    next();
  });
  // OPTIONS too: the path takes one method, and every answer is in the gateway's form.
  app.all(path, (req, res) => {
    res.setHeader('Allow', 'POST');
    sendFailure(res, ackFormFor(req.headers['content-type']), 405, 'use POST');
  });
  app.use((req, res) => sendFailure(res, ackFormFor(req.headers['content-type']), 404, 'not found'));
  return app;
}
