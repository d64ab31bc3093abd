import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { createBoundedServer } from '../http/bounded-server';
import { GATEWAY_MAX_TRIES, GATEWAY_RETRY_INTERVAL_MS } from '../simulator/run-simulation';
import { gatewayRoutes } from './gateway-routes';
import { homePage } from './home-page';
import { createGatewayBooks } from './gateway-books';
import { createLedger } from './ledger';
import { createNotificationSender, type DeliverySchedule } from './notification-sender';
import { paymentPages } from './payment-page';
import { portalRoutes } from './portal-routes';
import type { SandboxContext, SandboxSettings } from './sandbox-context';
import { sameOriginPosts } from './same-origin-posts';
import { createScenarioBook } from './scenarios';
import { timelinePage } from './timeline-page';
import { createTimeline } from './timeline';

export interface SandboxOptions extends Partial<SandboxSettings> {
  schedule?: Partial<DeliverySchedule>;
}

export interface Sandbox {
  app: Express;
  context: SandboxContext;
  close(): void;
}

/** The gateway's services the internal API calls, plus its notification sender, built in memory; `startSandbox` listens. */
function createSandbox(options: SandboxOptions = {}): Sandbox {
  const timeline = createTimeline();
  const schedule: DeliverySchedule = {
    intervalMs: options.schedule?.intervalMs ?? GATEWAY_RETRY_INTERVAL_MS,
    maxTries: options.schedule?.maxTries ?? GATEWAY_MAX_TRIES,
    timeoutMs: options.schedule?.timeoutMs ?? 10_000,
  };
  const context: SandboxContext = {
    settings: {
      publicUrl: options.publicUrl ?? 'http://127.0.0.1:8090',
      defaultNotifyUrl: options.defaultNotifyUrl ?? null,
      secretKeyFor: options.secretKeyFor ?? (() => undefined),
    },
    ledger: createLedger(),
    books: createGatewayBooks(),
    timeline,
    scenarios: createScenarioBook(),
    sender: createNotificationSender(schedule, timeline),
  };
  const gateway = gatewayRoutes(context);
  const app = express();
  app.disable('x-powered-by');
  app.use(sameOriginPosts(() => context.settings.publicUrl));
  app.use(gateway.router, paymentPages(context), portalRoutes(context), timelinePage(context), homePage(context));
  app.use((_req, res) => res.status(404).json({ resCd: 'E404', resMsg: 'no such sandbox path' }));
  // A body that is not JSON gets an answer in the gateway's shape, not Express's HTML error page.
  app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(error.status && error.status < 500 ? error.status : 500).json({ resCd: 'E101', resMsg: '요청 형식 오류', resDetailMsg: encodeURIComponent(error.message) });
  });
  return {
    app,
    context,
    close() {
      context.sender.close();
      gateway.releaseHeld();
    },
  };
}

export interface RunningSandbox extends Sandbox {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions & { port?: number; host?: string } = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const sandbox = createSandbox(options);
  // Its held answers (the `timeout` scenario) are not cut: the time-outs bound receiving a request, not answering it.
  const server = createBoundedServer(sandbox.app).listen(options.port ?? 0, host);
  await once(server, 'listening');
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  if (!options.publicUrl) sandbox.context.settings.publicUrl = url;
  return {
    ...sandbox,
    url,
    server,
    async stop() {
      sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
