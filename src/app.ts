import express, { type Express } from 'express';
import type { Config } from './config/env';
import { ackFormFor, sendFailure } from './http/acks';
import { errorHandler } from './http/error-handler';
import { notificationRoute } from './http/notification-route';
import type { Logger } from './observability/logger';
import type { Metrics } from './observability/metrics';
import type { Store } from './store/store';

export interface AppDeps {
  config: Pick<Config, 'NOTIFY_PATH' | 'GATEWAY_ENV' | 'EXTRA_ALLOWED_IPS' | 'TRUST_PROXY' | 'MALL_IDS'>;
  store: Store;
  logger: Logger;
  metrics: Metrics;
}

/** The notification listener's app. It holds no listener itself: main.ts and tests decide where it runs. */
export function createApp(deps: AppDeps): Express {
  const { config, store, logger, metrics } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  app.use((req, res, next) => {
    res.locals.receivedAt = new Date().toISOString();
    const stop = metrics.ackLatency.startTimer();
    res.on('finish', () => stop({ status: String(res.statusCode) }));
    next();
  });

  app.use(
    notificationRoute(
      config.NOTIFY_PATH,
      { gatewayEnv: config.GATEWAY_ENV, extraAllowed: config.EXTRA_ALLOWED_IPS, trustProxy: config.TRUST_PROXY },
      { store, logger, metrics, mallIds: config.MALL_IDS },
    ),
  );

  app.all(config.NOTIFY_PATH, (req, res) => {
    res.setHeader('Allow', 'POST');
    sendFailure(res, ackFormFor(req.headers['content-type']), 405, 'use POST');
  });
  app.use((req, res) => sendFailure(res, ackFormFor(req.headers['content-type']), 404, 'not found'));
  app.use(errorHandler({ store, logger, metrics }));
  return app;
}
