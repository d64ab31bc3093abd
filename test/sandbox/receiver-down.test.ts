import { createServer } from 'node:net';
import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { eventually } from '../helpers/eventually';
import { notificationsIn, post, receiverForSandbox, sandboxForTests, settledNotifications, tradeBody, type ListeningReceiver } from './sandbox-fixtures';

/** A port nobody listens on yet: the receiver will come up on it later. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("the sandbox's retry schedule against a receiver that is down, then up", () => {
  let receiver: ListeningReceiver;
  let sandbox: RunningSandbox;
  afterEach(async () => {
    await sandbox?.stop();
    await receiver?.shutdown();
  });

  test('the approval is retried while the receiver is down and lands once when it is back', async () => {
    receiver = await receiverForSandbox();
    const port = await freePort();
    const notifyUrl = `http://127.0.0.1:${port}${receiver.config.NOTIFY_PATH}`;
    // Wide enough between tries that the receiver is surely up before the tenth.
    sandbox = await sandboxForTests({ schedule: { intervalMs: 150 } });
    const order = tradeBody({ notifyUrl });
    const trade = await post(`${sandbox.url}/api/trades/wallet-a`, order);
    await fetch(`${String(trade.body.paymentPageUrl)}/pay`, { method: 'POST', redirect: 'manual' });

    await eventually(() => (notificationsIn(sandbox.context.timeline.entries())[0]?.attempts.length ?? 0) >= 2, 10_000, 'two refused tries');
    await receiver.listen(port);

    const [approval] = await settledNotifications(sandbox, 1);
    expect(approval!.state).toBe('acked');
    const verdicts = approval!.attempts.map((a) => a.verdict);
    expect(verdicts.slice(0, 2)).toEqual(['error', 'error']);
    expect(verdicts.at(-1)).toBe('acked');
    expect(verdicts.filter((v) => v === 'acked')).toHaveLength(1);

    const events = await receiver.forwarded(1);
    expect(events.filter((e) => e.shopOrderNo === order.shopOrderNo)).toEqual([expect.objectContaining({ type: 'payment.approved' })]);
    expect(await receiver.count('inbox')).toBe(1);
  });
});
