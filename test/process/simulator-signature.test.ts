import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';

const CLI = join(__dirname, '..', '..', 'dist', 'simulator', 'simulate-cli.js');
const API_TOKEN = 'process-simulator-token-4d81b27c9e';
const DEV_GATEWAY_IP = '61.33.205.151';

/** `npm run simulate` as an operator runs it, with only `env` as its environment. */
function simulate(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((done) => child.on('exit', (code) => done({ code, stderr })));
}

/**
 * The built service keys the simulator's mark from its own API_TOKEN, and the simulator signs with
 * the API_TOKEN in its environment: with the receiver's, its orders are simulated; with another, or
 * with none, they are real (and the simulator says so).
 */
describe('the simulator signs with the receiver\'s own token', () => {
  let dir: string;
  let receiver: SpawnedReceiver;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-sim-signature-'));
    receiver = await spawnReceiver(dir, { API_TOKEN, QUEUE_URL: `file:${join(dir, 'events.ndjson')}`, DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}` });
  });
  afterAll(async () => {
    receiver.child.kill('SIGKILL');
    await receiver.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  const orders = async () => {
    const answer = await fetch(`http://127.0.0.1:${receiver.apiPort}/v1/orders?limit=500`, { headers: { Authorization: `Bearer ${API_TOKEN}` } });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { orders: Array<{ shopOrderNo: string; simulated?: true }> }).orders;
  };
  const run = (env: Record<string, string>) => simulate(env, '--url', receiver.url, '--event', '10,70', '--forwarded-for', DEV_GATEWAY_IP);

  test("with the receiver's API_TOKEN every order is simulated; with another or none, every order is real, and it says so", async () => {
    const signed = await run({ API_TOKEN });
    expect(signed).toMatchObject({ code: 0 });
    expect(signed.stderr).not.toMatch(/neither API_TOKEN nor ADMIN_TOKEN/);
    const marked = await orders();
    expect(marked).toHaveLength(2);
    expect(marked.every((o) => o.simulated === true)).toBe(true);

    expect(await run({ API_TOKEN: 'another-receivers-token-8f2d61c3' })).toMatchObject({ code: 0 });
    const unsigned = await run({});
    expect(unsigned.code).toBe(0);
    expect(unsigned.stderr).toMatch(/^simulate: neither API_TOKEN nor ADMIN_TOKEN is set: the receiver takes these orders for real ones/);
    const all = await orders();
    expect(all).toHaveLength(6);
    const known = new Set(marked.map((o) => o.shopOrderNo));
    for (const order of all.filter((o) => !known.has(o.shopOrderNo))) expect(order).not.toHaveProperty('simulated');
  });
});
