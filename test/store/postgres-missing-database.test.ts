import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDriver } from '../../src/store/open-store';
import { MAIN_JS } from '../helpers/spawn-receiver';
import { describePostgres, TEST_POSTGRES_URL } from './pg-test-database';

/** TEST_POSTGRES_URL with another database name (and a password, which no message may show). */
function urlFor(database: string): string {
  const url = new URL(TEST_POSTGRES_URL!);
  url.pathname = `/${database}`;
  url.password = 'not-to-be-shown';
  return url.toString();
}

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describePostgres('a DATABASE_URL naming a database the server does not have', () => {
  const database = `noti_missing_${randomBytes(5).toString('hex')}`;
  const { hostname, port, username } = new URL(TEST_POSTGRES_URL ?? 'postgres://localhost');

  afterAll(async () => {
    // FORCE: a connection the closed driver's pool has not yet let go of must not hold the drop.
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }, 60_000);

  it('is refused naming the database and saying how to create it, and the way it says works', async () => {
    const refusal = await openDriver(urlFor(database)).then(() => null, (error: Error) => error);
    expect(refusal?.name).toBe('StoreUnavailable');
    expect(refusal?.message).toContain(`no database "${database}"`);
    expect(refusal?.message).toContain(`createdb -h ${hostname} -p ${port || '5432'}${username ? ` -U ${username}` : ''} ${database}`);
    expect(refusal?.message).toContain(`CREATE DATABASE "${database}"`);
    expect(refusal?.message).not.toContain('not-to-be-shown');

    await admin(`CREATE DATABASE "${database}"`);
    const driver = await openDriver(urlFor(database));
    await driver.close();
  }, 60_000);

  it('stops the service at start with that line, and exit code 1', async () => {
    expect(existsSync(MAIN_JS)).toBe(true);
    const other = `noti_missing_${randomBytes(5).toString('hex')}`;
    // An empty working directory: no .env of the checkout can change what it reads.
    const cwd = mkdtempSync(join(tmpdir(), 'missing-db-'));
    try {
      const child = spawn(process.execPath, [MAIN_JS], {
        cwd,
        env: { PATH: process.env.PATH ?? '', PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', DATABASE_URL: urlFor(other) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += String(chunk)));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain(`could not start: PostgreSQL at ${hostname}:${port || '5432'} has no database "${other}"`);
      expect(stderr).toMatch(new RegExp(`createdb .*${other}\`, or CREATE DATABASE "${other}"`));
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
