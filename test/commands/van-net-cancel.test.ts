import { eventually } from '../helpers/eventually';
import { PATHS, startFakeGateway, type Behaviour, type FakeGateway } from './fake-gateway';
import request from 'supertest';
import { createApiApp } from '../../src/api/api-app';
import type { CommandStore } from '../../src/store/command-store';
import { StoreUnavailable } from '../../src/store/store';
import { API_TOKEN, startApiHarness, TEST_TIMEOUT_MS, vanApproval, type ApiHarness } from './api-harness';

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('a VAN approval whose outcome is unknown is net-cancelled', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  beforeEach(async () => {
    gateway = await startFakeGateway();
    api = await startApiHarness(gateway);
  });
  afterEach(async () => {
    await api.close();
    await gateway.close();
  });

  it.each<[string, Behaviour, string]>([
    ['times out', { hang: true }, `time-out after ${TEST_TIMEOUT_MS} ms`],
    ['has its connection reset', { reset: true }, 'network error: '],
    ['gets no parsable answer', { raw: 'Service Unavailable', status: 503 }, "HTTP 503 without the gateway's JSON answer"],
    ['gets JSON that is not the gateway answer', { answer: { error: 'bad gateway' }, status: 502 }, "HTTP 502 without the gateway's JSON answer"],
  ])('an approval that %s gets exactly one net-cancel with its own body', async (_case, behaviour, error) => {
    gateway.script(PATHS.approve, behaviour);
    const body = vanApproval({ shopTransactionId: `nc-${Math.random().toString(36).slice(2, 8)}` });
    const res = await api.post('/v1/van/approvals', body).expect(202);
    expect(res.headers.location).toBe(`/v1/commands/${body.shopTransactionId}`);
    expect(res.body).toMatchObject({ state: 'net_cancelling', attempts: 1 });
    expect(res.body.lastError).toContain(error);

    const done = await eventually(async () => {
      const command = await api.commands.getCommand(body.shopTransactionId);
      return command?.state === 'net_cancelled' && command;
    });
    expect(done.attempts).toBe(2);
    await settle();
    expect(gateway.calls(PATHS.approve)).toHaveLength(1);
    expect(gateway.calls(PATHS.netCancel).map((c) => c.body)).toEqual([body]);
    expect((await api.commands.listAttempts(body.shopTransactionId)).map((a) => a.operation)).toEqual(['van.approve', 'van.net-cancel']);
  });

  it('resends the net-cancel while it times out, until the gateway answers', async () => {
    gateway.script(PATHS.approve, { hang: true });
    gateway.script(PATHS.netCancel, { hang: true }, { reset: true }, { answer: { resCd: 'A213', resMsg: 'busy' } });
    const body = vanApproval({ shopTransactionId: 'nc-resend' });
    await api.post('/v1/van/approvals', body).expect(202);
    // A213 is an answer: for a net-cancel any resCd other than 0000 is final.
    const done = await eventually(async () => {
      const command = await api.commands.getCommand('nc-resend');
      return command?.state === 'net_cancel_failed' && command;
    });
    expect(done.attempts).toBe(4);
    expect(gateway.calls(PATHS.netCancel)).toHaveLength(3);
  });

  it('a net-cancel answered 0000 after time-outs ends net_cancelled, and nothing more is sent', async () => {
    gateway.script(PATHS.approve, { reset: true });
    gateway.script(PATHS.netCancel, { hang: true }, { hang: true });
    await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'nc-late' })).expect(202);
    await eventually(async () => (await api.commands.getCommand('nc-late'))?.state === 'net_cancelled');
    await settle();
    expect(gateway.calls(PATHS.netCancel)).toHaveLength(3);
  });

  it('a refused net-cancel is net_cancel_failed: logged as an error, counted, and queued as van.net_cancel.failed', async () => {
    gateway.script(PATHS.approve, { hang: true });
    gateway.script(PATHS.netCancel, { answer: { resCd: 'V900', resMsg: 'original not found' } });
    await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'nc-refused' })).expect(202);
    await eventually(async () => (await api.commands.getCommand('nc-refused'))?.state === 'net_cancel_failed');

    const [event] = await eventually(() => api.forwarded().length > 0 && api.forwarded());
    expect(event).toMatchObject({ type: 'van.net_cancel.failed', data: { shopTransactionId: 'nc-refused', state: 'net_cancel_failed', response: { resCd: 'V900' } } });
    // The relay may forward the event before the attempt's log line is written: both follow the same commit.
    await eventually(() => api.logs().some((line) => line.includes('"level":"error"') && line.includes('nc-refused')));
    const metrics = await api.metrics.registry.metrics();
    expect(metrics).toMatch(/noti_receiver_commands_net_cancel_failed 1/);
    expect(metrics).toMatch(/noti_receiver_net_cancels_total\{outcome="net_cancel_failed"\} 1/);
    expect(metrics).toMatch(/noti_receiver_commands_total\{kind="van.approve",state="net_cancel_failed"\} 1/);
  });

  it('gives up the net-cancel after GATEWAY_MAX_ATTEMPTS unanswered tries', async () => {
    gateway.script(PATHS.approve, { hang: true });
    gateway.script(PATHS.netCancel, ...Array<Behaviour>(5).fill({ reset: true }));
    await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'nc-spent' })).expect(202);
    const done = await eventually(async () => {
      const command = await api.commands.getCommand('nc-spent');
      return command?.state === 'net_cancel_failed' && command;
    });
    // One approval, then the budget of five net-cancels.
    expect(done.attempts).toBe(6);
    expect(gateway.calls(PATHS.netCancel)).toHaveLength(5);
  });
});

describe('an answered approval', () => {
  it('is recorded as approved through a brief store outage, and never net-cancelled', async () => {
    const gateway = await startFakeGateway();
    const api = await startApiHarness(gateway);
    try {
      let failures = 2;
      const flaky: CommandStore = {
        ...api.commands,
        finishAttempt: (finish) => (failures-- > 0 ? Promise.reject(new StoreUnavailable('disk busy')) : api.commands.finishAttempt(finish)),
      };
      const app = createApiApp({ commands: { ...api.deps, store: flaky }, apiToken: API_TOKEN });
      const res = await request(app).post('/v1/van/approvals').set('Authorization', `Bearer ${API_TOKEN}`).send(vanApproval({ shopTransactionId: 'flaky-1' })).expect(200);
      expect(res.body.state).toBe('approved');
      await settle();
      expect(gateway.calls(PATHS.netCancel)).toHaveLength(0);
    } finally {
      await api.close();
      await gateway.close();
    }
  });
});

describe('a VAN approval found in doubt at start', () => {
  it('is net-cancelled by the next process even though it never heard back', async () => {
    const gateway = await startFakeGateway();
    gateway.script(PATHS.approve, { hang: true });
    // A process that stored the approval and began it, then died: its lease is left behind.
    const first = await startApiHarness(gateway, { GATEWAY_TIMEOUT_MS: '60000' }, { worker: false });
    const pending = first.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'doubt-1' })).then(() => undefined, () => undefined);
    await gateway.waitForCalls(PATHS.approve, 1);
    const stored = await first.commands.getCommand('doubt-1');
    expect(stored).toMatchObject({ state: 'pending', attempts: 1 });
    expect((await first.commands.listAttempts('doubt-1'))[0]!.finishedAt).toBeNull();

    const second = await startApiHarness(gateway, {}, { dir: first.dir });
    try {
      await eventually(async () => (await second.commands.getCommand('doubt-1'))?.state === 'net_cancelled');
      expect(gateway.calls(PATHS.netCancel)).toHaveLength(1);
    } finally {
      await second.stop();
      await gateway.close();
      await pending;
      await first.close();
    }
  });
});
