import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN_JS, spawnReceiver } from '../helpers/spawn-receiver';

describe('.env in the working directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'noti-dotenv-'));
    writeFileSync(join(dir, '.env'), 'GATEWAY_ENV=staging\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is read at start, as the README and the config error message promise', () => {
    const run = spawnSync(process.execPath, [MAIN_JS], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', PORT: '0', ADMIN_PORT: '0' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/invalid GATEWAY_ENV \(got "staging"\)/);
  });

  it('loses to the environment, so a deployment setting always wins over the file', async () => {
    const receiver = await spawnReceiver(dir, { GATEWAY_ENV: 'production' });
    receiver.child.kill('SIGTERM');
    expect({ exit: await receiver.exited, stderr: receiver.stderr() }).toEqual({ exit: { code: 0, signal: null }, stderr: '' });
  });
});
