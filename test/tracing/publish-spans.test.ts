import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { OutboxRecord } from '../../src/store/store';
import { startPublishSpans } from '../../src/relay/publish-spans';
import { storedTraceContext, tracingOver } from '../../src/tracing/tracing';

const PRODUCER = 3; // the SDK's SpanKind.PRODUCER
const POST_TRACE = '0af7651916cd43dd8448eb211c80319c';
const POST_SPAN = '00f067aa0ba902b7';

const row = (seq: number, eventType: string, traceContext: string | null, attempts = 0): OutboxRecord => ({
  seq, eventId: `${eventType}:${seq}`, eventType, receivedAt: '2026-01-01T00:00:00.000Z', attempts, nextAttemptAt: 0, eventJson: '{}', traceContext,
});
const toEvent = (r: OutboxRecord) => ({ id: r.eventId, type: r.eventType, receivedAt: r.receivedAt, json: r.eventJson });

/** The relay's producer spans, over the SDK's own in-memory exporter. */
describe('the producer spans of one publish', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracing = tracingOver(provider.getTracer('test'), provider);
  afterEach(() => exporter.reset());
  afterAll(() => provider.shutdown());

  it("gives each event a traced POST stored its own span in the POST's trace, and the events stored without a context one shared root span whose context each carries", () => {
    const stored = storedTraceContext({ traceparent: `00-${POST_TRACE}-${POST_SPAN}-01` });
    const rows = [row(1, 'payment.approved', stored), row(2, 'order.status_changed', null), row(3, 'order.status_changed', null, 2)];
    const publish = startPublishSpans(tracing, rows, 'file', toEvent);
    publish.end();
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(2);
    const [shared, notification] = spans;
    expect(notification).toMatchObject({ name: 'send payment.approved', kind: PRODUCER, parentSpanContext: { traceId: POST_TRACE, spanId: POST_SPAN } });
    expect(notification!.attributes).toMatchObject({ 'messaging.message.id': 'payment.approved:1', 'noti.relay.transport': 'file', 'noti.relay.attempt': 1 });
    expect(notification!.links.map((link) => link.context.spanId)).toEqual([POST_SPAN]);
    expect(shared).toMatchObject({ name: 'send order.status_changed', kind: PRODUCER, parentSpanContext: undefined });
    expect(shared!.attributes).toMatchObject({ 'messaging.batch.message_count': 2, 'noti.relay.transport': 'file', 'noti.relay.attempt': 3 });
    expect(shared!.attributes['messaging.message.id']).toBeUndefined();

    const traceparentOf = (span: typeof shared) => `00-${span!.spanContext().traceId}-${span!.spanContext().spanId}-01`;
    expect(publish.events.map((event) => event.trace?.traceparent)).toEqual([traceparentOf(notification), traceparentOf(shared), traceparentOf(shared)]);
    expect(publish.events.map((event) => event.id)).toEqual(rows.map((r) => r.eventId));
  });

  it('names the shared span by the type its events have in common, or plain `send` when they differ; one event keeps its message id', () => {
    startPublishSpans(tracing, [row(1, 'order.status_changed', null), row(2, 'ledger.discrepancy_opened', null)], 'amqp', toEvent).end();
    startPublishSpans(tracing, [row(3, 'command.succeeded', null)], 'amqp', toEvent).end();
    const [mixed, single] = exporter.getFinishedSpans();
    expect(mixed).toMatchObject({ name: 'send', attributes: expect.objectContaining({ 'messaging.system': 'rabbitmq', 'messaging.batch.message_count': 2 }) });
    expect(single).toMatchObject({ name: 'send command.succeeded', attributes: expect.objectContaining({ 'messaging.message.id': 'command.succeeded:3', 'messaging.batch.message_count': 1 }) });
  });

  it('marks every span of a failed publish in error', () => {
    const stored = storedTraceContext({ traceparent: `00-${POST_TRACE}-${POST_SPAN}-01` });
    startPublishSpans(tracing, [row(1, 'payment.approved', stored), row(2, 'order.status_changed', null)], 'nats', toEvent).end(new Error('no PubAck'));
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(2);
    for (const span of spans) expect(span.status).toEqual({ code: 2, message: 'no PubAck' });
  });
});
