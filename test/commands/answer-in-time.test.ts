import { ANSWER_MARGIN_MS } from '../../src/commands/answer-deadline';
import type { CommandStore } from '../../src/store/command-store';
import { eventually } from '../helpers/eventually';
import { startApiHarness, tradeCreation, vanApproval, walletCancel, type ApiHarness } from './api-harness';
import { gate, PATHS, startFakeGateway, type FakeGateway } from './fake-gateway';

/** Long enough for a loaded machine to answer a live call; the bound under test is this plus ANSWER_MARGIN_MS. */
const TIMEOUT_MS = 1_500;

/** A request's answer and what the test knew when it came. */
async function timed<T>(request: PromiseLike<T>, seen: () => boolean): Promise<{ res: T; ms: number; sawRelease: boolean }> {
  const started = Date.now();
  const res = await request;
  return { res, ms: Date.now() - started, sawRelease: seen() };
}

describe('every POST answers within GATEWAY_TIMEOUT_MS plus a small margin', () => {
  let gateway: FakeGateway;
  let api: ApiHarness;
  let held: ReturnType<typeof gate>;
  let released = false;
  beforeEach(async () => {
    held = gate();
    released = false;
    gateway = await startFakeGateway();
    api = await startApiHarness(gateway, { GATEWAY_TIMEOUT_MS: String(TIMEOUT_MS) });
  });
  afterEach(async () => {
    held.open();
    await api.close();
    await gateway.close();
  });
  const release = () => {
    released = true;
    held.open();
  };

  it('with three wallet-b cancellations held open by the gateway, a fourth held too is answered 202 at its own time-out', async () => {
    gateway.script(PATHS.revise, ...Array.from({ length: 4 }, () => ({ until: held.opened })));
    const first = [1, 2, 3].map((i) => api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: `held-${i}` })).then((r) => r));
    await gateway.waitForCalls(PATHS.revise, 3);

    const fourth = await timed(api.post('/v1/wallet-b/cancellations', walletCancel({ shopTransactionId: 'fourth' })), () => released);
    expect(fourth.sawRelease).toBe(false);
    expect(fourth.res.status).toBe(202);
    expect(fourth.res.headers.location).toBe('/v1/commands/fourth');
    expect(fourth.res.body).toMatchObject({ state: 'pending', attempts: 1, lastError: `time-out after ${TIMEOUT_MS} ms` });
    expect(fourth.ms).toBeLessThan(TIMEOUT_MS + ANSWER_MARGIN_MS + 5_000);
    for (const res of await Promise.all(first)) expect(res.status).toBe(202);
    release();
  });

  it('a trade still resending when its time is up is answered 202 with its Location, and ends on its own', async () => {
    gateway.script(PATHS.trade, ...Array.from({ length: 4 }, () => ({ hang: true as const })));
    const { res, ms } = await timed(api.post('/v1/wallet-a/trades', tradeCreation({ shopTransactionId: 'slow-trade' })), () => released);
    // Before its four attempts could end: the answer does not wait on resends.
    expect(gateway.calls(PATHS.trade).length).toBeLessThan(4);
    expect(ms).toBeLessThan(4 * TIMEOUT_MS);
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe('/v1/commands/slow-trade');
    expect(res.body).toMatchObject({ command: 'wallet-a.create', state: 'pending' });

    const done = await eventually(async () => {
      const command = await api.commands.getCommand('slow-trade');
      return command?.state === 'failed' && command;
    }, 20_000);
    expect(done.attempts).toBe(4);
    expect(gateway.calls(PATHS.trade)).toHaveLength(4);
  });

  it('every POST whose first attempt has not ended (its outcome not yet recorded) answers 202, and the outcome is recorded after', async () => {
    // The gateway answers at once; recording the answer is what hangs.
    const real: CommandStore = api.commands;
    api.deps.store = {
      ...real,
      finishAttempt: async (finish) => {
        await held.opened;
        return real.finishAttempt(finish);
      },
    };
    const calls: Array<[string, string, object]> = [
      ['/v1/wallet-a/trades', 'rec-trade', tradeCreation({ shopTransactionId: 'rec-trade' })],
      ['/v1/wallet-b/cancellations', 'rec-cancel', walletCancel({ shopTransactionId: 'rec-cancel' })],
      ['/v1/van/approvals', 'rec-approval', vanApproval({ shopTransactionId: 'rec-approval' })],
      ['/v1/van/cancellations', 'rec-van-cancel', vanApproval({ shopTransactionId: 'rec-van-cancel' })],
    ];
    const answers = await Promise.all(calls.map(([path, , body]) => timed(api.post(path, body), () => released)));
    for (const [i, { res, sawRelease, ms }] of answers.entries()) {
      const id = calls[i]![1];
      expect(sawRelease).toBe(false);
      expect(res.status).toBe(202);
      expect(res.headers.location).toBe(`/v1/commands/${id}`);
      // Recorded before the first byte was sent, and the attempt marked begun.
      expect(res.body).toMatchObject({ shopTransactionId: id, state: 'pending', attempts: 1 });
      expect(ms).toBeLessThan(TIMEOUT_MS + ANSWER_MARGIN_MS + 5_000);
    }

    // What shutdown waits for (bounded) before it stops the worker and closes the store: once it
    // resolves, every outcome is recorded.
    const inFlight = api.deps.inFlight.settled(30_000);
    release();
    await inFlight;
    const states = (await Promise.all(calls.map(([, id]) => real.getCommand(id)))).map((c) => c!.state);
    expect(states).toEqual(['succeeded', 'succeeded', 'approved', 'succeeded']);
    // One send each: the answered approval is not net-cancelled, nothing resent.
    expect(gateway.calls().map((c) => c.path).sort()).toEqual([PATHS.approve, PATHS.vanCancel, PATHS.trade, PATHS.revise].sort());
  });
});
