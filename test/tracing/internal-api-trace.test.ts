import { PATHS, startFakeGateway, type FakeGateway } from '../commands/fake-gateway';
import { API_TOKEN, walletCancel } from '../commands/api-harness';
import { eventually } from '../helpers/eventually';
import { startOtlpCollector } from './otlp-collector';
import { startTracedReceiver, type TracedReceiver } from './traced-receiver';

const SERVER = 2;
const CLIENT = 3;
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

describe('OpenTelemetry traces of the internal API', () => {
  let collector: Awaited<ReturnType<typeof startOtlpCollector>>;
  let gateway: FakeGateway;
  let receiver: TracedReceiver | null = null;
  beforeEach(async () => {
    collector = await startOtlpCollector();
    gateway = await startFakeGateway();
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
    await gateway.close();
    await collector.close();
  });

  it("continues the caller's traceparent; each gateway call is a client span, and the worker's resend is linked to the request that started the command", async () => {
    // The first call's connection is reset: the outcome is unknown, so the worker resends.
    gateway.script(PATHS.revise, { reset: true });
    receiver = await startTracedReceiver(collector.url, {
      QUEUE_URL: 'file:./events.ndjson', API_TOKEN, GATEWAY_SECRET_KEY: 'test-secret-key', GATEWAY_WALLET_B_URL: gateway.url,
      GATEWAY_TIMEOUT_MS: '2000', GATEWAY_RETRY_BASE_MS: '20',
    });
    const answer = await fetch(`http://127.0.0.1:${receiver.receiver.apiPort}/v1/wallet-b/cancellations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${API_TOKEN}`, 'Content-Type': 'application/json', traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
      body: JSON.stringify(walletCancel({ shopTransactionId: 'traced-1' })),
    });
    expect([200, 202]).toContain(answer.status);
    await eventually(() => gateway.calls(PATHS.revise).length >= 2, 15_000, 'the resend');

    const calls = await eventually(() => {
      const found = collector.spans.filter((s) => s.kind === CLIENT && s.name === 'gateway wallet-b.cancel');
      return found.length >= 2 ? found : undefined;
    }, 15_000, 'two gateway call spans');
    const request = collector.spans.find((s) => s.kind === SERVER && s.name === 'POST /v1/wallet-b/cancellations')!;
    expect(request).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: CALLER_SPAN, attributes: expect.objectContaining({ 'http.response.status_code': answer.status }) });
    const [first, resend] = [...calls].sort((a, b) => Number(a.attributes['noti.command.attempt']) - Number(b.attributes['noti.command.attempt']));
    expect(first).toMatchObject({
      traceId: CALLER_TRACE, parentSpanId: request.spanId,
      attributes: expect.objectContaining({ 'noti.command.attempt': 1, 'gateway.verdict': 'unknown', 'url.path': '/api/trades/wallet-b/revise' }),
    });
    expect(resend).toMatchObject({
      links: [{ traceId: CALLER_TRACE, spanId: request.spanId }],
      attributes: expect.objectContaining({ 'noti.command.attempt': 2, 'gateway.verdict': 'success', 'http.response.status_code': 200 }),
    });
  }, 60_000);
});
