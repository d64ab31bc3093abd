import request from 'supertest';
import { parseAddressList } from '../../src/config/address-list';
import { loadConfig } from '../../src/config/env';
import { clientAddress } from '../../src/http/source-check';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { DEV_GATEWAY_IP, PROD_GATEWAY_IP, startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

describe('source check', () => {
  let receiver: TestReceiver;
  afterEach(async () => receiver?.close());

  it('accepts the development gateway through a trusted proxy', async () => {
    receiver = await startTestReceiver({ GATEWAY_ENV: 'development' });
    const res = await receiver.postJson(approvalNotification(), DEV_GATEWAY_IP).expect(200);
    expect(res.body).toEqual({ resCd: '0000', resMsg: 'SUCCESS' });
    const [event] = await receiver.forwarded(1);
    expect(event?.source).toEqual({ ip: DEV_GATEWAY_IP, environment: 'development' });
  });

  it('production does not accept the development address, and stores nothing', async () => {
    receiver = await startTestReceiver({ GATEWAY_ENV: 'production' });
    const res = await receiver.postJson(approvalNotification(), DEV_GATEWAY_IP).expect(403);
    expect(res.body.resCd).toBe('5001');
    await receiver.postJson(approvalNotification(), PROD_GATEWAY_IP).expect(200);
    await receiver.postJson(approvalNotification(), '61.33.211.180').expect(200);
    expect(await receiver.count('inbox')).toBe(2);
    expect(await receiver.count('rejections')).toBe(0);
  });

  it('development does not accept a production address', async () => {
    receiver = await startTestReceiver({ GATEWAY_ENV: 'development' });
    await receiver.postJson(approvalNotification(), PROD_GATEWAY_IP).expect(403);
    expect(await receiver.count('inbox')).toBe(0);
  });

  it('a spoofed X-Forwarded-For from an untrusted peer is 403, logged with the address, and nothing is stored', async () => {
    receiver = await startTestReceiver({ TRUST_PROXY: '10.9.9.9' });
    const res = await receiver.postJson(approvalNotification(), DEV_GATEWAY_IP).expect(403);
    expect(res.body).toEqual({ resCd: '5001', resMsg: expect.stringContaining('127.0.0.1') });
    expect(await receiver.count('inbox')).toBe(0);
    expect(await receiver.count('rejections')).toBe(0);
    const warning = receiver.logs().find((l) => l.level === 'warn' && l.address === '127.0.0.1');
    expect(warning?.message).toMatch(/allowlist/);
  });

  it('a forbidden event-70 form gets the FAIL form', async () => {
    receiver = await startTestReceiver({ TRUST_PROXY: '' });
    const res = await receiver.postForm('res_cd=0000', 'application/x-www-form-urlencoded', DEV_GATEWAY_IP).expect(403);
    expect(res.text).toBe('res_cd=5001\x1fres_msg=FAIL');
  });

  it('EXTRA_ALLOWED_IPS admits a CIDR, and an IPv4-mapped IPv6 peer matches its IPv4 entry', async () => {
    // No proxy: the peer itself (::ffff:127.0.0.1 on a dual-stack socket) must match 127.0.0.0/8.
    receiver = await startTestReceiver({ TRUST_PROXY: '', EXTRA_ALLOWED_IPS: '127.0.0.0/8' });
    const res = await request(receiver.app)
      .post('/notifications')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(approvalNotification()))
      .expect(200);
    expect(res.body.resCd).toBe('0000');
    const [event] = await receiver.forwarded(1);
    expect(event?.source).toEqual({ ip: '127.0.0.1', environment: 'extra' });
  });

  it('the notification path is only POST; other paths say 404 in the gateway form', async () => {
    receiver = await startTestReceiver();
    await request(receiver.app).get('/notifications').expect(405);
    await request(receiver.app).get('/healthz').expect(404);
  });
});

describe('clientAddress', () => {
  const trusted = parseAddressList('10.0.0.0/8,::1');

  it('uses the socket peer when it is not a trusted proxy, whatever the header says', () => {
    expect(clientAddress('198.51.100.7', DEV_GATEWAY_IP, trusted)).toBe('198.51.100.7');
  });

  it('takes the right-most untrusted hop, so a client cannot forge the left of the chain', () => {
    expect(clientAddress('10.0.0.2', `${DEV_GATEWAY_IP}, 198.51.100.7, 10.0.0.5`, trusted)).toBe('198.51.100.7');
    expect(clientAddress('::ffff:10.0.0.2', `${DEV_GATEWAY_IP}`, trusted)).toBe(DEV_GATEWAY_IP);
  });

  it('normalizes IPv4-mapped IPv6 peers', () => {
    expect(clientAddress('::ffff:203.233.72.150', undefined, trusted)).toBe('203.233.72.150');
  });

  it('refuses bad entries in an address list at configuration time', () => {
    expect(() => parseAddressList('10.0.0.0/40')).toThrow(/prefix/);
    expect(() => parseAddressList('gateway.example')).toThrow(/not an IP/);
  });

  it('refuses a CIDR with trailing junk after the prefix, naming the variable at start', () => {
    expect(() => parseAddressList('10.0.0.0/8/junk')).toThrow(/10\.0\.0\.0\/8\/junk/);
    expect(() => parseAddressList('10.0.0.0/')).toThrow(/prefix/);
    expect(() => loadConfig({ EXTRA_ALLOWED_IPS: '10.0.0.0/8/junk' })).toThrow(/invalid EXTRA_ALLOWED_IPS/);
  });
});
