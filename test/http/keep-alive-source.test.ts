import { once } from 'node:events';
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { DEV_GATEWAY_IP, startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

/**
 * The source check judges a socket's peer once per connection; these speak through one real
 * keep-alive connection, so they test the listener itself.
 */
describe('source check on one keep-alive connection', () => {
  let receiver: TestReceiver;
  let server: Server;
  let agent: Agent;

  async function listen(env: Record<string, string>): Promise<void> {
    receiver = await startTestReceiver(env, { relay: false });
    server = receiver.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  }

  afterEach(async () => {
    agent?.destroy();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await receiver?.close();
  });

  /** POSTs a fresh approval; answers its status and the client port, which names the connection. */
  function post(forwardedFor?: string): Promise<{ status: number; connection: number }> {
    const body = JSON.stringify(approvalNotification());
    return new Promise((resolve, reject) => {
      const req = request({
        agent,
        port: (server.address() as AddressInfo).port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/notifications',
        headers: { 'Content-Type': 'application/json', ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, connection: req.socket!.localPort! }));
      });
      req.end(body);
    });
  }

  it("a trusted proxy's X-Forwarded-For is judged on every request, not once per connection", async () => {
    await listen({ TRUST_PROXY: '127.0.0.1' });
    // A refusal closes the connection (its body is never read), so each pair ends with the one refused.
    for (const second of ['198.51.100.7', undefined]) {
      const answers = [await post(DEV_GATEWAY_IP), await post(second)];
      expect(answers.map((a) => a.status)).toEqual([200, 403]);
      expect(answers[0]!.connection).toBe(answers[1]!.connection);
    }
    expect(await receiver.count('inbox')).toBe(2);
  });

  it("an allowed peer that is no proxy stays allowed whatever its requests claim; a refused one stays refused", async () => {
    await listen({ TRUST_PROXY: '', EXTRA_ALLOWED_IPS: '127.0.0.1' });
    const allowed = [await post('198.51.100.7'), await post(undefined)];
    expect(allowed.map((a) => a.status)).toEqual([200, 200]);
    expect(allowed[0]!.connection).toBe(allowed[1]!.connection);
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await receiver.close();

    await listen({ TRUST_PROXY: '' });
    const refused = [await post(DEV_GATEWAY_IP), await post(undefined), await post(DEV_GATEWAY_IP)];
    expect(refused.map((a) => a.status)).toEqual([403, 403, 403]);
    expect(await receiver.count('inbox')).toBe(0);
  });
});
