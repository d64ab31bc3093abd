import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { deploymentAsyncApiDocument } from '../../src/contract/deployment-asyncapi';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';

const GENERIC = JSON.parse(readFileSync(join(__dirname, '..', '..', 'docs', 'asyncapi.json'), 'utf8')) as Record<string, Record<string, unknown>>;
/** Secrets planted in the URLs below: none may reach the document. */
const SECRETS = ['s3cr3t-pass', 'n4ts-t0ken', 'r3dis-pass', 'h00k-pass', 'qs-secret-123', 'svc-user', 'hook-user'];

type Doc = {
  info: { description: string };
  servers: Record<string, Record<string, unknown>>;
  channels: Record<string, Record<string, unknown> & { bindings?: { amqp: { exchange: Record<string, unknown> } } }>;
  operations: Record<string, unknown>;
  components: unknown;
};

const CASES: Array<{ what: string; url: string; name: string; key: string; server: Record<string, unknown>; channel: Record<string, unknown> }> = [
  {
    what: 'RabbitMQ over TLS with a vhost and connection options',
    url: 'amqps://svc-user:s3cr3t-pass@mq.shop.example:5671/payments%2Fprod?heartbeat=30&frameMax=0',
    name: 'shop-events',
    key: 'amqp',
    server: { host: 'mq.shop.example:5671', pathname: '/payments%2Fprod', protocol: 'amqps' },
    channel: { address: '{type}', bindings: { amqp: expect.objectContaining({ exchange: expect.objectContaining({ name: 'shop-events', vhost: 'payments/prod', type: 'topic' }) }) } },
  },
  {
    what: 'RabbitMQ on its default port and vhost',
    url: 'amqp://svc-user:s3cr3t-pass@rabbit-a.shop.example',
    name: 'payments-live',
    key: 'amqp',
    server: { host: 'rabbit-a.shop.example:5672', protocol: 'amqp' },
    channel: { bindings: { amqp: expect.objectContaining({ exchange: expect.objectContaining({ name: 'payments-live', vhost: '/' }) }) } },
  },
  {
    what: 'NATS with a token',
    url: 'nats://n4ts-t0ken@nats.shop.example',
    name: 'orders',
    key: 'nats',
    server: { host: 'nats.shop.example:4222', protocol: 'nats' },
    channel: { address: 'orders.{type}', parameters: { type: expect.objectContaining({ examples: ['payment.approved'] }) } },
  },
  {
    what: 'a Redis stream over TLS with a password and maxlen',
    url: 'rediss://:r3dis-pass@cache.shop.example:6380/2?maxlen=5000',
    name: 'payments-stream',
    key: 'redis',
    server: { host: 'cache.shop.example:6380', pathname: '/2', protocol: 'rediss' },
    channel: { address: 'payments-stream', description: expect.stringContaining('MAXLEN ~ 5000') },
  },
  {
    what: 'an HTTP endpoint with Basic credentials and a token in its query',
    url: 'https://hook-user:h00k-pass@orders.shop.example:8443/in/payments?token=qs-secret-123',
    name: 'unused-by-http',
    key: 'http',
    server: { host: 'orders.shop.example:8443', pathname: '/in/payments', protocol: 'https' },
    channel: { address: null, description: expect.stringContaining('POST to https://orders.shop.example:8443/in/payments') },
  },
  {
    what: 'a relative file',
    url: 'file:./data/shop-events.ndjson',
    name: 'payment-notifications',
    key: 'file',
    server: { host: 'localhost', pathname: resolve('data/shop-events.ndjson'), protocol: 'file' },
    channel: { address: null },
  },
];

describe("the deployment's AsyncAPI document (GET /v1/asyncapi.json)", () => {
  it.each(CASES)("with $what: this deployment's one server and channel, as configured, without a credential", async ({ url, name, key, server, channel }) => {
    const doc = deploymentAsyncApiDocument({ url, name }) as unknown as Doc;
    expect(Object.keys(doc.servers)).toEqual([key]);
    expect(Object.keys(doc.channels)).toEqual([key]);
    expect(Object.keys(doc.operations)).toHaveLength(1);
    expect(doc.servers[key]).toMatchObject(server);
    expect(doc.servers[key]!.pathname).toBe(server.pathname);
    expect(doc.channels[key]).toMatchObject(channel);
    // The events themselves are the documented ones.
    expect(doc.components).toEqual(GENERIC.components);

    const text = JSON.stringify(doc);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).not.toContain('heartbeat');
    // Nothing of the docs file's example deployment.
    expect(text).not.toMatch(/rabbit\.internal|nats\.internal|redis\.internal|orders\.internal|\/var\/lib\/noti-receiver/);
    if (name !== 'payment-notifications') expect(text).not.toContain('"payment-notifications"');

    const { diagnostics } = await new Parser().parse(text);
    const problems = new Set([DiagnosticSeverity.Error, DiagnosticSeverity.Warning]);
    expect(diagnostics.filter((d) => problems.has(d.severity)).map((d) => `${d.code} ${d.path.join('.')}: ${d.message}`)).toEqual([]);
  }, 30_000);

  describe('served by the running service', () => {
    let dir: string;
    let receiver: SpawnedReceiver | null = null;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'noti-asyncapi-'));
    });
    afterAll(() => {
      receiver?.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    it("names its own exchange and broker, with QUEUE_NAME set, never the docs file's", async () => {
      const token = 'asyncapi-test-token-0123456789';
      // A broker that is not there: the service starts and serves its documents all the same.
      receiver = await spawnReceiver(dir, { API_TOKEN: token, QUEUE_URL: 'amqp://svc-user:s3cr3t-pass@127.0.0.1:1/shop', QUEUE_NAME: 'shop-payments' });
      const answer = await fetch(`http://127.0.0.1:${receiver.apiPort}/v1/asyncapi.json`, { headers: { Authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(200);
      const doc = (await answer.json()) as Doc;
      expect(doc.servers).toEqual({ amqp: expect.objectContaining({ host: '127.0.0.1:1', pathname: '/shop', protocol: 'amqp' }) });
      expect(doc.channels.amqp!.bindings!.amqp.exchange).toMatchObject({ name: 'shop-payments', vhost: 'shop' });
      expect(JSON.stringify(doc)).not.toMatch(/s3cr3t-pass|svc-user|rabbit\.internal/);
    }, 30_000);
  });
});
