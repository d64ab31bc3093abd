import { approvalNotification, basketApprovalNotification, unionPayForm } from '../../src/simulator/notification-builders';
import { startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

describe('bad input gets a clear answer in the gateway form, and nothing is lost', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver({ MALL_IDS: 'T0001234,T0005678' })));
  afterEach(async () => receiver.close());

  async function expectRejected(status: number, reason: RegExp, send: () => PromiseLike<{ status: number; body: { resCd?: string; resMsg?: string } }>) {
    const before = await receiver.count('rejections');
    const stored = await receiver.count('inbox');
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ resCd: '5001', resMsg: expect.stringMatching(reason) });
    expect(await receiver.count('rejections')).toBe(before + 1);
    expect(await receiver.count('inbox')).toBe(stored);
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.httpStatus).toBe(status);
    expect(rejection?.reason).toMatch(reason);
    return rejection!;
  }

  it('a missing required field is 400 with the field named, and the raw body is kept', async () => {
    const { pgCno: _omit, ...body } = approvalNotification();
    const rejection = await expectRejected(400, /pgCno/, () => receiver.postJson(body));
    expect(JSON.parse(rejection.rawBody!.toString())).toEqual(body);
    expect(rejection.sourceIp).toBe('61.33.205.151');
  });

  it('an unknown notiType is refused', async () => {
    await expectRejected(400, /notiType.*99/, () => receiver.postJson(approvalNotification({ notiType: '99' })));
  });

  it('a mallId outside MALL_IDS is refused', async () => {
    await expectRejected(400, /MALL_IDS/, () => receiver.postJson(approvalNotification({ mallId: 'T9999999' })));
  });

  it('an amount that is not an integer string is refused: money is never guessed', async () => {
    await expectRejected(400, /amount/, () => receiver.postJson(approvalNotification({ amount: '12,000' })));
    await expectRejected(400, /cancelAmount/, () => receiver.postJson(approvalNotification({ cancelAmount: '1.5' })));
  });

  it('a basket must carry the triples bkResCnt announces, and at most 20', async () => {
    const basket = basketApprovalNotification(2);
    delete basket.sellerId2;
    await expectRejected(400, /sellerId2/, () => receiver.postJson(basket));
    await expectRejected(400, /bkResCnt/, () => receiver.postJson(basketApprovalNotification(21)));
  });

  it('lengths are counted in EUC-KR bytes: required fields over their length are refused', async () => {
    // 4 Hangul = 8 EUC-KR bytes fits mallId(8); 5 = 10 bytes does not (UTF-8 would say 12 and 15).
    await receiver.close();
    receiver = await startTestReceiver();
    await receiver.postJson(approvalNotification({ mallId: '가나다라' })).expect(200);
    await expectRejected(400, /mallId: longer than 8 EUC-KR bytes/, () => receiver.postJson(approvalNotification({ mallId: '가나다라마' })));
  });

  it('an over-long optional field is a logged warning, never a rejection', async () => {
    // 26 Hangul = 52 EUC-KR bytes, more than customerName's 50.
    const name = '가'.repeat(26);
    await receiver.postJson(approvalNotification({ customerName: name, statusMessage: '긴'.repeat(60) })).expect(200);
    const [event] = await receiver.forwarded(1);
    expect(event?.data.customerName).toBe(name);
    const warnings = receiver.logs().filter((l) => l.level === 'warn' && /over its documented length/.test(String(l.message)));
    expect(warnings.map((w) => w.warning)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^customerName: 52 EUC-KR bytes/), expect.stringMatching(/^statusMessage/)]),
    );
  });

  it('unknown extra fields are kept in data', async () => {
    await receiver.postJson(approvalNotification({ brandNewField: '새 필드' })).expect(200);
    const [event] = await receiver.forwarded(1);
    expect(event?.data.brandNewField).toBe('새 필드');
  });

  it('malformed JSON, an empty body, a JSON array and invalid UTF-8 are each 400', async () => {
    await expectRejected(400, /malformed JSON/, () => receiver.postJson('{"resCd": "0000",'));
    await expectRejected(400, /empty body/, () => receiver.postJson(''));
    await expectRejected(400, /JSON object/, () => receiver.postJson('[1,2]'));
    await expectRejected(400, /UTF-8/, () =>
      receiver.postForm(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'application/json'),
    );
  });

  it('an unsupported or missing content type is 415', async () => {
    await expectRejected(415, /text\/plain/, () => receiver.postForm('hello', 'text/plain'));
    await expectRejected(415, /missing Content-Type/, () =>
      receiver.postJson('{}').unset('Content-Type').serialize((raw: unknown) => raw as string),
    );
    const form = await receiver.postForm('a=b', 'application/x-www-form-urlencoded; charset=klingon').expect(415);
    expect(form.text).toBe('res_cd=5001\x1fres_msg=FAIL');
    expect((await receiver.store.listRejections(1))[0]?.reason).toMatch(/unsupported charset klingon/);
  });

  it('invalid EUC-KR bytes in an event 70 form get the FAIL form with 400, and the bytes are kept', async () => {
    const body = Buffer.concat([Buffer.from('res_cd=0000&res_msg='), Buffer.from([0xc1, 0xff, 0xff]), Buffer.from('&noti_type=70')]);
    const res = await receiver.postForm(body).expect(400);
    expect(res.text).toBe('res_cd=5001\x1fres_msg=FAIL');
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.rawBody).toEqual(body);
    expect(rejection?.reason).toMatch(/res_msg: bytes are not valid CP949/);
  });

  it('an event 70 form missing its ids is refused in the FAIL form', async () => {
    const { body } = unionPayForm({ cno: '' });
    const res = await receiver.postForm(body).expect(400);
    expect(res.text).toBe('res_cd=5001\x1fres_msg=FAIL');
    expect((await receiver.store.listRejections(1))[0]?.reason).toMatch(/cno: must not be empty/);
  });

  it('a 1 MB body is 413, recorded, and the receiver keeps serving', async () => {
    const huge = JSON.stringify({ ...approvalNotification(), padding: 'x'.repeat(1024 * 1024) });
    const res = await receiver.postJson(huge);
    expect(res.status).toBe(413);
    expect(res.body.resCd).toBe('5001');
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.httpStatus).toBe(413);
    await receiver.postJson(approvalNotification()).expect(200);
  });

  it('after a barrage of bad input the receiver still accepts a real notification', async () => {
    const bad = ['{', 'null', '"x"', '{"notiType":{"a":1}}', '{"resCd":[]}', '\u0000\u0001', '{"__proto__":{"x":1}}'];
    for (const body of bad) expect((await receiver.postJson(body)).body.resCd).toBe('5001');
    await receiver.postJson(approvalNotification()).expect(200);
    expect(await receiver.count('rejections')).toBe(bad.length);
  });
});

describe('storage unavailable', () => {
  it('is 503 with 5001 in the matching form, so the gateway retries', async () => {
    const receiver = await startTestReceiver({}, { relay: false });
    await receiver.store.close();
    const json = await receiver.postJson(approvalNotification());
    expect(json.status).toBe(503);
    expect(json.body).toEqual({ resCd: '5001', resMsg: expect.stringMatching(/storage unavailable/) });
    const form = await receiver.postForm(unionPayForm().body);
    expect(form.status).toBe(503);
    expect(form.text).toBe('res_cd=5001\x1fres_msg=FAIL');
    await receiver.close();
  });
});
