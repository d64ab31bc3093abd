import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { approvalNotification, changeNotification } from '../../src/simulator/notification-builders';
import { contractProblems } from '../helpers/event-contract';
import { eventually } from '../helpers/eventually';
import { startEndpoint } from '../publishers/http-endpoint';
import { createTestSchema, TEST_POSTGRES_URL, type TestSchema } from '../store/pg-test-database';
import { startOtlpCollector, type CollectedSpan } from './otlp-collector';
import { startTracedReceiver, type TracedReceiver } from './traced-receiver';

const INTERNAL = 1;
const SERVER = 2;
const PRODUCER = 4;
const traceparentOf = (span: CollectedSpan) => `00-${span.traceId}-${span.spanId}-01`;

describe('OpenTelemetry traces of a notification, exported over OTLP/HTTP to a collector', () => {
  let collector: Awaited<ReturnType<typeof startOtlpCollector>>;
  let receiver: TracedReceiver | null = null;
  beforeEach(async () => {
    collector = await startOtlpCollector();
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
    await collector.close();
  });

  async function spansWhere(test: (spans: CollectedSpan[]) => boolean, what: string): Promise<CollectedSpan[]> {
    return eventually(() => (test(collector.spans) ? collector.spans : undefined), 15_000, what);
  }

  it('a POST is a server span (event code, outcome, event id, commit batch), and its publish a producer span in its trace whose context the file line carries', async () => {
    receiver = await startTracedReceiver(collector.url, { QUEUE_URL: 'file:./events.ndjson' });
    const sink = join(receiver.dir, 'events.ndjson');
    const body = approvalNotification();
    expect(await receiver.post(body)).toBe(200);
    expect(await receiver.post(body)).toBe(200);
    expect(await receiver.post({ ...body, notiType: '99' })).toBe(400);
    const line = await eventually(() => (existsSync(sink) ? readFileSync(sink, 'utf8').split('\n').filter(Boolean)[0] : undefined), 10_000, 'the event line');

    const spans = await spansWhere((all) => all.filter((s) => s.kind === SERVER).length >= 3 && all.some((s) => s.kind === PRODUCER && s.name === 'send payment.approved'), 'three server spans and the approval\'s producer span');
    const [accepted, duplicate, rejected] = spans.filter((s) => s.kind === SERVER);
    const event = JSON.parse(line) as Record<string, unknown>;
    expect(accepted!.attributes).toMatchObject({ 'noti.type': '10', 'noti.outcome': 'accepted', 'noti.event_id': event.id, 'noti.commit.batch_size': 1, 'http.response.status_code': 200 });
    expect(duplicate!.attributes).toMatchObject({ 'noti.type': '10', 'noti.outcome': 'duplicate', 'noti.event_id': event.id });
    expect(rejected!.attributes).toMatchObject({ 'noti.outcome': 'rejected', 'http.response.status_code': 400 });
    expect(accepted!.service).toBe('noti-receiver-test');
    // Never a field of the body: no card number, name, phone or raw body in any attribute.
    const shown = JSON.stringify(spans.map((s) => s.attributes));
    for (const field of ['cardNo', 'customerName', 'customerContactNo']) expect(shown).not.toContain(body[field]);

    const producer = spans.find((s) => s.kind === PRODUCER && s.name === 'send payment.approved')!;
    expect(producer).toMatchObject({
      traceId: accepted!.traceId,
      parentSpanId: accepted!.spanId,
      links: [{ traceId: accepted!.traceId, spanId: accepted!.spanId }],
      attributes: expect.objectContaining({ 'noti.relay.transport': 'file', 'noti.relay.attempt': 1, 'messaging.system': 'file', 'messaging.message.id': event.id }),
    });
    // The trace context follows the event's own fields, which are the stored event's, unchanged.
    expect(event.traceparent).toBe(traceparentOf(producer));
    expect(contractProblems([line])).toEqual([]);
  }, 60_000);

  it('with OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf, the spans go to the collector as OTLP protobuf, the POST\'s and its publish\'s trace among them', async () => {
    receiver = await startTracedReceiver(collector.url, { QUEUE_URL: 'file:./events.ndjson', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' });
    const sink = join(receiver.dir, 'events.ndjson');
    expect(await receiver.post(approvalNotification())).toBe(200);
    const line = await eventually(() => (existsSync(sink) ? readFileSync(sink, 'utf8').split('\n').filter(Boolean)[0] : undefined), 10_000, 'the event line');
    const traceId = /^00-([0-9a-f]{32})-/.exec((JSON.parse(line) as { traceparent: string }).traceparent)![1]!;
    // Protobuf carries the trace id as its 16 bytes, the names and the service as UTF-8.
    const exported = await eventually(() => {
      const all = Buffer.concat(collector.protobufBodies);
      return all.includes(Buffer.from('send payment.approved')) && all.includes(Buffer.from('POST /notifications')) ? all : undefined;
    }, 15_000, 'the POST and producer spans in protobuf');
    expect(exported.includes(Buffer.from(traceId, 'hex'))).toBe(true);
    expect(exported.includes(Buffer.from('noti-receiver-test'))).toBe(true);
    expect(collector.spans).toEqual([]);
  }, 60_000);

  it('a publish that failed and was retried is two producer spans of the same trace: attempt 1 in error, attempt 2 delivered', async () => {
    let calls = 0;
    const endpoint = await startEndpoint(() => (++calls === 1 ? 503 : 200));
    try {
      receiver = await startTracedReceiver(collector.url, { QUEUE_URL: endpoint.url });
      expect(await receiver.post(approvalNotification())).toBe(200);
      await eventually(() => endpoint.received.length >= 2, 10_000, 'the retry');
      const spans = await spansWhere((all) => all.filter((s) => s.kind === PRODUCER && s.name === 'send payment.approved').length >= 2, 'two producer spans of the approval');
      const server = spans.find((s) => s.kind === SERVER)!;
      const [first, second] = spans.filter((s) => s.kind === PRODUCER && s.name === 'send payment.approved');
      expect([first!.attributes['noti.relay.attempt'], first!.status.code]).toEqual([1, 2]);
      expect([second!.attributes['noti.relay.attempt'], second!.status.code ?? 0]).toEqual([2, 0]);
      for (const producer of [first!, second!]) expect(producer).toMatchObject({ traceId: server.traceId, parentSpanId: server.spanId, links: [{ spanId: server.spanId }] });
      // Each POST carries its own attempt's context, in the HTTP headers.
      const eventId = first!.attributes['messaging.message.id'];
      const mine = endpoint.received.filter((request) => request.headers['idempotency-key'] === eventId);
      expect(mine.map((request) => request.headers.traceparent)).toEqual([traceparentOf(first!), traceparentOf(second!)]);
      expect(mine[1]!.headers.traceparent).toMatch(new RegExp(`^00-${server.traceId}-`));
    } finally {
      await endpoint.close();
    }
  }, 60_000);

  // The projector runs behind the acks, in a batch of its own: its span is a root, and it leads
  // back to each notification it applied by a link to that notification's POST span.
  const databases: Array<[string, (() => Promise<TestSchema>) | null]> = [['SQLite', null]];
  if (TEST_POSTGRES_URL) databases.push(['PostgreSQL', createTestSchema]);
  it.each(databases)('on %s, a ledger projector batch is a ledger.project span linked to the POST span of each notification it applied', async (_name, schemaOf) => {
    const schema = schemaOf ? await schemaOf() : null;
    try {
      receiver = await startTracedReceiver(collector.url, { QUEUE_URL: 'file:./events.ndjson', ...(schema ? { DATABASE_URL: schema.url } : {}) });
      const approval = approvalNotification();
      expect(await receiver.post(approval)).toBe(200);
      expect(await receiver.post(changeNotification({ shopOrderNo: approval.shopOrderNo, pgCno: approval.pgCno }))).toBe(200);
      expect(await receiver.post(approval)).toBe(200);

      const spans = await spansWhere((all) => {
        const posts = all.filter((s) => s.kind === SERVER && s.attributes['noti.outcome'] === 'accepted');
        const linked = new Set(all.filter((s) => s.name === 'ledger.project').flatMap((s) => s.links.map((link) => link.spanId)));
        return posts.length === 2 && posts.every((post) => linked.has(post.spanId));
      }, 'ledger.project spans linked to both accepted POST spans');
      const accepted = spans.filter((s) => s.kind === SERVER && s.attributes['noti.outcome'] === 'accepted');
      const batches = spans.filter((s) => s.name === 'ledger.project');
      for (const batch of batches) {
        expect(batch).toMatchObject({ kind: INTERNAL, parentSpanId: '' });
        expect(batch.attributes).toMatchObject({ 'noti.ledger.errors': 0, 'noti.batch.links_dropped': 0, 'noti.batch.links': batch.links.length });
        expect(Number(batch.attributes['noti.ledger.rows'])).toBeGreaterThanOrEqual(batch.links.length);
      }
      // Each link names the POST's own trace and span; the duplicate stored nothing and has no link.
      const links = batches.flatMap((batch) => batch.links);
      expect(links).toHaveLength(2);
      expect(links).toEqual(expect.arrayContaining(accepted.map((post) => ({ traceId: post.traceId, spanId: post.spanId }))));
      expect(batches.reduce((orders, batch) => orders + Number(batch.attributes['noti.ledger.orders']), 0)).toBeGreaterThanOrEqual(1);
    } finally {
      await receiver?.close();
      receiver = null;
      await schema?.drop();
    }
  }, 60_000);
});
