import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { runCliCaptured, seededReceiver } from './seeded-receiver';

/** The URL with a password (trust authentication ignores it), to see it never printed. */
function withPassword(url: string): string {
  const parsed = new URL(url);
  parsed.username = 'postgres';
  parsed.password = 'pg-secret-pw';
  return parsed.toString();
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The same database spelled another way: `localhost` for `127.0.0.1`. */
function respelled(url: string): string {
  const parsed = new URL(url);
  parsed.hostname = parsed.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return parsed.toString();
}

describePostgres('the CLI and the receiver it asks read the same store, or say loudly that they do not', () => {
  let schema: TestSchema;
  let dir: string;
  let receiver: SpawnedReceiver;
  let sqlite: ReturnType<typeof seededReceiver>;
  let receiverUrl: string;
  // The CLI as someone runs it in another shell: its .env names a SQLite file, the receiver was started on PostgreSQL.
  const cli = (args: string[], databaseUrl: string) =>
    runCliCaptured(args, { DATABASE_URL: databaseUrl, ADMIN_HOST: '127.0.0.1', ADMIN_PORT: String(receiver.adminPort) });

  beforeAll(async () => {
    schema = await createTestSchema();
    receiverUrl = withPassword(schema.url);
    dir = mkdtempSync(join(tmpdir(), 'noti-store-mismatch-'));
    receiver = await spawnReceiver(dir, { DATABASE_URL: receiverUrl, QUEUE_URL: `file:${join(dir, 'events.ndjson')}` });
    sqlite = seededReceiver();
    expect((await sqlite.postJson(approvalNotification({ shopOrderNo: 'ORD-SQLITE-ONLY' }))).status).toBe(200);
  });
  afterAll(async () => {
    receiver.child.kill('SIGTERM');
    await receiver.exited;
    await sqlite.cleanup();
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("status marks a store that is not the receiver's, warns on stderr and exits 4", async () => {
    const result = await cli(['status'], sqlite.databaseUrl);
    expect(result.code).toBe(4);
    expect(result.stdout).toMatch(/^store +postgres ok, postgres:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/test \(store [0-9a-f]{8}\)$/m);
    expect(result.stdout).toMatch(new RegExp(`^read from +sqlite:${escaped(sqlite.databaseFile)} \\(store [0-9a-f]{8}\\): NOT THE RECEIVER'S STORE`, 'm'));
    expect(result.stderr).toMatch(/^noti-receiver: WARNING: NOT THE RECEIVER'S STORE\. The receiver \(http:\/\/127\.0\.0\.1:\d+\/readyz\) serves postgres:\/\/.*; this command reads sqlite:.*receiver\.db/m);
    expect(result.stdout + result.stderr).not.toContain('pg-secret-pw');
    const json = (await cli(['--json', 'status'], sqlite.databaseUrl)).json<{ otherStore: boolean; store: { identity: { kind: string } } }>();
    expect(json).toMatchObject({ otherStore: true, store: { identity: { kind: 'sqlite' } } });
  });

  it('every other command names the store it reads and warns when the receiver serves another', async () => {
    const listed = await cli(['events', 'list'], sqlite.databaseUrl);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(new RegExp(`^noti-receiver: reading sqlite:${escaped(sqlite.databaseFile)} \\(store [0-9a-f]{8}\\)$`, 'm'));
    expect(listed.stderr).toMatch(/^noti-receiver: WARNING: NOT THE RECEIVER'S STORE/m);
    const shown = await cli(['events', 'show', 'evt_unknown'], sqlite.databaseUrl);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toMatch(/^noti-receiver: WARNING: NOT THE RECEIVER'S STORE/m);
  });

  it("the receiver's own database, however its URL is spelled, is the same store: no warning, status 0", async () => {
    const other = respelled(schema.url);
    const status = await cli(['status'], other);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^read from +postgres:\/\/.*\(store [0-9a-f]{8}\), the receiver's store$/m);
    expect(status.stderr).toBe('');
    const listed = await cli(['events', 'list'], other);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(/^noti-receiver: reading postgres:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/test \(store [0-9a-f]{8}\)\n$/);
  });
});
