import request from 'supertest';
import { approvalNotification, encodeForm, unionPayFields } from '../../src/simulator/notification-builders';
import { KOREAN_CHARSET } from '../../src/euc-kr';
import { startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

/** The `noti_type` values /metrics shows for noti_receiver_notifications_total. */
async function notiTypeLabels(receiver: TestReceiver): Promise<string[]> {
  const text = await receiver.metrics.registry.metrics();
  const labels = [...text.matchAll(/^noti_receiver_notifications_total\{noti_type="([^"]*)"/gm)].map((m) => m[1]!);
  return [...new Set(labels)].sort();
}

describe('metric labels come from a closed set', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver({ MALL_IDS: 'T0001234' })));
  afterEach(async () => receiver.close());

  it('invalid bodies with card numbers, names or long text as notiType all count under "invalid"', async () => {
    const garbage = ['5361481234561234', '홍길동', 'x'.repeat(5000), '99', ''];
    for (const notiType of garbage) await receiver.postJson(approvalNotification({ notiType })).expect(400);
    await receiver.postForm(encodeForm({ ...unionPayFields(), noti_type: '4111111111111111' })).expect(400);
    // A valid code in a body refused for another reason keeps its code.
    await receiver.postJson(approvalNotification({ mallId: 'T9999999' })).expect(400);
    await receiver.postJson(approvalNotification()).expect(200);
    await receiver.postJson('{"notiType": 10').expect(400);

    expect(await notiTypeLabels(receiver)).toEqual(['10', 'invalid', 'unknown']);
    const text = await receiver.metrics.registry.metrics();
    expect(text).not.toMatch(/5361481234561234|4111111111111111|홍길동|xxxxxxxx/);
    expect(text).toMatch(/noti_receiver_notifications_total\{noti_type="invalid",outcome="rejected"\} 6/);
  });
});

describe('a refused source is logged by the address that was judged', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver()));
  afterEach(async () => receiver.close());

  const refusals = () => receiver.logs().filter((line) => /outside the allowlist/.test(String(line.message)));

  it('a 15 KB X-Forwarded-For is cut to its first 200 characters and counted in hops', async () => {
    const hops = Array.from({ length: 1300 }, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.7`);
    const header = [...hops, '198.51.100.23'].join(', ');
    expect(header.length).toBeGreaterThan(15_000);
    await receiver.postJson(approvalNotification(), header).expect(403);

    const [line] = refusals();
    expect(line).toMatchObject({ address: '198.51.100.23', forwardedForHops: 1301 });
    expect(String(line!.forwardedFor).length).toBeLessThan(260);
    expect(String(line!.forwardedFor)).toMatch(new RegExp(`^10\\.0\\.0\\.7, .*… \\(${header.length} characters\\)$`));
    expect(JSON.stringify(line).length).toBeLessThan(1000);
  });

  it('a judged hop that is not an address is described, not quoted, in the log and the answer', async () => {
    const res = await receiver.postJson(approvalNotification(), `61.33.205.151, ${'Hong Gildong 5361481234561234 '.repeat(500)}`).expect(403);
    expect(res.body.resMsg).toMatch(/not an IP address, \d+ characters/);
    const [line] = refusals();
    expect(line?.address).toMatch(/^\(not an IP address, \d+ characters\)$/);
    // The capped excerpt is free text: card-like digit runs in it are masked like a body.
    expect(JSON.stringify([res.body, receiver.logs()])).not.toMatch(/5361481234561234/);
    expect(String(line?.forwardedFor)).toContain('************1234');
  });

  it('a flood of refused requests is counted in full but logged only as a sample', async () => {
    for (let i = 0; i < 30; i += 1) {
      await request(receiver.app).post(receiver.config.NOTIFY_PATH).set('X-Forwarded-For', `198.51.100.${i}`).send('{}').expect(403);
    }
    expect(refusals()).toHaveLength(20);
    const text = await receiver.metrics.registry.metrics();
    expect(text).toMatch(/noti_receiver_notifications_total\{noti_type="unknown",outcome="forbidden"\} 30/);
  });
});

describe('a refusal reason never quotes body text beyond the gateway\'s field names', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver()));
  afterEach(async () => receiver.close());

  it('a form field named with a card number and holding bad bytes is described, not quoted', async () => {
    const body = Buffer.concat([encodeForm(unionPayFields(), KOREAN_CHARSET), Buffer.from('&5361481234561234='), Buffer.from([0xc1, 0xff])]);
    const res = await receiver.postForm(body).expect(400);
    expect(res.text).toBe('res_cd=5001\x1fres_msg=FAIL');
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.reason).toBe('(a field name of 16 characters): bytes are not valid CP949');
  });

  it('an amount-like field name carrying a card number is described; a gateway name is quoted as before', async () => {
    const res = await receiver.postJson(approvalNotification({ cancelAmount: '1.5', ['card5361481234561234Amount']: 'x' })).expect(400);
    expect(res.body.resMsg).toBe('cancelAmount: amount must be an integer string; (a field name of 26 characters): amount must be an integer string');
    expect(JSON.stringify([res.body, receiver.logs()])).not.toMatch(/5361481234561234/);
  });

  it('a Content-Type quoted in the reason is cut short and masked', async () => {
    const res = await receiver.postForm('a=b', `application/x-www-form-urlencoded; charset=x${'5361481234561234'.repeat(20)}`).expect(415);
    expect(res.text).toBe('res_cd=5001\x1fres_msg=FAIL');
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.reason).toMatch(/^unsupported charset x\*{95}\d{4}…$/);
  });
});

describe('a body built to fail thousands of checks', () => {
  it('gets the first ten reasons and a count, in the answer, the log and the rejection', async () => {
    const receiver = await startTestReceiver();
    try {
      const body: Record<string, string> = approvalNotification();
      for (let i = 0; i < 2000; i += 1) body[`item${String(i).padStart(4, '0')}Amount`] = 'x';
      const res = await receiver.postJson(body).expect(400);
      expect(res.body.resMsg).toMatch(/^(item\d{4}Amount: amount must be an integer string; ){10}and 1990 more$/);
      const [rejection] = await receiver.store.listRejections(1);
      expect(rejection?.reason).toBe(res.body.resMsg);
    } finally {
      await receiver.close();
    }
  });
});
