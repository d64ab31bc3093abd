import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import request from 'supertest';
import type { Express } from 'express';
import { createApiApp } from '../../src/api/api-app';
import { commandDeps } from '../../src/api/start-internal-api';
import { loadConfig } from '../../src/config/env';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { tracingOver } from '../../src/tracing/tracing';
import { eventually } from '../helpers/eventually';

const API_TOKEN = 'test-api-token-0123456789abcdef';
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const CALLER_HEADERS = { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`, tracestate: 'merchant=caller-state' };
const CARD = '4111111111111111';

/** The internal API's server spans, over the SDK's own in-memory exporter. */
describe('the span of an internal API request', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracing = tracingOver(provider.getTracer('test'), provider);
  let dir: string;
  let stores: Stores;
  let app: Express;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-api-span-'));
    const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`, QUEUE_URL: `file:${join(dir, 'events.ndjson')}`, API_TOKEN });
    const logger = createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) });
    stores = await openStores(config.DATABASE_URL);
    const deps = commandDeps({ config, commands: stores.commands, ledger: stores.ledger, storeKind: stores.kind, logger, metrics: createMetrics(), tracing });
    app = createApiApp({ commands: deps, apiToken: API_TOKEN, ledger: stores.ledger });
  });
  afterEach(() => exporter.reset());
  afterAll(async () => {
    await stores.store.close();
    await provider.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The one server span of the request just made (ended when its answer was sent). */
  const onlySpan = () => eventually(() => {
    const spans = exporter.getFinishedSpans();
    return spans.length === 1 ? spans[0] : undefined;
  }, 5_000, 'the request span');
  const everything = (span: ReadableSpan) => JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events });

  it("does not continue the caller's trace for a request without the token: answered 401, traced as a root of its own, without the caller's tracestate", async () => {
    await request(app).get('/v1/orders').set(CALLER_HEADERS).expect(401);
    const span = await onlySpan();
    expect(span.spanContext().traceId).not.toBe(CALLER_TRACE);
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().traceState).toBeUndefined();
    expect(span.attributes['http.response.status_code']).toBe(401);
  });

  it('does not continue it for a wrong token either', async () => {
    await request(app).get('/v1/orders').set(CALLER_HEADERS).set('Authorization', `Bearer ${API_TOKEN}x`).expect(401);
    const span = await onlySpan();
    expect(span.spanContext().traceId).not.toBe(CALLER_TRACE);
    expect(span.parentSpanContext).toBeUndefined();
  });

  it("continues the caller's trace and tracestate for a request with the token, named by its route", async () => {
    await request(app).get('/v1/orders').set(CALLER_HEADERS).set('Authorization', `Bearer ${API_TOKEN}`).expect(200);
    const span = await onlySpan();
    expect(span.parentSpanContext).toMatchObject({ traceId: CALLER_TRACE, spanId: CALLER_SPAN });
    expect(span.spanContext().traceState?.serialize()).toBe('merchant=caller-state');
    expect(span).toMatchObject({ name: 'GET /v1/orders', attributes: expect.objectContaining({ 'http.route': '/v1/orders', 'url.path': '/v1/orders' }) });
  });

  it.each([
    ['/v1/commands/', 'GET /v1/commands/:shopTransactionId'],
    ['/v1/orders/T0001234/', 'GET /v1/orders/:mallId/:shopOrderNo'],
  ])('names a span of %s<card number> by its route template and masks the card number in url.path', async (prefix, name) => {
    const writings = [
      [CARD, '411111******1111'],
      ['4111-1111-1111-1111', '4111-11**-****-1111'],
      ['4111%201111%201111%201111', '4111 11** **** 1111'],
      ['4111%2D1111%2D1111%2D1111', '4111-11**-****-1111'],
    ];
    for (const [written, masked] of writings) {
      await request(app).get(`${prefix}${written}`).set('Authorization', `Bearer ${API_TOKEN}`);
      const span = await onlySpan();
      exporter.reset();
      expect(span.name).toBe(name);
      expect(span.attributes['http.route']).toBe(name.slice('GET '.length));
      expect(span.attributes['url.path']).toBe(`${prefix}${masked}`);
      expect(everything(span)).not.toMatch(/4111\D{0,3}1111\D{0,3}1111\D{0,3}1111/);
    }
  });

  it('names the span of a refused request by its method alone, and masks its path too', async () => {
    await request(app).get(`/v1/commands/${CARD}`).expect(401);
    const span = await onlySpan();
    expect(span.name).toBe('GET');
    expect(span.attributes['http.route']).toBeUndefined();
    expect(span.attributes['url.path']).toBe('/v1/commands/411111******1111');
  });

  it('names the span of an unknown path by its method alone', async () => {
    await request(app).post(`/v1/nothing/${CARD}`).set('Authorization', `Bearer ${API_TOKEN}`).set('Content-Type', 'application/json').send('{}').expect(404);
    const span = await onlySpan();
    expect(span.name).toBe('POST');
    expect(everything(span)).not.toContain(CARD);
  });
});
