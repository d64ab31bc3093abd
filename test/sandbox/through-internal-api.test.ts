import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import type { CallEntry } from '../../src/sandbox/timeline';
import { describeBrowser, launchBrowser, type TestBrowser } from '../helpers/browser';
import { eventually } from '../helpers/eventually';
import { eventsFileIn, readEventsFile, spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { SECRET_KEY, notificationsIn, post, sandboxForTests, uniqueId } from './sandbox-fixtures';

const API_TOKEN = 'sandbox-rehearsal-token-0123456789';

type QueuedEvent = ReturnType<typeof readEventsFile>[number] & { type: string; shopOrderNo: string; data: Record<string, unknown> };

describeBrowser('a rehearsal through the internal API: the built service pointed at the sandbox', () => {
  let dir: string;
  let sandbox: RunningSandbox;
  let service: SpawnedReceiver;
  let browser: TestBrowser;
  let api: (path: string, body?: unknown) => Promise<{ status: number; body: Record<string, unknown> }>;
  const events = () => readEventsFile(eventsFileIn(dir), { whileWriting: true }) as QueuedEvent[];
  const calls = (operation: string) => sandbox.context.timeline.entries().filter((e): e is CallEntry => e.kind === 'call' && e.operation === operation);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-sandbox-api-'));
    sandbox = await sandboxForTests();
    // As the README's walkthrough runs it: the sandbox's notifications let in by EXTRA_ALLOWED_IPS.
    service = await spawnReceiver(dir, {
      TRUST_PROXY: '',
      EXTRA_ALLOWED_IPS: '127.0.0.1',
      API_PORT: '0',
      API_TOKEN,
      GATEWAY_SECRET_KEY: SECRET_KEY,
      GATEWAY_WALLET_A_URL: sandbox.url,
      GATEWAY_WALLET_B_URL: sandbox.url,
      GATEWAY_VAN_URL: sandbox.url,
      GATEWAY_TIMEOUT_MS: '500',
      GATEWAY_RETRY_BASE_MS: '20',
    });
    api = async (path, body) => {
      const res = await fetch(`http://127.0.0.1:${service.apiPort}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Authorization: `Bearer ${API_TOKEN}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a trade created through the API and paid in the browser is payment.approved; two partial cancels through the API are two payment.changed', async () => {
    const shopOrderNo = uniqueId('ORD');
    const created = await api('/v1/wallet-a/trades', {
      mallId: 'T0001234', shopOrderNo, goodsName: 'Merino wool socks', tradeType: 'mweb',
      amountInfo: { totalAmount: 1203, currency: 'USD' }, notifyUrl: service.url,
    });
    expect(created).toMatchObject({ status: 200, body: { state: 'succeeded', response: { resCd: '0000' } } });
    const paymentPageUrl = String((created.body.response as Record<string, unknown>).paymentPageUrl);

    const page = await browser.context.newPage();
    await page.goto(paymentPageUrl);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Payment approved' }).waitFor();
    await page.close();
    const approved = await eventually(() => events().find((e) => e.type === 'payment.approved' && e.shopOrderNo === shopOrderNo), 15_000, 'payment.approved');

    for (const totAmount of [300, 200]) {
      const cancel = await api('/v1/wallet-b/cancellations', {
        mallId: 'T0001234', pgCno: approved.pgCno, reviseTypeCode: '32', amountInfo: { currency: 'USD', totAmount }, memo: 'one pair returned', regId: 'ops01',
      });
      expect(cancel).toMatchObject({ status: 200, body: { state: 'succeeded', response: { resCd: '0000' } } });
    }
    const changed = await eventually(() => {
      const list = events().filter((e) => e.type === 'payment.changed' && e.pgCno === approved.pgCno);
      return list.length >= 2 && list;
    }, 15_000, 'two payment.changed');
    expect(changed).toHaveLength(2);
    expect(new Set(changed.map((e) => e.cancelPgCno)).size).toBe(2);
    expect(changed.map((e) => e.data.cancelRemainAmount)).toEqual(['903', '703']);
    // The sandbox verified each msgAuthValue the service computed with the shared key.
    expect(calls('wallet-b.revise').map((c) => c.answer?.resCd)).toEqual(['0000', '0000']);
  });

  test('a VAN approval the sandbox hangs is net-cancelled, and the sandbox sees exactly one reqRtran', async () => {
    await post(`${sandbox.url}/sandbox/scenarios`, { operation: 'van.reqAprv', kind: 'hang' });
    const shopTransactionId = uniqueId('van');
    const approval = await api('/v1/van/approvals', { mallId: 'T0001234', shopTransactionId, amount: '15000', cardToken: 'tok_4111' });
    expect(approval.status).toBe(202);

    const done = await eventually(async () => {
      const command = await api(`/v1/commands/${shopTransactionId}`);
      return command.body.state === 'net_cancelled' && command.body;
    }, 15_000, 'net_cancelled');
    expect(done).toMatchObject({ command: 'van.approve', response: { resCd: '0000' } });
    expect(calls('van.reqAprv').filter((c) => c.shopTransactionId === shopTransactionId).map((c) => c.outcome)).toEqual(['withheld']);
    expect(calls('van.reqRtran').map((c) => c.shopTransactionId)).toEqual([shopTransactionId]);
    expect(sandbox.context.ledger.vanApprovals.get(shopTransactionId)!.state).toBe('net-cancelled');
  });

  test('a UnionPay VAN approval through the API brings the EUC-KR form 70, decoded intact in the queue', async () => {
    const shopOrderNo = uniqueId('ORD-UP');
    const approval = await api('/v1/van/approvals', {
      mallId: 'T0001234', shopTransactionId: uniqueId('van'), shopOrderNo, amount: '33000', cardNo: '6212345678901234', notifyUrl: service.url,
    });
    expect(approval).toMatchObject({ status: 200, body: { state: 'approved' } });
    const unionPay = await eventually(() => events().find((e) => e.type === 'unionpay.confirmed' && e.shopOrderNo === shopOrderNo), 15_000, 'unionpay.confirmed');
    expect(unionPay).toMatchObject({ pgCno: (approval.body.response as Record<string, unknown>).pgCno, data: { res_msg: '정상처리되었습니다', amount: '33000' } });
  });

  test('a cancellation the sandbox times out is resent by the service with the same key and date, and cancels once', async () => {
    const shopOrderNo = uniqueId('ORD');
    const created = await api('/v1/wallet-a/trades', {
      mallId: 'T0001234', shopOrderNo, goodsName: 'Merino wool socks', amountInfo: { totalAmount: 1203, currency: 'USD' }, notifyUrl: service.url,
    });
    const token = new URL(String((created.body.response as Record<string, unknown>).paymentPageUrl)).pathname.split('/').pop();
    await fetch(`${sandbox.url}/pay/${token}/pay`, { method: 'POST', redirect: 'manual' });
    const approved = await eventually(() => events().find((e) => e.type === 'payment.approved' && e.shopOrderNo === shopOrderNo), 15_000, 'payment.approved');

    await post(`${sandbox.url}/sandbox/scenarios`, { operation: 'wallet-b.revise', kind: 'timeout' });
    const shopTransactionId = uniqueId('cx');
    const cancel = await api('/v1/wallet-b/cancellations', {
      mallId: 'T0001234', pgCno: approved.pgCno, shopTransactionId, reviseTypeCode: '32', amountInfo: { currency: 'USD', totAmount: 300 },
    });
    expect(cancel).toMatchObject({ status: 202, body: { state: 'pending' } });
    await eventually(async () => (await api(`/v1/commands/${shopTransactionId}`)).body.state === 'succeeded', 15_000, 'cancellation succeeded');

    const revises = calls('wallet-b.revise').filter((c) => c.shopTransactionId === shopTransactionId);
    expect(revises.map((c) => c.outcome)).toEqual(['withheld', 'answered']);
    expect(revises[1]!.answer).toEqual(revises[0]!.answer);
    const [first, resend] = revises.map((c) => c.request as Record<string, unknown>);
    expect(resend).toMatchObject({ cancelReqDate: first!.cancelReqDate, msgAuthValue: first!.msgAuthValue });
    await eventually(() => events().some((e) => e.type === 'payment.changed' && e.pgCno === approved.pgCno), 15_000, 'payment.changed');
    expect(notificationsIn(sandbox.context.timeline.entries()).filter((n) => n.notiType === '20' && n.pgCno === approved.pgCno)).toHaveLength(1);
    expect(sandbox.context.ledger.tradeByPgCno.get(approved.pgCno)!.remaining).toBe(903);
  });
});
