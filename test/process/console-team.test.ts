import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';

const CLI_JS = resolve(__dirname, '..', '..', 'dist', 'cli', 'receiver-cli.js');
const ADMIN_TOKEN = 'process-console-token-0123456789';

/** `noti-receiver operators add <name> --role <role>` as an operator runs it; the token it prints once. */
async function addOperator(databaseUrl: string, name: string, role: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI_JS, 'operators', 'add', name, '--role', role, '--json'], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
  });
  return (JSON.parse(stdout) as { token: string }).token;
}

async function removeOperator(databaseUrl: string, name: string): Promise<void> {
  await promisify(execFile)(process.execPath, [CLI_JS, 'operators', 'remove', name], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl } });
}

const consoleOf = (r: SpawnedReceiver) => `http://127.0.0.1:${r.adminPort}/console`;

async function signIn(r: SpawnedReceiver, token: string): Promise<string> {
  const answer = await fetch(`${consoleOf(r)}/sign-in`, {
    method: 'POST', redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(consoleOf(r)).origin },
    body: new URLSearchParams({ token }).toString(),
  });
  expect(answer.status).toBe(303);
  return answer.headers.get('set-cookie')!.split(';')[0]!;
}

/** 200 with the page when the session holds; a redirect to the sign-in when it does not. */
async function openConsole(r: SpawnedReceiver, cookie: string): Promise<{ status: number; text: string }> {
  const answer = await fetch(`${consoleOf(r)}/events`, { redirect: 'manual', headers: { Cookie: cookie } });
  return { status: answer.status, text: await answer.text() };
}

async function stop(r: SpawnedReceiver): Promise<void> {
  r.child.kill('SIGTERM');
  await r.exited;
}

describe('the built service: console operators and sessions on SQLite', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'console-team-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('an operator added with the CLI signs in; the session survives a restart; operators remove ends it at once', async () => {
    const databaseUrl = `sqlite:${join(dir, 'receiver.db')}`;
    const env = { ADMIN_TOKEN, DATABASE_URL: databaseUrl, QUEUE_URL: `file:${join(dir, 'events.ndjson')}` };
    // The receiver creates the database (and its migrations) on its first start.
    let receiver = await spawnReceiver(dir, env);
    try {
      const token = await addOperator(databaseUrl, 'kim@shop.example', 'operator');
      const cookie = await signIn(receiver, token);
      expect((await openConsole(receiver, cookie)).text).toContain('kim@shop.example (');
      await stop(receiver);
      receiver = await spawnReceiver(dir, env);
      const after = await openConsole(receiver, cookie);
      expect(after.status).toBe(200);
      expect(after.text).toContain('kim@shop.example (');
      await stop(receiver);
      await removeOperator(databaseUrl, 'kim@shop.example');
      receiver = await spawnReceiver(dir, env);
      expect((await openConsole(receiver, cookie)).status).toBe(303);
    } finally {
      await stop(receiver);
    }
  });
});

describePostgres('the built service: two replicas on one PostgreSQL share console sessions', () => {
  let schema: TestSchema;
  let dir: string;
  const running: SpawnedReceiver[] = [];
  beforeEach(async () => {
    schema = await createTestSchema();
    dir = mkdtempSync(join(tmpdir(), 'console-team-pg-'));
  });
  afterEach(async () => {
    for (const r of running.splice(0)) await stop(r);
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('signed in on one replica, the operator is signed in on the other; a restart keeps it; operators remove ends it on both', async () => {
    const env = (n: number) => ({ ADMIN_TOKEN, DATABASE_URL: schema.url, QUEUE_URL: `file:${join(dir, `events-${n}.ndjson`)}` });
    running.push(await spawnReceiver(dir, env(1)), await spawnReceiver(dir, env(2)));
    const token = await addOperator(schema.url, 'lee@shop.example', 'viewer');
    const cookie = await signIn(running[0]!, token);
    expect((await openConsole(running[1]!, cookie)).status).toBe(200);

    await stop(running[0]!);
    running[0] = await spawnReceiver(dir, env(1));
    expect((await openConsole(running[0], cookie)).status).toBe(200);

    await removeOperator(schema.url, 'lee@shop.example');
    expect((await openConsole(running[0], cookie)).status).toBe(303);
    expect((await openConsole(running[1]!, cookie)).status).toBe(303);
  });
});
