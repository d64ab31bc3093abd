import { startCommandWorker, type CommandWorker } from '../../src/commands/command-worker';
import type { CommandKind } from '../../src/store/command-types';
import { eventually } from '../helpers/eventually';
import { createTestSchema, describePostgres } from '../store/pg-test-database';
import { startApiHarness, tradeCreation, vanApproval, walletCancel, type ApiHarness } from './api-harness';
import { gate, PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';

/** Commands each resend lane works at a time in these tests: every lane is full with this many held calls. */
const SLOTS = 4;

/** Where the worker sends a due command of each kind (a working approval is net-cancelled). */
const LANE_PATHS: Record<CommandKind, string> = {
  'wallet-a.create': PATHS.trade,
  'wallet-b.cancel': PATHS.revise,
  'van.cancel': PATHS.vanCancel,
  'van.approve': PATHS.netCancel,
};

/**
 * Resends and net-cancels the gateway holds open, lane by lane, and the calls that must not
 * wait behind them. The held calls never time out here (GATEWAY_TIMEOUT_MS is a minute): only
 * the gate the test opens at the end ends them.
 */
describe('a payment call never queues behind held resends or net-cancels (SQLite)', () => heldLanes(async () => ({})));
describePostgres('a payment call never queues behind held resends or net-cancels (PostgreSQL)', () =>
  heldLanes(async () => {
    const schema = await createTestSchema();
    return { env: { DATABASE_URL: schema.url }, drop: schema.drop };
  }));

function heldLanes(database: () => Promise<{ env?: Record<string, string>; drop?: () => Promise<void> }>): void {
  let gateway: FakeGateway;
  let api: ApiHarness;
  let worker: CommandWorker | null = null;
  let held: ReturnType<typeof gate>;
  let drop: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    held = gate();
    gateway = await startFakeGateway();
    const db = await database();
    drop = db.drop;
    api = await startApiHarness(gateway, { GATEWAY_TIMEOUT_MS: '60000', ...db.env }, { worker: false });
  });
  afterEach(async () => {
    held.open();
    await worker?.stop(5_000);
    worker = null;
    await api.close();
    await gateway.close();
    await drop?.();
  });

  /**
   * Commands of `kind` already due, as a restart or a round of A213s leaves them. The gateway
   * holds the first SLOTS, which fill a resend lane; net-cancels have room for all, so all are held.
   */
  async function holdLane(kind: CommandKind, count = SLOTS + 2): Promise<string[]> {
    const ids = Array.from({ length: count }, (_, i) => `due-${kind}-${i}`);
    const at = new Date(Date.now() - 1_000).toISOString();
    for (const id of ids) {
      const request = kind === 'wallet-b.cancel' ? walletCancel({ shopTransactionId: id }) : kind === 'wallet-a.create' ? tradeCreation({ shopTransactionId: id }) : vanApproval({ shopTransactionId: id });
      await api.commands.createCommand({ kind, shopTransactionId: id, mallId: 'T0001234', bodyHash: `h-${id}`, request, state: 'pending', at, owner: 'a-process-that-died', leaseUntil: 0 });
    }
    gateway.script(LANE_PATHS[kind], ...Array.from({ length: kind === 'van.approve' ? count : SLOTS }, () => ({ until: held.opened })));
    return ids;
  }

  const startWorker = () => (worker = startCommandWorker(api.deps, { pollMs: 20, batchSize: SLOTS }));
  const stillPending = async (ids: string[]) => (await Promise.all(ids.map((id) => api.commands.getCommand(id)))).every((c) => c && c.state !== 'succeeded' && c.state !== 'net_cancelled');

  it('with every lane full of held calls, each POST is answered at once by a gateway that answers it', async () => {
    const due = (await Promise.all((Object.keys(LANE_PATHS) as CommandKind[]).map((kind) => holdLane(kind)))).flat();
    startWorker();
    for (const path of Object.values(LANE_PATHS)) await gateway.waitForCalls(path, SLOTS);

    const approval = await api.post('/v1/van/approvals', vanApproval({ shopTransactionId: 'new-approval' })).expect(200);
    expect(approval.body).toMatchObject({ state: 'approved', attempts: 1 });
    expect((await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'new-cancel' })).expect(200)).body.state).toBe('succeeded');
    expect((await api.post('/v1/van/cancellations', vanApproval({ shopTransactionId: 'new-van-cancel' })).expect(200)).body.state).toBe('succeeded');
    expect((await api.post('/v1/wallet-a/trades', tradeCreation({ shopTransactionId: 'new-trade' })).expect(200)).body.state).toBe('succeeded');
    // All of it while every held call was still held.
    expect(await stillPending(due)).toBe(true);

    held.open();
    await eventually(async () => (await api.commands.listCommands({})).every((c) => c.state === 'succeeded' || c.state === 'approved' || c.state === 'net_cancelled'), 20_000);
  });

  it("a VAN approval's first attempt starts at once while resends, net-cancels and cancellations are held", async () => {
    const due = [...(await holdLane('wallet-b.cancel')), ...(await holdLane('van.cancel')), ...(await holdLane('van.approve'))];
    startWorker();
    for (const kind of ['wallet-b.cancel', 'van.cancel', 'van.approve'] as const) await gateway.waitForCalls(LANE_PATHS[kind], SLOTS);

    gateway.script(PATHS.approve, { reset: true });
    const body = vanApproval({ shopTransactionId: 'in-doubt' });
    const res = await api.post('/v1/van/approvals', body).expect(202);
    expect(res.body).toMatchObject({ state: 'net_cancelling', attempts: 1 });
    expect(gateway.calls(PATHS.approve).map((c) => c.body)).toEqual([body]);
    expect(await stillPending(due)).toBe(true);
  });

  it('an approval in doubt gets its net-cancel at once while more net-cancels than a resend lane has slots are held', async () => {
    const due = await holdLane('van.approve', 5 * SLOTS);
    startWorker();
    await gateway.waitForCalls(PATHS.netCancel, 5 * SLOTS);

    gateway.script(PATHS.approve, { reset: true });
    const body = vanApproval({ shopTransactionId: 'doubt-behind-held' });
    await api.post('/v1/van/approvals', body).expect(202);
    const calls = await gateway.waitForCalls(PATHS.netCancel, 5 * SLOTS + 1);
    expect(calls.at(-1)!.body).toEqual(body);
    await eventually(async () => (await api.commands.getCommand('doubt-behind-held'))?.state === 'net_cancelled');
    expect(await stillPending(due)).toBe(true);
  });

  it("a trade's resend goes out while wallet-b resends fill their lane, and its POST answers with the result", async () => {
    const due = await holdLane('wallet-b.cancel');
    startWorker();
    await gateway.waitForCalls(PATHS.revise, SLOTS);

    gateway.script(PATHS.trade, { reset: true });
    const res = await api.post('/v1/wallet-a/trades', tradeCreation({ shopTransactionId: 'trade-resent' })).expect(200);
    expect(res.body).toMatchObject({ state: 'succeeded', attempts: 2 });
    expect(await stillPending(due)).toBe(true);
  });

  it("a VAN cancellation's resend goes out while wallet-b resends fill their lane", async () => {
    const due = await holdLane('wallet-b.cancel');
    startWorker();
    await gateway.waitForCalls(PATHS.revise, SLOTS);

    gateway.script(PATHS.vanCancel, { reset: true });
    await api.post('/v1/van/cancellations', vanApproval({ shopTransactionId: 'van-cancel-resent' })).expect(202);
    await eventually(async () => (await api.commands.getCommand('van-cancel-resent'))?.state === 'succeeded');
    expect(gateway.calls(PATHS.vanCancel)).toHaveLength(2);
    expect(await stillPending(due)).toBe(true);
  });

  it('a wallet-b resend goes out while trade resends fill their lane', async () => {
    const due = await holdLane('wallet-a.create');
    startWorker();
    await gateway.waitForCalls(PATHS.trade, SLOTS);

    gateway.script(PATHS.revise, { answer: { resCd: 'A213', resMsg: 'busy' } });
    await api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'cancel-resent' })).expect(202);
    await eventually(async () => (await api.commands.getCommand('cancel-resent'))?.state === 'succeeded');
    expect(await stillPending(due)).toBe(true);
  });
}
