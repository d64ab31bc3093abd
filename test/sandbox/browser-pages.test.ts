import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { post, sandboxForTests, tradeBody } from './sandbox-fixtures';

describe("the sandbox's pages, as a browser uses them", () => {
  let sandbox: RunningSandbox;
  beforeEach(async () => {
    sandbox = await sandboxForTests();
  });
  afterEach(() => sandbox.stop());

  const form = (path: string, origin: string | null, body = '') =>
    fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(origin === null ? {} : { Origin: origin }) },
      body,
    });
  const tokenOf = async () => new URL(String((await post(`${sandbox.url}/api/trades/wallet-a`, tradeBody())).body.paymentPageUrl)).pathname.split('/').pop()!;

  test('the timeline shows Korean time with its zone, as the console does, and the UTC instant on hover', async () => {
    await post(`${sandbox.url}/api/trades/wallet-a`, tradeBody());
    const [call] = sandbox.context.timeline.entries();
    const kst = new Date(Date.parse(call!.at) + 9 * 3600_000).toISOString().slice(11, 23);
    const page = await (await fetch(`${sandbox.url}/sandbox/timeline`)).text();
    expect(page).toContain(`${kst} KST`);
    expect(page).toContain(`title="${call!.at}"`);
  });

  test.each([
    ['another site', 'http://evil.example'],
    ['an opaque origin (sandboxed frame)', 'null'],
  ])('a form posted from %s is refused with 403 and changes nothing', async (_, origin) => {
    const token = await tokenOf();
    expect((await form(`/pay/${token}/pay`, origin)).status).toBe(403);
    expect([...sandbox.context.ledger.trades.values()][0]!.state).toBe('created');
    expect((await form('/sandbox/scenarios', origin, 'operation=wallet-a.create&kind=timeout')).status).toBe(403);
    expect(sandbox.context.scenarios.pending()).toEqual([]);
  });

  test("the sandbox's own pages still work, and a program's call (no Origin) still reaches the gateway's services", async () => {
    const token = await tokenOf();
    expect((await form(`/pay/${token}/pay`, sandbox.url)).status).toBe(303);
    expect([...sandbox.context.ledger.trades.values()][0]!.state).not.toBe('created');
    expect((await form('/sandbox/scenarios', sandbox.url, 'operation=wallet-a.create&kind=timeout')).status).toBe(303);
    expect(sandbox.context.scenarios.pending()).toHaveLength(1);
    expect((await form('/sandbox/scenarios/clear', null)).status).toBe(303);
    expect(sandbox.context.scenarios.pending()).toEqual([]);
  });
});
