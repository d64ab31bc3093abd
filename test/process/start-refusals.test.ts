import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN_JS } from '../helpers/spawn-receiver';

/**
 * Starts the built service and returns what it wrote to stderr when it exits. A service that
 * wrongly starts is stopped once it logs that it listens, so the test fails on the exit code.
 */
async function start(cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  if (!existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: run npm run build (npm test does)`);
  const child = spawn(process.execPath, [MAIN_JS], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ADMIN_PORT: '0', API_PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  child.stdout!.on('data', (chunk) => {
    if (String(chunk).includes('listening')) child.kill('SIGTERM');
  });
  const code = await new Promise<number | null>((done) => child.on('exit', (exitCode) => done(exitCode)));
  return { code, stderr };
}

describe('the service refuses to start with', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'noti-start-refusals-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it.each<[string, () => Record<string, string>, string, RegExp]>([
    ['a short API_TOKEN', () => ({ API_TOKEN: 'short' }), 'short', /^invalid API_TOKEN: must be at least 16 characters; generate one with: openssl rand -hex 32 /],
    ['an API_TOKEN of one repeated character', () => ({ API_TOKEN: 'a'.repeat(32) }), 'a'.repeat(32), /^invalid API_TOKEN: must not be one repeated character/],
    ['an ADMIN_TOKEN of 20 spaces', () => ({ ADMIN_TOKEN: ' '.repeat(20) }), '', /^invalid ADMIN_TOKEN: must not be empty or only whitespace/],
    ['an ADMIN_TOKEN of one repeated character', () => ({ ADMIN_TOKEN: '0'.repeat(24) }), '0'.repeat(24), /^invalid ADMIN_TOKEN: must not be one repeated character/],
    ['a short token in API_TOKEN_FILE', () => ({ API_TOKEN_FILE: file('api-short', 'tiny-token\n') }), 'tiny-token', /^invalid API_TOKEN_FILE: the token in it must be at least 16 characters/],
    ['a whitespace token in API_TOKEN_FILE', () => ({ API_TOKEN_FILE: file('api-blank', `${' '.repeat(20)}\n`) }), '', /^invalid API_TOKEN_FILE: the token in it must not be empty or only whitespace/],
    ['an API_TOKEN that repeats a pattern', () => ({ API_TOKEN: 'abababababababab' }), 'abababababababab', /^invalid API_TOKEN: must not repeat a shorter pattern .*; generate one with: openssl rand -hex 32 /],
    ['an ADMIN_TOKEN that counts', () => ({ ADMIN_TOKEN: '1234567890123456' }), '1234567890123456', /^invalid ADMIN_TOKEN: must not be a sequence or a keyboard walk .*; generate one with: openssl rand -hex 32 /],
    ['an ADMIN_TOKEN of few characters', () => ({ ADMIN_TOKEN: 'aaaabbbbccccdddd' }), 'aaaabbbbccccdddd', /^invalid ADMIN_TOKEN: must have at least 6 different characters/],
    ['a keyboard walk in API_TOKEN_FILE', () => ({ API_TOKEN_FILE: file('api-walk', 'qwertyuiopasdfghjkl\n') }), 'qwertyuiop', /^invalid API_TOKEN_FILE: the token in it must not be a sequence or a keyboard walk .*openssl rand -hex 32/],
    ['a repeated pattern in ADMIN_TOKEN_FILE', () => ({ ADMIN_TOKEN_FILE: file('admin-pattern', 'k3J9x0Qzk3J9x0Qzk3\n') }), 'k3J9x0Qz', /^invalid ADMIN_TOKEN_FILE: the token on its first line must not repeat a shorter pattern .*openssl rand -hex 32/],
    ['a repeated-character token in ADMIN_TOKEN_FILE', () => ({ ADMIN_TOKEN_FILE: file('admin-same', `${'z'.repeat(20)}\n`) }), 'z'.repeat(20), /^invalid ADMIN_TOKEN_FILE: the token on its first line must not be one repeated character/],
    ['a plain-http gateway URL in production', () => ({ GATEWAY_ENV: 'production', GATEWAY_VAN_URL: 'http://gateway.example.com' }), '', /^invalid GATEWAY_VAN_URL .*: must be an https:\/\/ URL when GATEWAY_ENV=production/],
  ])('%s: one line naming the variable, never its value', async (_case, env, value, message) => {
    const { code, stderr } = await start(dir, { DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`, ...env() });
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.replace(/^payment-noti-receiver: /, '')).toMatch(message);
    if (value) expect(stderr).not.toContain(value);
  });
});
