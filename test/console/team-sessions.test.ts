import { join } from 'node:path';
import request from 'supertest';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { HOST, ORIGIN, consoleAppOver, startConsoleHarness, type ConsoleHarness } from './console-harness';

const cookieOf = (answer: request.Response) => String(answer.headers['set-cookie']).split(';')[0]!;

describe('console sessions in the database (SPEC 6.1)', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    h = await startConsoleHarness({}, { relay: false });
  });
  afterAll(() => h.close());

  test('a restart keeps the session: a new process on the same SQLite file knows the cookie, and the id is stored only as a hash', async () => {
    const token = await h.addOperator('rhee', 'operator');
    const signIn = await request(h.admin).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token }).expect(303);
    const cookie = cookieOf(signIn);
    const restartedStore = openSqliteStore(join(h.receiver.dir, 'receiver.db'));
    try {
      const restarted = consoleAppOver(restartedStore);
      const page = await request(restarted).get('/console').set('Host', HOST).set('Cookie', cookie).expect(200);
      expect(page.text).toContain('rhee (');
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(join(h.receiver.dir, 'receiver.db'), { readonly: true });
      try {
        const dump = JSON.stringify(db.prepare('SELECT * FROM sessions').all());
        expect(dump).not.toContain(cookie.split('=')[1]);
      } finally {
        db.close();
      }
    } finally {
      await restartedStore.close();
    }
  });

  test('signing out on one app ends the session on another over the same database', async () => {
    const { agent, csrf, cookie } = await h.signIn('rhee');
    const other = consoleAppOver(h.receiver.store);
    await request(other).get('/console').set('Host', HOST).set('Cookie', cookie).expect(200);
    await agent.post('/console/sign-out').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf }).expect(303);
    expect((await request(other).get('/console').set('Host', HOST).set('Cookie', cookie)).status).toBe(303);
  });

  test('removing an operator (the CLI\'s store verb) ends their sessions at once', async () => {
    const { agent } = await h.signIn('temp', 'viewer');
    await agent.get('/console').set('Host', HOST).expect(200);
    expect(await h.receiver.store.removeOperator('temp')).toEqual({ removed: true, sessionsEnded: 1 });
    expect((await agent.get('/console').set('Host', HOST)).status).toBe(303);
  });

  test('a session ends after ADMIN_SESSION_IDLE_MINUTES unused, and 12 h after sign-in however busy', async () => {
    let clock = Date.parse('2026-11-25T00:00:00Z');
    const timed = await startConsoleHarness({ ADMIN_SESSION_IDLE_MINUTES: '30' }, { relay: false, now: () => new Date(clock) });
    try {
      const idle = await timed.signIn('kim');
      clock += 29 * 60_000;
      await idle.agent.get('/console').set('Host', HOST).expect(200);
      clock += 29 * 60_000;
      await idle.agent.get('/console').set('Host', HOST).expect(200);
      clock += 31 * 60_000;
      expect((await idle.agent.get('/console').set('Host', HOST)).status).toBe(303);

      const busy = await timed.signIn('kim');
      for (let used = 0; used < 12 * 60; used += 20) {
        clock += 20 * 60_000;
        const status = (await busy.agent.get('/console/audit').set('Host', HOST)).status;
        expect([used + 20, status]).toEqual([used + 20, used + 20 < 12 * 60 ? 200 : 303]);
      }
    } finally {
      await timed.close();
    }
  });

  test('the idle limit counts from the last use, not from the sign-in (a touch at most once a tenth of the limit)', async () => {
    let clock = Date.parse('2026-11-25T00:00:00Z');
    const timed = await startConsoleHarness({ ADMIN_SESSION_IDLE_MINUTES: '1' }, { relay: false, now: () => new Date(clock) });
    try {
      const start = clock;
      const { agent } = await timed.signIn('kim');
      const at = async (seconds: number) => {
        clock = start + seconds * 1000;
        return (await agent.get('/console/audit').set('Host', HOST)).status;
      };
      expect(await at(40)).toBe(200);
      expect(await at(75)).toBe(200);
      // 59 s unused: still there.
      expect(await at(134)).toBe(200);
      // A limit and its tenth unused: gone.
      expect(await at(134 + 67)).toBe(303);
    } finally {
      await timed.close();
    }
  });

  test('a bootstrap admin session ends when ADMIN_TOKEN changes', async () => {
    const { cookie } = await h.signIn('admin');
    await request(consoleAppOver(h.receiver.store)).get('/console').set('Host', HOST).set('Cookie', cookie).expect(200);
    const changed = consoleAppOver(h.receiver.store, {}, () => new Date(), 'another-bootstrap-token-0123456789');
    expect((await request(changed).get('/console').set('Host', HOST).set('Cookie', cookie)).status).toBe(303);
  });
});
