import { join } from 'node:path';
import type { CommandRecord } from '../../src/store/command-types';
import { eventually } from '../helpers/eventually';
import { PATHS, startFakeGateway, type FakeGateway } from '../commands/fake-gateway';
import { startApiHarness, vanApproval, walletCancel, type ApiHarness } from '../commands/api-harness';
import { runCliCaptured } from './seeded-receiver';

describe('noti-receiver commands', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  const cli = (args: string[]) => runCliCaptured(args, { DATABASE_URL: `sqlite:${join(api.dir, 'receiver.db')}` });

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApiHarness(gateway);
    gateway.script(PATHS.revise, { answer: { resCd: 'R301', resMsg: 'not now' } });
    await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'cli-failed' })).expect(200);
    await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'cli-approved', cardNo: '4111111111111111' })).expect(200);
  });
  afterAll(async () => {
    await api.close();
    await gateway.close();
  });

  test('list shows every command, --state filters', async () => {
    const all = await cli(['commands', 'list', '--json']);
    expect(all.code).toBe(0);
    expect(all.json<CommandRecord[]>().map((c) => c.shopTransactionId).sort()).toEqual(['cli-approved', 'cli-failed']);
    const failed = (await cli(['commands', 'list', '--json', '--state', 'failed'])).json<CommandRecord[]>();
    expect(failed.map((c) => c.shopTransactionId)).toEqual(['cli-failed']);
    const human = await cli(['commands', 'list']);
    expect(human.stdout).toMatch(/cli-failed\s+wallet-b\.cancel\s+T0001234\s+failed/);
  });

  test('show lists every attempt and masks card numbers for humans', async () => {
    const human = await cli(['commands', 'show', 'cli-approved']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('van.approve');
    expect(human.stdout).toContain('************1111');
    expect(human.stdout).not.toContain('4111111111111111');
    const json = (await cli(['commands', 'show', 'cli-failed', '--json'])).json<{ attempts: Array<{ response: { resCd: string } }> }>();
    expect(json.attempts.map((a) => a.response.resCd)).toEqual(['R301']);
    expect((await cli(['commands', 'show', 'nope'])).code).toBe(1);
  });

  test('retry works a failed command again with the same request, and the worker sends it', async () => {
    const refused = await cli(['commands', 'retry', 'cli-approved']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is approved; only failed and net_cancel_failed commands can be retried/);
    expect((await cli(['commands', 'retry', 'unknown'])).code).toBe(1);

    const result = await cli(['commands', 'retry', 'cli-failed']);
    expect(result.code).toBe(0);
    const done = await eventually(async () => {
      const command = await api.commands.getCommand('cli-failed');
      return command?.state === 'succeeded' && command;
    });
    expect(done.attempts).toBe(2);
    const [first, second] = gateway.calls(PATHS.revise).map((c) => c.body);
    expect(second).toEqual(first);
    const events = await eventually(() => api.forwarded().length >= 2 && api.forwarded());
    expect(events.map((e) => e.type)).toEqual(['wallet.cancel.failed', 'wallet.cancel.succeeded']);
  });
});
