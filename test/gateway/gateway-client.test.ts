import iconv from 'iconv-lite';
import { classifyAnswer, classifyFailure } from '../../src/gateway/classify-answer';
import { createGatewayClient } from '../../src/gateway/gateway-client';
import { GatewayNetworkError, GatewayNotConfigured, GatewayTimeout, GatewayUnparsableAnswer } from '../../src/gateway/gateway-errors';
import { kstDate } from '../../src/gateway/kst-date';
import { keyForMall, msgAuthValue } from '../../src/gateway/msg-auth';
import { PATHS, startFakeGateway, type FakeGateway } from '../commands/fake-gateway';

describe('the gateway client', () => {
  let gateway: FakeGateway;
  beforeAll(async () => {
    gateway = await startFakeGateway();
  });
  afterAll(() => gateway.close());

  // Generous: a process's first fetch loads its HTTP client, which alone can take a couple of hundred ms.
  const client = () => createGatewayClient({ baseUrls: { GATEWAY_WALLET_B_URL: gateway.url, GATEWAY_VAN_URL: gateway.url }, timeoutMs: 1000 });

  it('posts JSON to the operation path and returns the JSON answer', async () => {
    const answer = await client().send('van.net-cancel', { mallId: 'T1', shopTransactionId: 'k1' });
    expect(answer).toEqual({ httpStatus: 200, body: { resCd: '0000', resMsg: 'SUCCESS', shopTransactionId: 'k1' } });
    expect(gateway.calls(PATHS.netCancel)).toHaveLength(1);
  });

  it('throws a typed error for a time-out, a reset and an answer that is not the gateway JSON', async () => {
    gateway.script(PATHS.revise, { hang: true }, { reset: true }, { raw: '{"message":"bad gateway"}', status: 502, contentType: 'application/json' });
    await expect(client().send('wallet-b.cancel', {})).rejects.toThrow(GatewayTimeout);
    await expect(client().send('wallet-b.cancel', {})).rejects.toThrow(GatewayNetworkError);
    await expect(client().send('wallet-b.cancel', {})).rejects.toThrow(GatewayUnparsableAnswer);
  });

  it('reads an answer in the charset its Content-Type names, and past a UTF-8 byte order mark', async () => {
    const answer = { resCd: '0000', resMsg: '정상취소', shopTransactionId: 'k2' };
    gateway.script(
      PATHS.revise,
      { raw: iconv.encode(JSON.stringify(answer), 'cp949'), contentType: 'application/json; charset=EUC-KR' },
      // A BOM is no JSON: read as such, a cancellation the gateway made would be resent until it counted as failed.
      { raw: `\ufeff${JSON.stringify(answer)}`, contentType: 'application/json' },
    );
    await expect(client().send('wallet-b.cancel', {})).resolves.toEqual({ httpStatus: 200, body: answer });
    await expect(client().send('wallet-b.cancel', {})).resolves.toEqual({ httpStatus: 200, body: answer });
  });

  it('refuses an operation whose base URL is unset, naming the variable, before sending', async () => {
    const before = gateway.calls().length;
    await expect(client().send('wallet-a.create', {})).rejects.toThrow(new GatewayNotConfigured('GATEWAY_WALLET_A_URL'));
    expect(gateway.calls()).toHaveLength(before);
  });

  it('classifies once: A210-A219 resend only a wallet-b cancellation; another code is final; no answer is unknown', () => {
    const answer = (resCd: string) => ({ httpStatus: 200, body: { resCd } });
    expect(classifyAnswer('wallet-b.cancel', {}, answer('A213')).verdict).toBe('unknown');
    expect(classifyAnswer('wallet-b.cancel', {}, answer('A220')).verdict).toBe('final');
    expect(classifyAnswer('van.approve', {}, answer('A213')).verdict).toBe('final');
    expect(classifyAnswer('van.approve', {}, answer('0000')).verdict).toBe('success');
    expect(classifyAnswer('wallet-a.create', { shopTransactionId: 'a' }, { httpStatus: 200, body: { resCd: '0000', shopTransactionId: 'b' } }).verdict).toBe('final');
    expect(classifyFailure(new GatewayTimeout(30000))).toEqual({ verdict: 'unknown', response: null, error: 'time-out after 30000 ms' });
    expect(() => classifyFailure(new TypeError('a bug'))).toThrow('a bug');
  });

  it('signs with the mall key when there is one, and dates in Korea whatever the server zone', () => {
    const keys = { gatewayKey: 'default', gatewayKeysByMall: { T0001234: 'mall' } };
    expect(keyForMall(keys, 'T0001234')).toBe('mall');
    expect(keyForMall(keys, 'OTHER')).toBe('default');
    // Computed independently: python3 hmac.new(b'gateway-key', b'20261122000012345678|st-0001', sha256).
    expect(msgAuthValue('gateway-key', '20261122000012345678', 'st-0001', 'hex')).toBe('2e3ff9b8f877faa9ace24494d9a19f6b9de6b3229faf151c2609c9c19be029e5');
    expect(msgAuthValue('gateway-key', '20261122000012345678', 'st-0001', 'base64')).toBe('Lj/5uPh3+qms4kSU2aGfa53msyKfrxUcJgnJwZvgKeU=');
    expect(kstDate(new Date('2026-12-31T14:59:59.999Z'))).toBe('20261231');
    expect(kstDate(new Date('2026-12-31T15:00:00.000Z'))).toBe('20270101');
  });
});
