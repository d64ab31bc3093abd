import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import { loadConfig } from '../../src/config/env';
import type { ConsoleDeps } from '../../src/console/console-deps';
import { createLogger } from '../../src/observability/logger';
import { createMetrics } from '../../src/observability/metrics';
import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { newSecret, secretHash } from '../../src/store/operator-credentials';
import type { OperatorRole } from '../../src/store/store';
import { eventually } from '../helpers/eventually';
import { startLedgerReceiver, type LedgerReceiver } from '../sandbox/ledger-receiver';
import { MALL_ID, sandboxForTests, settledNotifications, uniqueId } from '../sandbox/sandbox-fixtures';
import { ADMIN_TOKEN, HOST, ORIGIN, consoleSessions, csrfIn } from './console-harness';

/**
 * Between the sandbox and the receiver's notification listener: passes every notification on, or,
 * while held, keeps them until released, so a test sees the order while the gateway's event 20 is
 * still on its way.
 */
async function notificationGate(target: string): Promise<{ url: string; hold(): void; release(): Promise<void>; close(): Promise<void> }> {
  let holding = false;
  const held: Array<() => Promise<void>> = [];
  const forward = async (req: IncomingMessage, body: Buffer, res: ServerResponse) => {
    const answer = await fetch(target, { method: 'POST', headers: { 'Content-Type': String(req.headers['content-type']) }, body });
    res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'text/plain' }).end(Buffer.from(await answer.arrayBuffer()));
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const send = () => forward(req, Buffer.concat(chunks), res).catch(() => { res.destroy(); });
      if (holding) held.push(send);
      else void send();
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    hold: () => { holding = true; },
    async release() {
      holding = false;
      await Promise.all(held.splice(0).map((send) => send()));
    },
    close: async () => { server.closeAllConnections(); await new Promise((resolve) => server.close(resolve)); },
  };
}

/**
 * Cancel from the console's order page against the gateway's local sandbox: the confirmation with
 * the amount and what is left after it, the command sent through the internal API's machinery,
 * the audit row naming the command, the order showing the cancel as requested until the gateway's
 * event 20 confirms it; refused above what is left, and for anyone not given the right.
 */
describe('cancelling a payment from the order page', () => {
  let sandbox: RunningSandbox;
  let receiver: LedgerReceiver;
  let gate: Awaited<ReturnType<typeof notificationGate>>;
  let admin: ReturnType<typeof createAdminApp>;
  let deps: ConsoleDeps;

  beforeEach(async () => {
    sandbox = await sandboxForTests();
    receiver = await startLedgerReceiver(sandbox.url);
    gate = await notificationGate(receiver.notifyUrl);
    const { store, commands, ledger } = receiver.stores;
    deps = {
      store, commands, ledger, gatewayCommands: receiver.commandDeps, adminToken: ADMIN_TOKEN, now: () => new Date(),
      logger: createLogger({ level: 'error', silent: true }),
      config: loadConfig({ TRUST_PROXY: '127.0.0.1,::1' }),
      sessions: consoleSessions(store, ADMIN_TOKEN),
    };
    admin = createAdminApp({
      store,
      publisher: { kind: 'none', publish: async () => undefined, status: () => ({ connected: false, detail: 'no relay in this test' }), close: async () => undefined },
      relay: null, metrics: createMetrics(), isShuttingDown: () => false, console: deps,
    });
  });
  afterEach(async () => {
    await sandbox?.stop();
    await gate?.close();
    await receiver?.close();
  });

  const signIn = async (name: string, role: OperatorRole, canCancel = false) => {
    const token = name === 'admin' ? ADMIN_TOKEN : newSecret();
    if (name !== 'admin') await receiver.stores.store.addOperator({ name, role, tokenHash: secretHash(token), createdAt: new Date().toISOString(), canCancel });
    const agent = request.agent(admin);
    expect((await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token })).status).toBe(303);
    return { agent, csrf: csrfIn((await agent.get('/console/orders').set('Host', HOST)).text) };
  };

  /** A wallet-a trade of $12.03 through the internal API, paid on the sandbox's page: a payment wallet-b can cancel. */
  async function paidTrade(): Promise<{ shopOrderNo: string; pgCno: string; path: string }> {
    const shopOrderNo = uniqueId('ORD-CXL');
    const created = await receiver.api('/v1/wallet-a/trades', {
      mallId: MALL_ID, shopOrderNo, goodsName: 'Merino wool socks', tradeType: 'mweb', amountInfo: { totalAmount: 1203, currency: 'USD' }, notifyUrl: gate.url,
    });
    expect(created).toMatchObject({ status: 200, body: { state: 'succeeded' } });
    const token = new URL(String((created.body.response as Record<string, unknown>).paymentPageUrl)).pathname.split('/').pop();
    expect((await fetch(`${sandbox.url}/pay/${token}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    await settledNotifications(sandbox, 1);
    const order = await receiver.stores.ledger.getOrder({ mallId: MALL_ID, shopOrderNo });
    return { shopOrderNo, pgCno: order!.payments[0]!.pgCno, path: `/console/orders/${MALL_ID}/${encodeURIComponent(shopOrderNo)}` };
  }

  const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1];

  test('partial, then full: confirmed, sent as a wallet-b command, audited, requested until event 20 confirms it', async () => {
    const { agent, csrf } = await signIn('admin', 'admin');
    const { shopOrderNo, pgCno, path } = await paidTrade();

    const page = await agent.get(path).set('Host', HOST).expect(200);
    // What the gateway said about the payment, and its Cancel.
    expect(page.text).toContain('30012345');
    expect(page.text).toContain('비씨카드');
    expect(page.text).toContain('****-****-****-1234');
    expect(page.text).not.toContain('5361');
    expect(page.text).toContain('lump sum');
    expect(page.text).toMatch(/class="filters cancel-form"/);

    const confirm = await agent.get(`${path}/cancel?${new URLSearchParams({ pgCno, type: 'partial', amount: '$3.00' }).toString()}`).set('Host', HOST).expect(200);
    expect(confirm.text).toMatch(/Cancel <span class="money">\$3\.00<\/span> of payment/);
    expect(confirm.text).toMatch(/Left of this payment after it: <strong><span class="money">\$9\.03<\/span><\/strong>/);
    const shopTransactionId = hidden(confirm.text, 'shopTransactionId')!;
    expect(hidden(confirm.text, 'amount')).toBe('300');

    gate.hold();
    const sent = await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, pgCno, type: 'partial', amount: '300', shopTransactionId }).expect(303);
    expect(sent.headers.location).toBe(`${path}?done=cancel-requested`);
    const command = await receiver.stores.commands.getCommand(shopTransactionId);
    expect(command).toMatchObject({ command: 'wallet-b.cancel', state: 'succeeded', request: { pgCno, reviseTypeCode: '32', amountInfo: { currency: 'USD', totAmount: 300 } } });
    const audit = await receiver.stores.store.listAudit(10);
    expect(audit.find((row) => row.action === 'requested cancel')).toMatchObject({ subject: `${MALL_ID}/${shopOrderNo}`, detail: expect.stringContaining(`command ${shopTransactionId}`) });

    // The same confirmation pressed again: the command exists, nothing more is sent.
    await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, pgCno, type: 'partial', amount: '300', shopTransactionId }).expect(303);
    expect(sandbox.context.timeline.entries().filter((e) => e.kind === 'call' && e.operation === 'wallet-b.revise')).toHaveLength(1);

    // Requested: the gateway answered, its event 20 is held back. What is left already counts it.
    const requested = await agent.get(path).set('Host', HOST).expect(200);
    expect(requested.text).toContain('data-cancel-request="requested"');
    expect(requested.text).toMatch(/Left of this payment <strong><span class="money">\$9\.03/);
    expect((await receiver.stores.ledger.getOrder({ mallId: MALL_ID, shopOrderNo }))!.cancelled).toBe(0);

    await gate.release();
    await eventually(async () => (await receiver.stores.ledger.getOrder({ mallId: MALL_ID, shopOrderNo }))!.cancelled === 300, 10_000, 'event 20 in the record');
    const confirmed = await agent.get(path).set('Host', HOST).expect(200);
    expect(confirmed.text).toContain('data-cancel-request="confirmed"');
    expect(confirmed.text).not.toContain('data-cancel-request="requested"');

    // Full: all that is left, $9.03, leaving nothing.
    const full = await agent.get(`${path}/cancel?${new URLSearchParams({ pgCno, type: 'full' }).toString()}`).set('Host', HOST).expect(200);
    expect(full.text).toMatch(/Cancel <span class="money">\$9\.03<\/span> of payment/);
    expect(full.text).toMatch(/Left of this payment after it: <strong><span class="money">\$0\.00/);
    const fullId = hidden(full.text, 'shopTransactionId')!;
    await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, pgCno, type: 'full', amount: '903', shopTransactionId: fullId }).expect(303);
    expect(await receiver.stores.commands.getCommand(fullId)).toMatchObject({ state: 'succeeded', request: { reviseTypeCode: '40' } });
    const settled = await eventually(async () => {
      const order = (await receiver.stores.ledger.getOrder({ mallId: MALL_ID, shopOrderNo }))!;
      return order.cancelled === 1203 && order;
    }, 10_000, 'the full cancel in the record');
    expect(settled.status).toBe('cancelled');
    expect((await agent.get(path).set('Host', HOST).expect(200)).text).not.toMatch(/class="filters cancel-form"/);
  });

  test('refused above what is left: on the confirmation and on a forged POST, and nothing is sent', async () => {
    const { agent, csrf } = await signIn('admin', 'admin');
    const { pgCno, path } = await paidTrade();
    const tooMuch = await agent.get(`${path}/cancel?${new URLSearchParams({ pgCno, type: 'partial', amount: '$20.00' }).toString()}`).set('Host', HOST).expect(400);
    expect(tooMuch.text).toContain('Refused: $20.00 is more than the $12.03 left of this payment.');
    const forged = await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, pgCno, type: 'partial', amount: '1204', shopTransactionId: 'console-forged-1' }).expect(400);
    expect(forged.text).toContain('Refused');
    expect(await receiver.stores.commands.getCommand('console-forged-1')).toBeNull();
    expect(sandbox.context.timeline.entries().filter((e) => e.kind === 'call' && e.operation === 'wallet-b.revise')).toHaveLength(0);
  });

  test('only the admin and operators given the right see Cancel; anyone else\'s GET and POST are 403', async () => {
    const { pgCno, path } = await paidTrade();
    const body = (csrf: string) => ({ _csrf: csrf, pgCno, type: 'full', amount: '1203', shopTransactionId: uniqueId('console') });
    for (const [name, role] of [['plain-operator', 'operator'], ['reader', 'viewer']] as const) {
      const { agent, csrf } = await signIn(name, role);
      expect((await agent.get(path).set('Host', HOST).expect(200)).text).not.toMatch(/class="filters cancel-form"/);
      await agent.get(`${path}/cancel?pgCno=${pgCno}&type=full`).set('Host', HOST).expect(403);
      await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form').send(body(csrf)).expect(403);
    }
    const { agent, csrf } = await signIn('cancel-operator', 'operator', true);
    expect((await agent.get(path).set('Host', HOST).expect(200)).text).toMatch(/class="filters cancel-form"/);
    // The CSRF and Origin rules of every console POST.
    await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', 'http://evil.example').type('form').send(body(csrf)).expect(403);
    await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form').send(body('wrong')).expect(403);
    await agent.post(`${path}/cancel`).set('Host', HOST).set('Origin', ORIGIN).type('form').send(body(csrf)).expect(303);
    expect(sandbox.context.timeline.entries().filter((e) => e.kind === 'call' && e.operation === 'wallet-b.revise')).toHaveLength(1);
  });

  test('the Operators page gives the right with its checkbox, audits it and shows who has it', async () => {
    const { agent, csrf } = await signIn('admin', 'admin');
    const added = await agent.post('/console/operators/add').set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, name: 'cashier', role: 'operator', can_cancel: 'on' });
    expect(added.status).toBeLessThan(400);
    expect(await receiver.stores.store.findOperator('cashier')).toMatchObject({ role: 'operator', canCancel: true });
    expect((await receiver.stores.store.listAudit(10)).find((row) => row.action === 'added operator')).toMatchObject({ subject: 'cashier', detail: 'operator, may cancel payments' });
    expect((await agent.get('/console/operators').set('Host', HOST).expect(200)).text).toContain('may cancel payments');
  });

  test('a payment this service cannot cancel: the portal, its pgCno ready to copy, no Cancel', async () => {
    const { agent } = await signIn('admin', 'admin');
    const card = approvalNotification({ shopOrderNo: uniqueId('ORD-CARD') });
    const posted = await fetch(receiver.notifyUrl, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(card) });
    expect(posted.status).toBe(200);
    const path = `/console/orders/${MALL_ID}/${encodeURIComponent(card.shopOrderNo)}`;
    const page = await agent.get(path).set('Host', HOST).expect(200);
    expect(page.text).toContain(`data-copy="${card.pgCno}"`);
    expect(page.text).toContain('cancel it in the gateway&#39;s merchant portal');
    expect(page.text).not.toMatch(/class="filters cancel-form"/);
    await agent.get(`${path}/cancel?pgCno=${card.pgCno}&type=full`).set('Host', HOST).expect(400);
  });
});
