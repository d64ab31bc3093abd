import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSecret, secretHash } from '../../src/store/operator-credentials';
import { openStore } from '../../src/store/open-store';
import { SESSION_ABSOLUTE_MS, type OperatorRow, type Store } from '../../src/store/store';
import { createTestSchema, describePostgres, type TestSchema } from '../store/pg-test-database';
import { runCliCaptured } from './seeded-receiver';

const LIMITS = { idleMs: 30 * 60 * 1000, absoluteMs: SESSION_ABSOLUTE_MS };

interface Database {
  url: string;
  store: Store;
  /** Every byte the database holds on disk, where the test can read it (SQLite), else null. */
  bytes(): Buffer | null;
  cleanup(): Promise<void>;
}

/** `noti-receiver operators …` against a receiver database, the way an operator runs it. */
function operatorsCommands(open: () => Promise<Database>): void {
  let db: Database;
  const cli = (...args: string[]) => runCliCaptured(['operators', ...args], { DATABASE_URL: db.url, USER: 'ops-lead' });
  const tokenOf = (stdout: string) => stdout.trim().split('\n').at(-1)!;
  const signIn = async (operator: string, tokenHash: string | null) => {
    const idHash = secretHash(newSecret());
    await db.store.createSession({ idHash, operator, csrfToken: newSecret(), tokenHash, now: Date.now() });
    return idHash;
  };
  const sessionOf = (idHash: string) => db.store.findSession(idHash, { ...LIMITS, now: Date.now(), bootstrapTokenHash: null });

  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => db.cleanup());

  test('add prints a new token once; the token signs in, and only its hash is stored', async () => {
    const added = await cli('add', 'kim', '--role', 'operator');
    expect(added).toMatchObject({ code: 0, stderr: expect.stringMatching(/^noti-receiver: reading (sqlite|postgres):\S+ \(store [0-9a-f]{8}\)\n$/) });
    expect(added.stdout).toMatch(/^added kim \(operator\); their token, shown this once \(only a hash of it is stored\):\n[A-Za-z0-9_-]{43}\n$/);
    const token = tokenOf(added.stdout);
    await expect(db.store.findOperatorByTokenHash(secretHash(token))).resolves.toEqual({ name: 'kim', role: 'operator', sso: false, canCancel: false });

    const listed = await cli('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^NAME\s+ROLE\s+SIGN-IN\s+CAN CANCEL\s+ADDED\s+TOKEN SET\n[- ]+\nkim\s+operator\s+token\s+no\s+\d{4}-/);
    expect(listed.stdout).not.toContain(token);
    expect((await cli('list', '--json')).stdout).not.toContain(secretHash(token));
    const bytes = db.bytes();
    if (bytes) expect(bytes.includes(token)).toBe(false);
  });

  test('--can-cancel gives an operator the right to cancel payments from the console; list says who has it', async () => {
    expect((await cli('add', 'park', '--role', 'operator', '--can-cancel')).code).toBe(0);
    expect((await cli('add', 'choi', '--role', 'operator')).code).toBe(0);
    await expect(db.store.findOperator('park')).resolves.toEqual({ name: 'park', role: 'operator', sso: false, canCancel: true });
    await expect(db.store.findOperator('choi')).resolves.toMatchObject({ canCancel: false });
    const listed = (await cli('list')).stdout;
    expect(listed).toMatch(/\npark\s+operator\s+token\s+yes\s+/);
    expect(listed).toMatch(/\nchoi\s+operator\s+token\s+no\s+/);
    expect(JSON.parse((await cli('list', '--json')).stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'park', canCancel: true })]));
  });

  test('--sso adds an operator with no token, whose token cannot be replaced', async () => {
    const added = await cli('add', 'lee@shop.example', '--role', 'viewer', '--sso');
    expect(added.code).toBe(0);
    expect(added.stdout).toBe('added lee@shop.example (viewer); they sign in through the single sign-on proxy (ADMIN_AUTH_HEADER) and have no token\n');
    await expect(db.store.findOperator('lee@shop.example')).resolves.toEqual({ name: 'lee@shop.example', role: 'viewer', sso: true, canCancel: false });
    const rotated = await cli('token', 'lee@shop.example');
    expect(rotated.code).toBe(2);
    expect(rotated.stderr).toMatch(/^noti-receiver: reading \S+ \(store [0-9a-f]{8}\)\nnoti-receiver: lee@shop\.example signs in through single sign-on and has no token\n$/);
    expect(rotated.stdout).toBe('');
  });

  test('list --json gives every operator with role and sign-in kind, never a token or its hash', async () => {
    const json = await runCliCaptured(['operators', 'add', '한지민', '--role', 'admin', '--json'], { DATABASE_URL: db.url });
    expect(json.code).toBe(0);
    const { token } = json.json<{ token: string }>();
    expect(json.json()).toEqual({ name: '한지민', role: 'admin', sso: false, canCancel: false, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    await cli('add', 'yoon', '--role', 'viewer', '--sso');
    const listed = await cli('list', '--json');
    expect(listed.code).toBe(0);
    expect(listed.json<OperatorRow[]>()).toEqual([
      { name: 'yoon', role: 'viewer', sso: true, canCancel: false, createdAt: expect.any(String), tokenSetAt: null },
      { name: '한지민', role: 'admin', sso: false, canCancel: false, createdAt: expect.any(String), tokenSetAt: expect.any(String) },
    ]);
    expect(listed.stdout).not.toContain(token);
    expect(listed.stdout).not.toContain(secretHash(token));
  });

  test("token replaces the operator's token, prints the new one once, and ends their sessions", async () => {
    const old = tokenOf((await cli('add', 'park', '--role', 'operator')).stdout);
    const session = await signIn('park', secretHash(old));
    const rotated = await cli('token', 'park');
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/^replaced the token of park and ended their sessions; the new token, shown this once:\n[A-Za-z0-9_-]{43}\n$/);
    const fresh = tokenOf(rotated.stdout);
    expect(fresh).not.toBe(old);
    await expect(db.store.findOperatorByTokenHash(secretHash(old))).resolves.toBeNull();
    await expect(db.store.findOperatorByTokenHash(secretHash(fresh))).resolves.toMatchObject({ name: 'park' });
    await expect(sessionOf(session)).resolves.toBeNull();
    const unknown = await cli('token', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no operator named "nobody"/);
  });

  test('remove ends every session of the operator at once; an unknown name exits 1', async () => {
    const token = tokenOf((await cli('add', 'seo', '--role', 'admin')).stdout);
    const sessions = [await signIn('seo', secretHash(token)), await signIn('seo', secretHash(token))];
    await expect(sessionOf(sessions[0]!)).resolves.toMatchObject({ operator: 'seo', role: 'admin' });
    const removed = await cli('remove', 'seo');
    expect(removed).toMatchObject({ code: 0, stdout: 'removed seo; ended 2 console session(s)\n' });
    for (const session of sessions) await expect(sessionOf(session)).resolves.toBeNull();
    await expect(db.store.findOperatorByTokenHash(secretHash(token))).resolves.toBeNull();
    expect((await cli('list', '--json')).json()).toEqual([]);
    const again = await cli('remove', 'seo');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no operator named "seo"/);
  });

  test('each change is audited under the CLI user', async () => {
    await cli('add', 'moon', '--role', 'viewer');
    await cli('token', 'moon');
    await cli('remove', 'moon');
    const rows = await db.store.listAudit(10);
    expect(rows.map((row) => [row.actor, row.action, row.subject, row.detail])).toEqual([
      ['ops-lead (cli)', 'removed operator', 'moon', '0 session(s) ended'],
      ['ops-lead (cli)', 'replaced operator token', 'moon', null],
      ['ops-lead (cli)', 'added operator', 'moon', 'viewer'],
    ]);
  });

  test.each([
    ['a name already taken', ['add', 'dup', '--role', 'viewer'], /an operator named "dup" exists/],
    ['the bootstrap admin', ['add', 'admin', '--role', 'admin'], /"admin" is the bootstrap operator, who signs in with ADMIN_TOKEN/],
    ['removing the bootstrap admin', ['remove', 'admin'], /"admin" is the bootstrap operator/],
    ['a newline in a name', ['add', 'kim\nFAKE LOG LINE', '--role', 'viewer'], /must not hold control or invisible formatting characters, got "kim\\nFAKE LOG LINE"/],
    ['a right-to-left override in a name', ['add', 'kim\u202Egnp.exe', '--role', 'viewer'], /invisible formatting characters/],
    ['admin and U+034F', ['add', 'admin\u034f', '--role', 'admin'], /must not hold invisible characters \(fillers, joiners, variation selectors\), got "admin\\u034f"/],
    ['ledger and U+FE0F', ['add', 'ledger\ufe0f', '--role', 'operator'], /invisible characters .*, got "ledger\\ufe0f"/],
    ['admin and U+3164', ['add', 'admin\u3164', '--role', 'admin'], /invisible characters .*, got "admin\\u3164"/],
    ['U+115F and admin', ['add', '\u115fadmin', '--role', 'admin'], /invisible characters .*, got "\\u115fadmin"/],
    ['the ledger\'s name', ['add', 'Ledger', '--role', 'operator'], /"ledger" is reserved for the ledger's own resolutions, got "Ledger"/],
    ['admin in full-width letters', ['add', 'ａｄｍｉｎ', '--role', 'admin'], /"admin" is reserved for the bootstrap operator/],
    ['a Hangul filler in a name', ['add', '김\u3164민지', '--role', 'viewer'], /must not hold invisible characters \(fillers, joiners, variation selectors\), got "김\\u3164민지"/],
    ['a name that reads as another operator\'s', ['add', 'ＤＵＰ', '--role', 'viewer'], /must not read as another operator's: "dup" exists, got "ＤＵＰ"/],
    ['a name too long', ['add', 'x'.repeat(255), '--role', 'viewer'], /at most 254 characters/],
    ['an empty name', ['add', '', '--role', 'viewer'], /must not be empty/],
    ['spaces around a name', ['add', ' kim ', '--role', 'viewer'], /must not start or end with whitespace/],
    ['no role', ['add', 'kim'], /required option '--role <role>' not specified/],
    ['an unknown role', ['add', 'kim', '--role', 'root'], /Allowed choices are viewer, operator, admin/],
  ])('%s is a usage error (exit 2) that changes nothing', async (_name, args, message) => {
    await cli('add', 'dup', '--role', 'operator');
    const before = (await cli('list', '--json')).json();
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect((await cli('list', '--json')).json()).toEqual(before);
  });
}

describe('noti-receiver operators on SQLite', () => {
  operatorsCommands(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-operators-cli-'));
    const file = join(dir, 'receiver.db');
    const store = await openStore(`sqlite:${file}`);
    return {
      url: `sqlite:${file}`,
      store,
      bytes: () => Buffer.concat([file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path))),
      cleanup: async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); },
    };
  });

  test('against a path where no receiver ran, exits 3 and creates nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-operators-cli-'));
    try {
      const result = await runCliCaptured(['operators', 'add', 'kim', '--role', 'viewer'], { DATABASE_URL: `sqlite:${join(dir, 'none.db')}` });
      expect(result.code).toBe(3);
      expect(result.stdout).toBe('');
      expect(existsSync(join(dir, 'none.db'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describePostgres('noti-receiver operators on PostgreSQL', () => {
  operatorsCommands(async () => {
    const schema: TestSchema = await createTestSchema();
    const store = await openStore(schema.url);
    return { url: schema.url, store, bytes: () => null, cleanup: async () => { await store.close(); await schema.drop(); } };
  });
});
