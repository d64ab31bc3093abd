import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { sandboxCommand } from '../../src/sandbox/sandbox-command';
import type { CallEntry } from '../../src/sandbox/timeline';
import { ACK, scriptedReceiver } from '../simulator/fake-gateway-peer';
import { MALL_ID, notificationsIn, post, sandboxForTests, settledNotifications, uniqueId } from './sandbox-fixtures';

const unionPay = (overrides: Record<string, unknown> = {}) => ({ mallId: MALL_ID, shopTransactionId: uniqueId('van'), amount: '5000', cardNo: '6212345678901234', ...overrides });

describe('a UnionPay VAN approval with nowhere to send its notification 70', () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(async () => {
    await sandbox?.stop();
    sandbox = undefined;
  });

  it('is approved, and its answer (kept in the timeline and a resend) says why no notification comes', async () => {
    sandbox = await sandboxForTests({ defaultNotifyUrl: null });
    const body = unionPay();
    const answer = await post(`${sandbox.url}/smpy/vanpay/reqAprv`, body);
    expect(answer.body).toMatchObject({ resCd: '0000', sandboxNotice: expect.stringContaining('no notifyUrl') });
    expect(String(answer.body.sandboxNotice)).toContain('--notify-url');
    expect(notificationsIn(sandbox.context.timeline.entries())).toEqual([]);
    const call = sandbox.context.timeline.entries().find((e): e is CallEntry => e.kind === 'call')!;
    expect(call.answer).toMatchObject({ sandboxNotice: answer.body.sandboxNotice });
    expect((await post(`${sandbox.url}/smpy/vanpay/reqAprv`, body)).body).toEqual(answer.body);
  });

  it('goes to --notify-url when the body names none, with no notice', async () => {
    const receiver = await scriptedReceiver((_, isForm) => (isForm ? ACK.form : ACK.json));
    try {
      sandbox = await sandboxForTests({ defaultNotifyUrl: receiver.url });
      const answer = await post(`${sandbox.url}/smpy/vanpay/reqAprv`, unionPay());
      expect(answer.body.resCd).toBe('0000');
      expect(answer.body).not.toHaveProperty('sandboxNotice');
      const [sent] = await settledNotifications(sandbox, 1);
      expect(sent).toMatchObject({ notiType: '70', url: receiver.url, state: 'acked' });
    } finally {
      await sandbox?.stop();
      sandbox = undefined;
      await receiver.close();
    }
  });

  it('a card that is not UnionPay brings no notification 70 anyway, and no notice', async () => {
    sandbox = await sandboxForTests({ defaultNotifyUrl: null });
    const answer = await post(`${sandbox.url}/smpy/vanpay/reqAprv`, unionPay({ cardNo: '4111111111111111' }));
    expect(answer.body.resCd).toBe('0000');
    expect(answer.body).not.toHaveProperty('sandboxNotice');
  });
});

describe("the sandbox's start lines", () => {
  async function startLines(args: string[]): Promise<string> {
    let printed = '';
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const run = sandboxCommand({ env: {}, stdout: (text) => { printed += text; stop(); }, stopped: () => stopped }).parseAsync(['--port', '0', ...args], { from: 'user' });
    await run;
    return printed;
  }

  it('say where a call without notifyUrl is notified, or that without --notify-url it is not', async () => {
    expect(await startLines([])).toContain('no --notify-url: a call that names no notifyUrl (a VAN approval usually does not) gets no notification');
    expect(await startLines(['--notify-url', 'http://127.0.0.1:9/notifications'])).toContain('is notified at http://127.0.0.1:9/notifications');
  });
});
