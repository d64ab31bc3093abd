import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { inBatchSpan } from '../../src/tracing/batch-span';
import { storedTraceContext, tracingOver } from '../../src/tracing/tracing';

/** The helper the ledger projector wraps each batch in, over the SDK's own in-memory exporter. */
describe('a batch span (for the ledger projector)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracing = tracingOver(provider.getTracer('test'), provider);
  afterEach(() => exporter.reset());
  afterAll(() => provider.shutdown());

  it('is linked to the span that stored each event of the batch, skipping events stored without one', async () => {
    const stored = ['0af7651916cd43dd8448eb211c80319c', '4bf92f3577b34da6a3ce929d0e0e4736'].map((traceId, i) =>
      storedTraceContext({ traceparent: `00-${traceId}-00f067aa0ba902b${i}-01` }));
    const result = await inBatchSpan(tracing, 'ledger batch', [stored[0], null, stored[1]], { 'noti.ledger.orders': 2 }, () => Promise.resolve(42));
    expect(result).toBe(42);
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('ledger batch');
    expect(span!.links.map((link) => [link.context.traceId, link.context.spanId])).toEqual([
      ['0af7651916cd43dd8448eb211c80319c', '00f067aa0ba902b0'], ['4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b1'],
    ]);
    expect(span!.attributes).toMatchObject({ 'noti.ledger.orders': 2, 'noti.batch.size': 3 });
  });

  it('ends in error when the batch fails, and rethrows', async () => {
    await expect(inBatchSpan(tracing, 'ledger batch', [], {}, () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(exporter.getFinishedSpans()[0]!.status).toMatchObject({ code: 2, message: 'store down' });
  });

  it('with tracing off only runs the batch', async () => {
    await expect(inBatchSpan(null, 'ledger batch', ['{}'], {}, () => Promise.resolve('done'))).resolves.toBe('done');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
