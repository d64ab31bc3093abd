import { approvalNotification } from '../../src/simulator/notification-builders';
import { DEV_GATEWAY_IP, startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

/** A local curl, as docs/notifications.md's first try sends it, to a receiver that does not allow this machine. */
describe('a notification from an address the receiver does not allow', () => {
  let receiver: TestReceiver;
  afterEach(async () => receiver?.close());

  it('is 403 in the gateway form, naming only the address; the log line says to add it to EXTRA_ALLOWED_IPS', async () => {
    receiver = await startTestReceiver({ TRUST_PROXY: '', GATEWAY_ENV: 'development', MALL_IDS: 'T0001234' });
    const res = await receiver.postJson(approvalNotification()).expect(403);
    expect(res.body).toEqual({ resCd: '5001', resMsg: expect.stringContaining('source address 127.0.0.1 is not allowed') });
    // Anyone can read the answer: no setting, no allowlist, no mall id in it.
    expect(res.body.resMsg).not.toMatch(/EXTRA_ALLOWED_IPS|TRUST_PROXY|GATEWAY_ENV|MALL_IDS|61\.33\.|203\.233\.|T0001234/);
    expect(res.body.resMsg).toContain("the receiver's log says how");
    const warning = receiver.logs().find((line) => /outside the allowlist/.test(String(line.message)));
    expect(warning).toMatchObject({ level: 'warn', address: '127.0.0.1' });
    expect(String(warning?.fix)).toContain('add it to EXTRA_ALLOWED_IPS (EXTRA_ALLOWED_IPS=127.0.0.1)');
    expect(await receiver.count('inbox')).toBe(0);
  });

  it('names the forwarded client, not the proxy, when a trusted proxy forwards a stranger', async () => {
    receiver = await startTestReceiver({ GATEWAY_ENV: 'production' });
    await receiver.postJson(approvalNotification(), DEV_GATEWAY_IP).expect(403);
    const warning = receiver.logs().find((line) => /outside the allowlist/.test(String(line.message)));
    expect(String(warning?.fix)).toContain(`EXTRA_ALLOWED_IPS=${DEV_GATEWAY_IP}`);
  });

  it('an event-70 form still gets only the FAIL form', async () => {
    receiver = await startTestReceiver({ TRUST_PROXY: '' });
    const res = await receiver.postForm('res_cd=0000', 'application/x-www-form-urlencoded').expect(403);
    expect(res.text).toBe('res_cd=5001\x1fres_msg=FAIL');
  });
});
