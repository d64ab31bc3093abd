import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';

async function stop(receiver: SpawnedReceiver): Promise<void> {
  receiver.child.kill('SIGTERM');
  await receiver.exited;
}

async function signIn(consoleUrl: string, token: string): Promise<Response> {
  const origin = new URL(consoleUrl).origin;
  return fetch(`${consoleUrl}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
    body: new URLSearchParams({ token, name: 'ops' }).toString(),
  });
}

describe('the console token at start', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'noti-console-token-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('with no ADMIN_TOKEN a random one is generated and logged once with the console URL, and it signs in', async () => {
    const receiver = await spawnReceiver(dir);
    try {
      const generated = await eventually(() => {
        const lines = receiver.logs().filter((line) => line.message === 'operator console token generated; set ADMIN_TOKEN or ADMIN_TOKEN_FILE to choose one');
        return lines.length > 0 && lines;
      }, 10_000, 'the generated token log line');
      expect(generated).toHaveLength(1);
      const { consoleUrl, consoleToken } = generated[0] as { consoleUrl: string; consoleToken: string };
      expect(consoleUrl).toBe(`http://127.0.0.1:${receiver.adminPort}/console`);
      expect(consoleToken.length).toBeGreaterThanOrEqual(32);
      const answer = await signIn(consoleUrl, consoleToken);
      expect(answer.status).toBe(303);
      expect(answer.headers.get('set-cookie')).toMatch(/HttpOnly/);
      expect((await fetch(`http://127.0.0.1:${receiver.adminPort}/healthz`)).status).toBe(200);
    } finally {
      await stop(receiver);
    }
  });

  test('ADMIN_TOKEN_FILE supplies the token, which is never logged', async () => {
    const tokenFile = join(dir, 'admin-token');
    writeFileSync(tokenFile, 'file-token-0123456789abcdef\n');
    const receiver = await spawnReceiver(dir, { ADMIN_TOKEN_FILE: tokenFile });
    try {
      const consoleUrl = `http://127.0.0.1:${receiver.adminPort}/console`;
      await eventually(() => receiver.logs().some((line) => line.message === 'operator console ready' && line.consoleUrl === consoleUrl), 10_000, 'the console ready log line');
      expect(JSON.stringify(receiver.logs())).not.toContain('file-token-0123456789abcdef');
      expect((await signIn(consoleUrl, 'file-token-0123456789abcdef')).status).toBe(303);
      expect((await signIn(consoleUrl, 'wrong-token-0123456789abcdef')).status).toBe(401);
    } finally {
      await stop(receiver);
    }
  });

  test('a short ADMIN_TOKEN stops the start with one line naming the variable', async () => {
    const failure = spawnReceiver(dir, { ADMIN_TOKEN: 'short-secret' });
    await expect(failure).rejects.toThrow(/invalid ADMIN_TOKEN: must be at least 16 characters/);
    await expect(failure).rejects.not.toThrow(/short-secret/);
  });
});
