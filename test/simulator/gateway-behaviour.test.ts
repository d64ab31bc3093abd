import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { checkAck } from '../../src/simulator/ack-check';
import { GATEWAY_MAX_TRIES, runSimulation, type SimulationOptions } from '../../src/simulator/run-simulation';
import { ACK, scriptedReceiver } from './fake-gateway-peer';

const options = (url: string, overrides: Partial<SimulationOptions> = {}): SimulationOptions => ({
  url, events: ['10', '20', '70'], count: 2, duplicates: 0, concurrency: 4, gatewayRetries: false, retryIntervalMs: 1, ...overrides,
});

describe('the simulator behaves like the gateway', () => {
  test('with gateway retries, a receiver that answers 503 then 5001 is retried until it acks', async () => {
    const receiver = await scriptedReceiver((tryNumber, isForm) => {
      if (tryNumber === 1) return isForm ? ACK.formFail(503) : ACK.jsonFail(503);
      if (tryNumber === 2) return isForm ? ACK.formFail(200) : ACK.jsonFail(200);
      return isForm ? ACK.form : ACK.json;
    });
    try {
      const summary = await runSimulation(options(receiver.url, { gatewayRetries: true }));
      // Two orders of each story: an approval (1), an approval with two partial cancels (3), a UnionPay form (1).
      expect(summary).toMatchObject({ ok: true, orders: 6, notifications: 10, acked: 10, retried: 20, sent: 30, failed: 0, unexpected: 0 });
      expect(receiver.triesPerBody()).toEqual(Array(10).fill(3));
    } finally {
      await receiver.close();
    }
  });

  test('without retries, a refused notification is reported as never acked', async () => {
    const receiver = await scriptedReceiver((_, isForm) => (isForm ? ACK.formFail(400) : ACK.jsonFail(400)));
    try {
      const summary = await runSimulation(options(receiver.url));
      expect(summary).toMatchObject({ ok: false, sent: 10, acked: 0, failed: 10, unexpected: 0 });
      expect(summary.problems[0]).toContain('never acked after 1 try');
    } finally {
      await receiver.close();
    }
  });

  test('a receiver that is down is tried 10 times, then reported as never acked', async () => {
    const receiver = await scriptedReceiver(() => ACK.json);
    const { url } = receiver;
    await receiver.close();
    const summary = await runSimulation(options(url, { events: ['30'], count: 1, gatewayRetries: true }));
    expect(summary).toMatchObject({ ok: false, sent: GATEWAY_MAX_TRIES, retried: GATEWAY_MAX_TRIES - 1, failed: 1 });
    expect(summary.problems[0]).toContain('network error');
  });

  test('an ack in the wrong form fails the run and the command exits non-zero', async () => {
    // A JSON ack to event 70 is a classic integration bug: the gateway does not read it as success.
    const receiver = await scriptedReceiver(() => ACK.json);
    try {
      const summary = await runSimulation(options(receiver.url, { events: ['10', '70'] }));
      expect(summary).toMatchObject({ ok: false, unexpected: 2, failed: 2 });
      expect(summary.byType['10']).toMatchObject({ acked: 2, unexpected: 0 });
      expect(summary.byType['70']).toMatchObject({ acked: 0, unexpected: 2 });

      const cli = join(__dirname, '..', '..', 'dist', 'simulator', 'simulate-cli.js');
      const run = promisify(execFile)(process.execPath, [cli, '--url', receiver.url, '--event', '70']);
      await expect(run).rejects.toMatchObject({ code: 1, stdout: expect.stringContaining('unexpected ack') });
    } finally {
      await receiver.close();
    }
  });
});

describe('checkAck', () => {
  const bytes = (text: string) => Buffer.from(text, 'latin1');

  test('event 70 is acked only by the exact 0x1F-separated bytes with HTTP 200', () => {
    expect(checkAck('form', 200, bytes('res_cd=0000\x1fres_msg=SUCCESS'))).toEqual({ kind: 'acked' });
    expect(checkAck('form', 200, bytes('res_cd=0000&res_msg=SUCCESS')).kind).toBe('unexpected');
    expect(checkAck('form', 200, bytes('res_cd=0000\x1fres_msg=SUCCESS\n')).kind).toBe('unexpected');
    expect(checkAck('form', 500, bytes('res_cd=0000\x1fres_msg=SUCCESS')).kind).toBe('unexpected');
    expect(checkAck('form', 503, bytes('res_cd=5001\x1fres_msg=FAIL')).kind).toBe('refused');
  });

  test('JSON events are acked by resCd 0000 with HTTP 200; a proxy error page is a refusal to retry', () => {
    expect(checkAck('json', 200, bytes('{"resCd":"0000","resMsg":"ok"}'))).toEqual({ kind: 'acked' });
    expect(checkAck('json', 200, bytes('OK')).kind).toBe('unexpected');
    expect(checkAck('json', 201, bytes('{"resCd":"0000"}')).kind).toBe('unexpected');
    expect(checkAck('json', 200, bytes('{"resCd":"5001"}')).kind).toBe('refused');
    expect(checkAck('json', 502, bytes('<html>Bad Gateway</html>')).kind).toBe('refused');
  });
});
