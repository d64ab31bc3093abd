import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as the collector decoded it from OTLP/HTTP JSON. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client, 4 producer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: Array<{ traceId: string; spanId: string }>;
  status: { code?: number };
  service: string;
}

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };
type OtlpSpan = {
  traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number;
  attributes?: KeyValue[]; links?: Array<{ traceId: string; spanId: string }>; status?: { code?: number };
};
type ExportRequest = { resourceSpans: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> };

const valueOf = (v: AnyValue): string | number | boolean =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.boolValue ?? v.doubleValue ?? '';
const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/**
 * An OTLP/HTTP endpoint on 127.0.0.1 that decodes what the SDK's real exporter sends to
 * /v1/traces (OTLP JSON) and keeps every span, with its service name.
 */
export async function startOtlpCollector(): Promise<{ url: string; spans: CollectedSpan[]; protobufBodies: Buffer[]; requests: () => number; close(): Promise<void> }> {
  const spans: CollectedSpan[] = [];
  /** The bodies of OTLP/HTTP protobuf exports, kept undecoded (an empty answer is a valid protobuf one). */
  const protobufBodies: Buffer[] = [];
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests += 1;
      if (req.url === '/v1/traces' && String(req.headers['content-type']).startsWith('application/x-protobuf')) {
        protobufBodies.push(Buffer.concat(chunks));
        res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
        return;
      }
      if (req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const resourceSpans of body.resourceSpans) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans) {
            spans.push({
              traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? '', name: span.name, kind: span.kind,
              attributes: attributesOf(span.attributes), links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
              status: span.status ?? {}, service,
            });
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    protobufBodies,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
