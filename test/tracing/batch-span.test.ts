import { performance } from 'node:perf_hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { BATCH_SPAN_LINKS, recordBatchSpan } from '../../src/tracing/batch-span';
import { storedTraceContext, tracingOver } from '../../src/tracing/tracing';

const storedFor = (traceId: string, spanId: string) => storedTraceContext({ traceparent: `00-${traceId}-${spanId}-01` });

/** The span the ledger projector records for each batch, over the SDK's own in-memory exporter. */
describe('a batch span (the ledger projector\'s)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracing = tracingOver(provider.getTracer('test'), provider);
  afterEach(() => exporter.reset());
  afterAll(() => provider.shutdown());

  it('is a root linked to the span that stored each event of the batch, with the batch\'s own times and figures', () => {
    const stored = [storedFor('0af7651916cd43dd8448eb211c80319c', '00f067aa0ba902b0'), storedFor('4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b1')];
    const endTime = performance.now();
    recordBatchSpan(tracing, 'ledger.project', { startTime: endTime - 25, endTime, storedContexts: stored, attributes: { 'noti.ledger.orders': 2 } });
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('ledger.project');
    expect(span!.parentSpanContext).toBeUndefined();
    expect(span!.links.map((link) => [link.context.traceId, link.context.spanId])).toEqual([
      ['0af7651916cd43dd8448eb211c80319c', '00f067aa0ba902b0'], ['4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b1'],
    ]);
    expect(span!.attributes).toMatchObject({ 'noti.ledger.orders': 2, 'noti.batch.links': 2, 'noti.batch.links_dropped': 0 });
    // 25 ms, as the batch measured it, not the moment the span object was made.
    expect(span!.duration[0] * 1000 + span!.duration[1] / 1e6).toBeCloseTo(25, 0);
  });

  it(`keeps at most ${BATCH_SPAN_LINKS} links and counts the rest, and those that do not parse, as dropped`, () => {
    const stored = Array.from({ length: BATCH_SPAN_LINKS + 72 }, (_, i) => storedFor('0af7651916cd43dd8448eb211c80319c', i.toString(16).padStart(16, '1')));
    stored[0] = '{not json';
    const now = performance.now();
    recordBatchSpan(tracing, 'ledger.project', { startTime: now, endTime: now, storedContexts: stored, attributes: {} });
    const [span] = exporter.getFinishedSpans();
    expect(span!.links).toHaveLength(BATCH_SPAN_LINKS - 1);
    expect(span!.attributes).toMatchObject({ 'noti.batch.links': BATCH_SPAN_LINKS - 1, 'noti.batch.links_dropped': 73 });
  });

  it('ends in error when the batch failed', () => {
    const now = performance.now();
    recordBatchSpan(tracing, 'ledger.project', { startTime: now, endTime: now, storedContexts: [], attributes: {}, error: new Error('store down') });
    expect(exporter.getFinishedSpans()[0]!.status).toMatchObject({ code: 2, message: 'store down' });
  });
});
