import { approvalNotification, changeNotification, escrowNotification, nextPgCno, unionPayForm, type JsonNotification } from '../../src/simulator/notification-builders';
import { startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

/**
 * The gateway documents strings, but a bare number must be read as its exact digits: the
 * JSON text is built by hand here because JSON.stringify cannot write a 20-digit number.
 */
function withBareNumbers(body: JsonNotification, numbers: Record<string, string>): string {
  const fields = Object.entries({ ...body, ...numbers }).map(([name, value]) =>
    name in numbers ? `${JSON.stringify(name)}:${value}` : `${JSON.stringify(name)}:${JSON.stringify(value)}`,
  );
  return `{${fields.join(',')}}`;
}

describe('numbers where the gateway documents strings are read exactly', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver()));
  afterEach(async () => receiver.close());

  it('two payments whose numeric pgCno differ past double precision stay two events with their exact digits', async () => {
    const first = withBareNumbers(approvalNotification(), { pgCno: '26112100000000000001' });
    const second = withBareNumbers(approvalNotification(), { pgCno: '26112100000000000002' });
    for (const body of [first, second, first]) {
      const res = await receiver.postJson(body).expect(200);
      expect(res.body.resCd).toBe('0000');
    }
    const events = await receiver.forwarded(2);
    expect(events.map((e) => e.pgCno)).toEqual(['26112100000000000001', '26112100000000000002']);
    expect(events[0]!.id).not.toBe(events[1]!.id);
    expect(await receiver.count('conflicts')).toBe(0);
    expect(await receiver.count('inbox')).toBe(2);
  });

  it('two partial cancels with numeric cancelPgCno are two events; a redelivered one is not', async () => {
    const pgCno = nextPgCno();
    const first = withBareNumbers(changeNotification({ pgCno, cancelAmount: '1000' }), { cancelPgCno: '26112199000000000001' });
    const second = withBareNumbers(changeNotification({ pgCno, cancelAmount: '2000' }), { cancelPgCno: '26112199000000000002' });
    for (const body of [first, second, first]) await receiver.postJson(body).expect(200);
    const events = await receiver.forwarded(2);
    expect(events.map((e) => e.cancelPgCno)).toEqual(['26112199000000000001', '26112199000000000002']);
    expect(await receiver.count('inbox')).toBe(2);
  });

  it('a numeric statusCode counts in the dedup key as its digits', async () => {
    const pgCno = nextPgCno();
    for (const code of ['1001', '1002', '1001']) {
      await receiver.postJson(withBareNumbers(escrowNotification({ pgCno }), { statusCode: code })).expect(200);
    }
    const events = await receiver.forwarded(2);
    expect(events.map((e) => e.status?.code)).toEqual(['1001', '1002']);
    expect(await receiver.count('inbox')).toBe(2);
  });

  it('a numeric integer amount is forwarded as that integer', async () => {
    await receiver.postJson(withBareNumbers(approvalNotification(), { amount: '12000' })).expect(200);
    const [event] = await receiver.forwarded(1);
    expect(event?.amount).toBe(12000);
    expect(event?.data.amount).toBe('12000');
  });

  it.each([
    ['a fractional amount', '1.5', /amount: amount must be an integer string/],
    ['an amount in exponent form', '1e21', /amount: amount must be an integer string/],
    ['a numeric amount past 2^53', '9007199254740993', /amount: amount is more than the gateway's 12-digit amount fields hold/],
    ['a numeric amount of 13 digits', '1000000000000', /amount: amount is more than the gateway's 12-digit amount fields hold \(at most 999999999999\)/],
  ])('%s is refused with 400/5001 and kept in rejections', async (_what, amount, reason) => {
    const body = withBareNumbers(approvalNotification(), { amount });
    const res = await receiver.postJson(body).expect(400);
    expect(res.body).toEqual({ resCd: '5001', resMsg: expect.stringMatching(reason) });
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.reason).toMatch(reason);
    expect(rejection?.rawBody?.toString()).toBe(body);
    expect(await receiver.count('inbox')).toBe(0);
  });

  it.each([
    ['amount', 'as a string', approvalNotification({ amount: '-5000' })],
    ['amount', 'as a bare number', withBareNumbers(approvalNotification(), { amount: '-5000' })],
    ['cancelAmount', 'as a string', changeNotification({ cancelAmount: '-3000' })],
  ])('a negative %s (%s) is refused with 400/5001, kept in rejections, never stored nor forwarded', async (field, _form, body) => {
    const res = await receiver.postJson(body).expect(400);
    expect(res.body).toEqual({ resCd: '5001', resMsg: expect.stringContaining(`${field}: amount must not be negative`) });
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.reason).toContain(`${field}: amount must not be negative`);
    expect(await receiver.count('inbox')).toBe(0);
  });

  it('an amount string past 2^53 is refused too: it could not be forwarded exactly', async () => {
    const res = await receiver.postJson(approvalNotification({ amount: '99999999999999999999' })).expect(400);
    expect(res.body.resMsg).toMatch(/amount: amount is more than the gateway's 12-digit amount fields hold/);
    expect(await receiver.count('rejections')).toBe(1);
  });

  it('two approvals of 9007199254740991 and 9007199254740990 are both refused (5001, kept with the reason): no 12-digit field holds them, so nothing sums them', async () => {
    for (const amount of ['9007199254740991', '9007199254740990']) {
      const res = await receiver.postJson(approvalNotification({ amount })).expect(400);
      expect(res.body).toEqual({ resCd: '5001', resMsg: expect.stringContaining("amount: amount is more than the gateway's 12-digit amount fields hold (at most 999999999999)") });
    }
    const rejections = await receiver.store.listRejections(2);
    expect(rejections.map((r) => r.reason)).toEqual([expect.stringContaining('12-digit'), expect.stringContaining('12-digit')]);
    expect(await receiver.count('inbox')).toBe(0);
  });

  it.each(['refundAmount', 'cancelAmount', 'depositAmount', 'remainAmount', 'cardAmount', 'customAmt'])('a 13-digit %s is refused like an amount', async (field) => {
    const res = await receiver.postJson({ ...approvalNotification(), [field]: '1000000000000' }).expect(400);
    expect(res.body.resMsg).toContain(`${field}: amount is more than the gateway's 12-digit amount fields hold`);
  });

  it('the largest 12-digit amount is accepted and forwarded exactly, zero-padded or not', async () => {
    await receiver.postJson(approvalNotification({ amount: '999999999999' })).expect(200);
    await receiver.postJson(approvalNotification({ amount: '0000999999999999' })).expect(200);
    const events = await receiver.forwarded(2);
    expect(events.map((e) => e.amount)).toEqual([999999999999, 999999999999]);
  });

  it('an event 70 form with a 13-digit amount gets the FAIL form and is kept with the reason', async () => {
    const { body } = unionPayForm({ amount: '1000000000000' });
    const res = await receiver.postForm(body).expect(400);
    expect(res.text).toBe('res_cd=5001\x1fres_msg=FAIL');
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.reason).toContain("amount: amount is more than the gateway's 12-digit amount fields hold");
    expect(rejection?.rawBody).toEqual(body);
    expect(await receiver.count('inbox')).toBe(0);
  });
});

describe('a field repeated in one body', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver()));
  afterEach(async () => receiver.close());

  it('with another value is ambiguous money: refused with 400/5001 and kept', async () => {
    const body = JSON.stringify(approvalNotification({ amount: '1000' })).replace('"amount":"1000"', '"amount":"1000","amount":"9000"');
    const res = await receiver.postJson(body).expect(400);
    expect(res.body.resMsg).toMatch(/^malformed JSON: a field name repeats with another value at line 1, column \d+ \(byte \d+\)$/);
    expect(await receiver.count('rejections')).toBe(1);
  });

  it('with the same value is accepted', async () => {
    const body = JSON.stringify(approvalNotification({ amount: '1000' })).replace('"amount":"1000"', '"amount":"1000","amount":"1000"');
    await receiver.postJson(body).expect(200);
    const [event] = await receiver.forwarded(1);
    expect(event?.amount).toBe(1000);
  });
});

describe('a JSON syntax error says where it is, never what the body says there', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver()));
  afterEach(async () => receiver.close());

  it.each([
    ['a missing comma after an account number', '{"resCd":"0000","depositName":"홍길동","accountNo":"94770201234567" "x":1}'],
    ['an unquoted name', '{"resCd":"0000","customerName":홍길동,"cardNo":"5361481234561234"}'],
    ['a body cut off after a card number', '{"resCd":"0000","depositName":"홍길동","cardNo":"5361481234561234"'],
  ])('%s: resMsg, rejections.reason and the log name the position only', async (_what, body) => {
    const res = await receiver.postJson(body).expect(400);
    expect(res.body).toEqual({ resCd: '5001', resMsg: expect.stringMatching(/^malformed JSON: .*line 1, column \d+ \(byte \d+\)$/) });
    const [rejection] = await receiver.store.listRejections(1);
    expect(rejection?.reason).toBe(res.body.resMsg);
    const exposed = JSON.stringify([res.body, rejection?.reason, receiver.logs()]);
    expect(exposed).not.toMatch(/홍길동|94770201234567|5361481234561234|\\ud64d/);
  });

  it('the byte offset points at the fault in the kept raw body', async () => {
    const body = '{"depositName":"홍길동" "accountNo":"94770201234567"}';
    const res = await receiver.postJson(body).expect(400);
    const byte = Number(/byte (\d+)/.exec(res.body.resMsg)?.[1]);
    expect(Buffer.from(body).subarray(byte, byte + 1).toString()).toBe('"');
    expect(res.body.resMsg).toBe(`malformed JSON: unexpected character at line 1, column 22 (byte ${byte})`);
  });
});
