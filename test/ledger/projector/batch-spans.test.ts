import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startLedgerProjector } from '../../../src/ledger/projector/ledger-projector';
import type { ProjectedBatch } from '../../../src/ledger/sql/project-ledger';
import { tracingOver } from '../../../src/tracing/tracing';
import { eventually } from '../../helpers/eventually';

/** The projector over batches it is handed, one each time it asks, with the SDK's in-memory exporter. */
function projectorOver(batches: ProjectedBatch[]) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const answered: ProjectedBatch[] = [];
  const idle: ProjectedBatch = { rows: 0, orders: 0, errors: [], more: false };
  const projector = startLedgerProjector({
    project: async () => {
      const next = batches.shift() ?? idle;
      answered.push(next);
      return next;
    },
    holdsLock: async () => true,
    onNewEvents: () => undefined,
    pollMs: 5,
    tracing: tracingOver(provider.getTracer('test'), provider),
  });
  return { exporter, answered, projector, close: async () => { await projector.stop(); await provider.shutdown(); } };
}

describe("the ledger projector's spans", () => {
  test('a batch that went past rows but computed no order (and failed on none) is no span; one that applied something is', async () => {
    const passedOnly: ProjectedBatch = { rows: 3, orders: 0, errors: [], more: true, traceContexts: [] };
    const applied: ProjectedBatch = { rows: 2, orders: 1, errors: [], more: true, traceContexts: [] };
    const erred: ProjectedBatch = { rows: 1, orders: 0, errors: ['inbox row 7: unreadable'], more: false, traceContexts: [] };
    const h = projectorOver([passedOnly, applied, erred]);
    try {
      await eventually(() => h.answered.length > 3, 10_000, "the projector to ask past the three batches");
      expect(h.projector.state().batches).toBe(3);
      expect(h.exporter.getFinishedSpans().map((span) => [span.name, span.attributes['noti.ledger.orders'], span.attributes['noti.ledger.errors']])).toEqual([
        ['ledger.project', 1, 0],
        ['ledger.project', 0, 1],
      ]);
    } finally {
      await h.close();
    }
  });
});
