import { TraceState } from '@opentelemetry/core';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { spanContextOfStored, storedTraceContext, tracingOver } from '../../src/tracing/tracing';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

/** The trace context an outbox row or a command keeps, written for every traced POST and read for every publish. */
describe('a stored trace context', () => {
  const provider = new BasicTracerProvider();
  const tracing = tracingOver(provider.getTracer('test'), provider);
  afterAll(() => provider.shutdown());

  it('is the traceparent itself, and the tracestate after a semicolon when there is one: no JSON to write or parse', () => {
    expect(storedTraceContext({ traceparent: TRACEPARENT })).toBe(TRACEPARENT);
    expect(storedTraceContext({ traceparent: TRACEPARENT, tracestate: 'congo=t61rcWkgMzE, rojo=00f067aa0ba902b7' })).toBe(`${TRACEPARENT};congo=t61rcWkgMzE, rojo=00f067aa0ba902b7`);
  });

  it('reads back as the remote span context it names, with its flags and tracestate', () => {
    expect(spanContextOfStored(tracing, TRACEPARENT)).toEqual({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1, isRemote: true });
    const withState = spanContextOfStored(tracing, storedTraceContext({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-00`, tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7' }));
    expect(withState).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 0, isRemote: true });
    expect(withState!.traceState).toBeInstanceOf(TraceState);
    expect(withState!.traceState!.get('rojo')).toBe('00f067aa0ba902b7');
  });

  it('reads the JSON form rows stored before it still hold', () => {
    expect(spanContextOfStored(tracing, JSON.stringify({ traceparent: TRACEPARENT }))).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 });
    expect(spanContextOfStored(tracing, JSON.stringify({ traceparent: TRACEPARENT, tracestate: 'rojo=1' }))!.traceState!.get('rojo')).toBe('1');
  });

  it.each([
    ['nothing', null],
    ['an empty string', ''],
    ['broken JSON', '{not json'],
    ['a traceparent of another version', `01-${TRACE_ID}-${SPAN_ID}-01`],
    ['upper-case hex', `00-${TRACE_ID.toUpperCase()}-${SPAN_ID}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN_ID}-01`],
    ['an all-zero span id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['a traceparent with something after it', `${TRACEPARENT}-01`],
  ])('names no span when it holds %s', (_what, stored) => {
    expect(spanContextOfStored(tracing, stored)).toBeUndefined();
  });
});
