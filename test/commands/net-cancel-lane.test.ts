import { eventually } from '../helpers/eventually';
import { startCommandWorker, type CommandWorker } from '../../src/commands/command-worker';
import { HMAC_KEY, startApiHarness, vanApproval, walletCancel, type ApiHarness } from './api-harness';
import { gate, PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';

describe('a net-cancel never waits behind other commands', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  let worker: CommandWorker | null = null;
  let slow: ReturnType<typeof gate>;
  beforeEach(async () => {
    slow = gate();
    gateway = await startFakeGateway({ hmacKey: HMAC_KEY });
    // The worker is started by the test, once the resends are due; a held call never times out here.
    api = await startApiHarness(gateway, { GATEWAY_TIMEOUT_MS: '60000' }, { worker: false });
  });
  afterEach(async () => {
    slow.open();
    await worker?.stop(5_000);
    await api.close();
    await gateway.close();
  });

  it('an approval in doubt gets its reqRtran while a full round of resends is held by a slow gateway', async () => {
    const cancellations = Array.from({ length: 20 }, (_, i) => `slow-${i}`);
    // Each cancellation's first answer asks for a resend; every resend is then held until the gate opens.
    gateway.script(PATHS.revise, ...cancellations.map(() => ({ answer: { resCd: 'A213', resMsg: 'busy' } })));
    gateway.script(PATHS.revise, ...cancellations.map(() => ({ until: slow.opened })));
    for (const id of cancellations) {
      await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: id })).expect(202);
    }
    // All 20 resends due at once, and a worker that takes as many as it works at a time.
    api.setClockOffset(120_000);
    worker = startCommandWorker(api.deps, { pollMs: 20 });
    await gateway.waitForCalls(PATHS.revise, cancellations.length + 16);

    gateway.script(PATHS.approve, { reset: true });
    const approval = vanApproval({ shopTransactionId: 'in-doubt' });
    await api.post('/v1/van/approvals', approval).expect(202);
    worker.wake();

    const [netCancel] = await gateway.waitForCalls(PATHS.netCancel, 1);
    expect(netCancel!.body).toEqual(approval);
    // Sent while the round was still held: not one resend had its answer yet.
    expect((await api.commands.listCommands({ kind: 'wallet-b.cancel' })).map((c) => c.state)).toEqual(cancellations.map(() => 'pending'));
    await eventually(async () => (await api.commands.getCommand('in-doubt'))?.state === 'net_cancelled');

    slow.open();
    await eventually(async () => (await api.commands.listCommands({ kind: 'wallet-b.cancel' })).every((c) => c.state === 'succeeded'), 20_000);
  });

  it("an approval in doubt gets its reqRtran while another approval's net-cancel is held", async () => {
    worker = startCommandWorker(api.deps, { pollMs: 20 });
    gateway.script(PATHS.approve, { reset: true }, { reset: true });
    gateway.script(PATHS.netCancel, { until: slow.opened });
    await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'held' })).expect(202);
    worker.wake();
    await gateway.waitForCalls(PATHS.netCancel, 1);

    await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'next' })).expect(202);
    worker.wake();
    const calls = await gateway.waitForCalls(PATHS.netCancel, 2);
    expect(calls[1]!.body.shopTransactionId).toBe('next');
    await eventually(async () => (await api.commands.getCommand('next'))?.state === 'net_cancelled');
    expect((await api.commands.getCommand('held'))?.state).toBe('net_cancelling');

    slow.open();
    await eventually(async () => (await api.commands.getCommand('held'))?.state === 'net_cancelled');
  });
});
