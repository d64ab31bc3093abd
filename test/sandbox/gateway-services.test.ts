import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import type { CallEntry } from '../../src/sandbox/timeline';
import { eventually } from '../helpers/eventually';
import { ACK, scriptedReceiver } from '../simulator/fake-gateway-peer';
import { cancelBody, msgAuth, notificationsIn, post, sandboxForTests, settledNotifications, tradeBody, uniqueId } from './sandbox-fixtures';

describe("the sandbox answers the gateway's services as the gateway does", () => {
  let receiver: Awaited<ReturnType<typeof scriptedReceiver>>;
  let sandbox: RunningSandbox;
  beforeEach(async () => {
    receiver = await scriptedReceiver((_, isForm) => (isForm ? ACK.form : ACK.json));
    sandbox = await sandboxForTests({ defaultNotifyUrl: receiver.url });
  });
  afterEach(async () => {
    await sandbox.stop();
    await receiver.close();
  });

  const createTrade = (overrides: Record<string, unknown> = {}) => post(`${sandbox.url}/api/trades/wallet-a`, tradeBody(overrides));
  const pay = async (paymentPageUrl: string) => {
    const token = new URL(paymentPageUrl).pathname.split('/').pop();
    await fetch(`${sandbox.url}/pay/${token}/pay`, { method: 'POST', redirect: 'manual' });
    const [approval] = await settledNotifications(sandbox, 1);
    return approval!.pgCno;
  };
  const revise = (body: Record<string, unknown>) => post(`${sandbox.url}/api/trades/wallet-b/revise`, body);

  test('a trade answers a redirect page for mweb and a code URL for native, and a resent shopTransactionId makes no second trade', async () => {
    const mweb = await createTrade();
    expect(mweb.body).toMatchObject({ resCd: '0000', paymentPageUrl: expect.stringMatching(`^${sandbox.url}/pay/`) });
    const native = await createTrade({ tradeType: 'native' });
    expect(String(native.body.paymentPageUrl).startsWith(`${sandbox.url}/code/`)).toBe(true);
    const page = await fetch(String(native.body.paymentPageUrl));
    expect(await page.text()).toContain('Merino socks');

    const again = await post(`${sandbox.url}/api/trades/wallet-a`, (sandbox.context.timeline.entries()[0] as CallEntry).request);
    expect(again.body).toEqual(mweb.body);
    expect(sandbox.context.ledger.trades.size).toBe(2);
  });

  test('what a caller sent is shown on the pages as text, never as markup', async () => {
    const trade = await createTrade({ goodsName: '<img src=x onerror=alert(1)>', returnUrl: 'javascript:alert(1)' });
    const page = await (await fetch(String(trade.body.paymentPageUrl))).text();
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toContain('<img');
    const timeline = await (await fetch(`${sandbox.url}/sandbox/timeline`)).text();
    const home = await (await fetch(`${sandbox.url}/sandbox`)).text();
    expect(timeline + home).not.toContain('<img');
    expect(page + home).not.toContain('javascript:');
  });

  test('a trade without its required fields is refused with the detail URL-encoded', async () => {
    const answer = await post(`${sandbox.url}/api/trades/wallet-a`, { mallId: 'T0001234', shopTransactionId: uniqueId('tx') });
    expect(answer.body).toMatchObject({ resCd: 'E101' });
    expect(decodeURIComponent(String(answer.body.resDetailMsg))).toBe('missing amountInfo.totalAmount, goodsName');
  });

  test('a cancellation is checked against HMAC(key, pgCno|shopTransactionId) in hex or base64', async () => {
    const pgCno = await pay(String((await createTrade()).body.paymentPageUrl));
    const forged = await revise(cancelBody(pgCno, { msgAuthValue: msgAuth(pgCno, 'someone-else') }));
    expect(forged.body).toMatchObject({ resCd: 'E102' });

    const hex = await revise(cancelBody(pgCno));
    expect(hex.body).toMatchObject({ resCd: '0000', pgCno, cancelAmount: '300', remainAmount: '903', statusCode: 'TS06' });
    const shopTransactionId = uniqueId('cx');
    const base64 = await revise(cancelBody(pgCno, { shopTransactionId, msgAuthValue: msgAuth(pgCno, shopTransactionId, 'base64') }));
    expect(base64.body).toMatchObject({ resCd: '0000', remainAmount: '603' });
    expect(base64.body.cancelPgCno).not.toBe(hex.body.cancelPgCno);
  });

  test('a resent cancellation gets the first answer and cancels nothing more; a changed cancelReqDate is refused', async () => {
    const pgCno = await pay(String((await createTrade()).body.paymentPageUrl));
    const body = cancelBody(pgCno);
    const first = await revise(body);
    const resend = await revise(body);
    expect(resend.body).toEqual(first.body);
    const nextDay = await revise({ ...body, cancelReqDate: '20261123' });
    expect(nextDay.body).toMatchObject({ resCd: 'E103', shopTransactionId: body.shopTransactionId });

    const notifications = await settledNotifications(sandbox, 2);
    expect(notifications.map((n) => n.notiType)).toEqual(['10', '20']);
    expect(sandbox.context.ledger.tradeByPgCno.get(pgCno)!.remaining).toBe(903);
  });

  test('a body that is not JSON is answered in the gateway shape', async () => {
    const res = await fetch(`${sandbox.url}/api/trades/wallet-b/revise`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"mallId":' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ resCd: 'E101' });
  });

  test('a code scenario answers that resCd the next N times, then the call goes through', async () => {
    const scenario = await post(`${sandbox.url}/sandbox/scenarios`, { operation: 'wallet-a.create', kind: 'code', code: 'A213', times: 2 });
    expect(scenario.status).toBe(201);
    const body = tradeBody();
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push((await post(`${sandbox.url}/api/trades/wallet-a`, body)).body.resCd);
    expect(answers).toEqual(['A213', 'A213', '0000']);
    expect(sandbox.context.scenarios.pending()).toEqual([]);
  });

  test('a per-call header answers a code for that call only', async () => {
    const refused = await post(`${sandbox.url}/api/trades/wallet-a`, tradeBody(), { 'X-Sandbox-Scenario': 'code=A219' });
    expect(refused.body.resCd).toBe('A219');
    expect((await createTrade()).body.resCd).toBe('0000');
    const unknown = await post(`${sandbox.url}/api/trades/wallet-a`, tradeBody(), { 'X-Sandbox-Scenario': 'explode' });
    expect(unknown).toMatchObject({ status: 400, body: { resMsg: expect.stringContaining('use timeout, hang, reset or code=A213') } });
  });

  test('a timed-out cancellation is done but never answered; its resend gets the one cancellation', async () => {
    const pgCno = await pay(String((await createTrade()).body.paymentPageUrl));
    const body = cancelBody(pgCno);
    const caller = new AbortController();
    const lost = fetch(`${sandbox.url}/api/trades/wallet-b/revise?sandbox=timeout`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal: caller.signal,
    });
    const withheld = await eventually(() => sandbox.context.timeline.entries().find((e): e is CallEntry => e.kind === 'call' && e.outcome === 'withheld'));
    caller.abort();
    await expect(lost).rejects.toThrow();

    const resend = await revise(body);
    expect(resend.body).toEqual(withheld.answer);
    expect(sandbox.context.ledger.tradeByPgCno.get(pgCno)!.remaining).toBe(903);
  });

  test('a reset drops the connection after the work is done', async () => {
    await post(`${sandbox.url}/sandbox/scenarios`, { operation: 'van.reqAprv', kind: 'reset' });
    const approval = { mallId: 'T0001234', shopTransactionId: uniqueId('van'), amount: '5000' };
    await expect(post(`${sandbox.url}/smpy/vanpay/reqAprv`, approval)).rejects.toThrow();
    expect(sandbox.context.ledger.vanApprovals.get(approval.shopTransactionId)?.state).toBe('approved');
  });

  test('a hung VAN approval is undone by its net-cancel, and a net-cancel of nothing is still 0000', async () => {
    await post(`${sandbox.url}/sandbox/scenarios`, { operation: 'van.reqAprv', kind: 'hang' });
    const approval = { mallId: 'T0001234', shopTransactionId: uniqueId('van'), amount: '5000' };
    const caller = new AbortController();
    const hung = fetch(`${sandbox.url}/smpy/vanpay/reqAprv`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(approval), signal: caller.signal });
    await eventually(() => sandbox.context.ledger.vanApprovals.get(approval.shopTransactionId));
    caller.abort();
    await expect(hung).rejects.toThrow();

    const rtran = await post(`${sandbox.url}/smpy/vanpay/reqRtran`, approval);
    expect(rtran.body).toMatchObject({ resCd: '0000', shopTransactionId: approval.shopTransactionId });
    expect(sandbox.context.ledger.vanApprovals.get(approval.shopTransactionId)!.state).toBe('net-cancelled');
    const nothing = await post(`${sandbox.url}/smpy/vanpay/reqRtran`, { ...approval, shopTransactionId: uniqueId('van') });
    expect(nothing.body.resCd).toBe('0000');
  });

  test('a VAN approval can be cancelled by its pgCno; a second cancel finds nothing standing', async () => {
    const approval = await post(`${sandbox.url}/smpy/vanpay/reqAprv`, { mallId: 'T0001234', shopTransactionId: uniqueId('van'), amount: '5000' });
    const cancel = await post(`${sandbox.url}/smpy/vanpay/reqCancel`, { mallId: 'T0001234', shopTransactionId: uniqueId('vc'), pgCno: approval.body.pgCno });
    expect(cancel.body).toMatchObject({ resCd: '0000', pgCno: approval.body.pgCno });
    const again = await post(`${sandbox.url}/smpy/vanpay/reqCancel`, { mallId: 'T0001234', shopTransactionId: uniqueId('vc'), pgCno: approval.body.pgCno });
    expect(again.body.resCd).toBe('E201');
    expect(notificationsIn(sandbox.context.timeline.entries())).toEqual([]);
  });
});
