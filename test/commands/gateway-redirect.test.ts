import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '../helpers/eventually';
import { loadConfig } from '../../src/config/env';
import { HMAC_KEY, startApiHarness, vanApproval, walletCancel, type ApiHarness } from './api-harness';
import { PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';

/** The host a redirect points at: it answers 0000 to anything, and must never be called. */
async function startElsewhere(): Promise<{ url: string; calls: Array<{ method: string; url: string; body: string }>; close(): Promise<void> }> {
  const calls: Array<{ method: string; url: string; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += String(chunk)));
    req.on('end', () => {
      calls.push({ method: req.method ?? '', url: req.url ?? '', body });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"resCd":"0000","resMsg":"SUCCESS"}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a redirect from the gateway is not its answer', () => {
  let gateway: FakeGateway;
  let elsewhere: Awaited<ReturnType<typeof startElsewhere>>;
  let api: ApiHarness;
  beforeEach(async () => {
    gateway = await startFakeGateway({ hmacKey: HMAC_KEY });
    elsewhere = await startElsewhere();
    api = await startApiHarness(gateway);
  });
  afterEach(async () => {
    await api.close();
    await gateway.close();
    await elsewhere.close();
  });

  it.each([302, 307] as const)('a wallet-b cancellation answered %i is resent to the gateway with the same key, never to the Location', async (status) => {
    const id = `redir-cancel-${status}`;
    gateway.script(PATHS.revise, { redirect: `${elsewhere.url}/steal?token=secret-in-query`, status });
    const res = await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: id })).expect(202);
    expect(res.body).toMatchObject({ state: 'pending', attempts: 1 });
    expect(res.body.lastError).toBe(`HTTP ${status} redirect to ${elsewhere.url}/steal, not followed`);

    await eventually(async () => (await api.commands.getCommand(id))?.state === 'succeeded');
    const sent = gateway.calls(PATHS.revise);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toEqual(sent[0]!.body);
    expect(elsewhere.calls).toEqual([]);
    // Logged with the Location, without its query.
    const logged = api.logs().find((line) => line.includes('gateway attempt without a usable answer') && line.includes(id));
    expect(logged).toContain(`redirect to ${elsewhere.url}/steal`);
    expect(api.logs().join('\n')).not.toContain('secret-in-query');
  });

  it('a 3xx without a Location (a 304) is an outcome unknown named as such, not as a redirect', async () => {
    const id = 'redir-304';
    gateway.script(PATHS.revise, { raw: '', status: 304 });
    const res = await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: id })).expect(202);
    expect(res.body).toMatchObject({ state: 'pending', attempts: 1 });
    expect(res.body.lastError).toBe("HTTP 304 without a Location: a 3xx is not the gateway's answer");
    await eventually(async () => (await api.commands.getCommand(id))?.state === 'succeeded');
  });

  it.each([302, 307] as const)('a VAN approval answered %i is net-cancelled, and the Location never called', async (status) => {
    const body = vanApproval({ shopTransactionId: `redir-van-${status}` });
    gateway.script(PATHS.approve, { redirect: `${elsewhere.url}/smpy/vanpay/reqAprv`, status });
    const res = await api.post('/v1/van/approvals', body).expect(202);
    expect(res.body).toMatchObject({ state: 'net_cancelling' });
    expect(res.body.lastError).toContain(`HTTP ${status} redirect to ${elsewhere.url}/smpy/vanpay/reqAprv`);

    await eventually(async () => (await api.commands.getCommand(body.shopTransactionId))?.state === 'net_cancelled');
    expect(gateway.calls(PATHS.approve)).toHaveLength(1);
    expect(gateway.calls(PATHS.netCancel).map((call) => call.body)).toEqual([body]);
    expect(elsewhere.calls).toEqual([]);
  });
});

describe('the gateway URLs in production', () => {
  it.each(['GATEWAY_WALLET_A_URL', 'GATEWAY_WALLET_B_URL', 'GATEWAY_VAN_URL'])('a plain-http %s is refused at start, naming the variable', (name) => {
    expect(() => loadConfig({ GATEWAY_ENV: 'production', [name]: 'http://gateway.example.com' })).toThrow(
      new RegExp(`^invalid ${name} \\(got "http://gateway.example.com/?"\\): must be an https:// URL when GATEWAY_ENV=production`),
    );
    expect(() => loadConfig({ GATEWAY_ENV: 'production', [name]: 'https://gateway.example.com' })).not.toThrow();
    expect(() => loadConfig({ GATEWAY_ENV: 'development', [name]: 'http://127.0.0.1:8090' })).not.toThrow();
  });
});
