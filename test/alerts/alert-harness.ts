import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { alertChannelsOf } from '../../src/alerts/alerts-from-config';
import { registerAlertMetrics } from '../../src/alerts/alert-metrics';
import { startAlerts, type Alerts, type AlertsOptions } from '../../src/alerts/alerts';
import { createApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config/env';
import { ledgerSettingsOf } from '../../src/config/ledger-env';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { simulatorKey } from '../../src/notifications/simulator-mark';
import { signerOf } from '../../src/simulator/simulator-signer';
import { DEV_GATEWAY_IP } from '../helpers/test-receiver';

type Mode = 'ok' | 'fail' | 'hang';

/** A chat server's incoming webhook: records each `{"text": …}` it took; answers as `mode` says. */
export interface WebhookReceiver {
  url: string;
  /** The texts it answered 200 to, in order. */
  texts: string[];
  /** Every request that arrived, answered or not. */
  requests: number;
  /** Requests held open now (mode `hang`). */
  hanging: number;
  mode: Mode;
  close(): Promise<void>;
}

export async function webhookReceiver(): Promise<WebhookReceiver> {
  const held: ServerResponse[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    texts: [],
    requests: 0,
    get hanging() {
      return held.filter((res) => !res.writableEnded && !res.destroyed && res.socket?.destroyed === false).length;
    },
    mode: 'ok',
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.requests += 1;
      if (receiver.mode === 'hang') return void held.push(res);
      if (receiver.mode === 'fail') return void res.writeHead(500).end('no');
      receiver.texts.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string }).text);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/T000/B000/XXXXsecretXXXX`;
  return receiver;
}

export interface Mail {
  /** The envelope's sender. */
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/** A real SMTP server (smtp-server) that keeps what it accepts; `refuse` messages are answered 451 first. */
export interface MailReceiver {
  url: string;
  mails: Mail[];
  refuse: number;
  close(): Promise<void>;
}

export async function mailReceiver(): Promise<MailReceiver> {
  const receiver: MailReceiver = { url: '', mails: [], refuse: 0, close: async () => new Promise<void>((resolve) => server.close(() => resolve())) };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    // A local test server: the password goes in clear, as on a relay inside the shop's network.
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'alerts' && auth.password === 'p4ssw0rd') return callback(null, { user: auth.username });
      callback(new Error('invalid credentials'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (receiver.refuse > 0) {
          receiver.refuse -= 1;
          return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
        }
        const { mailFrom } = session.envelope;
        receiver.mails.push({ from: mailFrom ? mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), ...readMail(Buffer.concat(chunks).toString('latin1')) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `smtp://alerts:p4ssw0rd@127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return receiver;
}

/** Subject and text of the simple mail nodemailer writes (one text part; RFC 2047 subject; base64 or quoted-printable). */
function readMail(raw: string): { subject: string; text: string } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const headers = head!.replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(headers)?.[1] ?? '';
  const subject = header('Subject').replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replace(/_/g, ' ')));
  const body = rest.join('\r\n\r\n');
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : encoding === 'quoted-printable' ? quotedPrintable(body.replace(/=\r\n/g, '')) : Buffer.from(body, 'latin1').toString('utf8');
  return { subject, text: text.replace(/\r\n/g, '\n').trimEnd() };
}

function quotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(text.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}

export interface AlertService {
  stores: Stores;
  config: Config;
  databaseUrl: string;
  metrics: ReturnType<typeof createMetrics>;
  notify(body: unknown): request.Test;
  /** The same, signed as this receiver's own simulator signs it. */
  notifySimulated(body: unknown): request.Test;
  /** Starts (again) the alerts over the same store, as a restarted service does. */
  startAlerts(): Alerts;
  alerts: Alerts | null;
  /** Stops the alerts and closes the store, then opens both again: a restart. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The notification listener (supertest's listener), the store with its ledger projector, and the
 * alerts as main.ts starts them from the settings, with test-sized timers.
 */
/** The secret the receiver keys its simulator's mark with here (main.ts: its API_TOKEN or ADMIN_TOKEN). */
const SIMULATOR_SECRET = 'alert-test-simulator-secret-5c1e9a7f';

export async function openAlertService(options: { databaseUrl?: string; env: Record<string, string>; alerts?: Partial<AlertsOptions> }): Promise<AlertService> {
  const dir = mkdtempSync(join(tmpdir(), 'noti-alerts-'));
  const config = loadConfig({
    TRUST_PROXY: '127.0.0.1,::1',
    DATABASE_URL: options.databaseUrl ?? `sqlite:${join(dir, 'receiver.db')}`,
    QUEUE_URL: `file:${join(dir, 'events.ndjson')}`,
    ...options.env,
  });
  const logger = process.env.ALERT_TEST_LOG ? createLogger({ level: 'debug' }) : createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) });
  const metrics = createMetrics();
  const open = () => openStores(config.DATABASE_URL, { ledger: ledgerSettingsOf(config), projector: { pollMs: 20 } });
  let stores = await open();
  let app = createApp({ config, store: stores.store, logger, metrics, simulatorKeys: [simulatorKey(SIMULATOR_SECRET)] });
  const sign = signerOf(SIMULATOR_SECRET);
  const alertMetrics = registerAlertMetrics(metrics, () => service.stores.store.alertChannels());
  const service: AlertService = {
    stores,
    config,
    databaseUrl: config.DATABASE_URL,
    metrics,
    alerts: null,
    notify: (body) => request(app).post(config.NOTIFY_PATH).set('X-Forwarded-For', DEV_GATEWAY_IP).set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify(body)),
    notifySimulated: (body) => {
      const raw = JSON.stringify(body);
      return request(app).post(config.NOTIFY_PATH).set('X-Forwarded-For', DEV_GATEWAY_IP).set('Content-Type', 'application/json; charset=utf-8').set(sign(Buffer.from(raw, 'utf8'))).send(raw);
    },
    startAlerts() {
      service.alerts = startAlerts({
        store: service.stores.store,
        channels: alertChannelsOf(config),
        logger,
        metrics: alertMetrics,
        message: { language: config.ALERT_LANGUAGE, publicUrl: config.ADMIN_PUBLIC_URL ?? null, defaultCurrency: config.LEDGER_DEFAULT_CURRENCY },
        pollMs: 20,
        backoff: { baseMs: 20, maxMs: 100 },
        ...options.alerts,
      });
      return service.alerts;
    },
    async restart() {
      await service.alerts?.stop();
      await service.stores.store.close();
      stores = await open();
      service.stores = stores;
      app = createApp({ config, store: stores.store, logger, metrics, simulatorKeys: [simulatorKey(SIMULATOR_SECRET)] });
      service.startAlerts();
    },
    async close() {
      await service.alerts?.stop();
      await service.stores.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  service.startAlerts();
  return service;
}
