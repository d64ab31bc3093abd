import { newSecret, secretHash } from '../../src/store/operator-credentials';
import {
  BOOTSTRAP_OPERATOR, SESSION_ABSOLUTE_MS, type NewSession, type SessionCheck, type SessionLimits, type Store,
} from '../../src/store/store';

/** An empty store, and the same database opened again (a restart, or another replica). */
export interface ReopenableStore {
  store: Store;
  reopen(): Promise<Store>;
  /** Closes every store it opened and removes what they stored. */
  cleanup(): Promise<void>;
}

const MINUTE = 60 * 1000;
const T0 = Date.parse('2026-11-25T09:00:00.000Z');
const LIMITS: SessionLimits = { idleMs: 30 * MINUTE, absoluteMs: SESSION_ABSOLUTE_MS };
const BOOTSTRAP_TOKEN = 'bootstrap-token-of-this-start-0123456789';
const check = (now: number, bootstrapToken: string | null = BOOTSTRAP_TOKEN): SessionCheck => ({
  ...LIMITS, now, bootstrapTokenHash: bootstrapToken === null ? null : secretHash(bootstrapToken),
});

/** Operators and console sessions, run against each database by team-access.test.ts. */
export function teamAccessContract(openFresh: () => Promise<ReopenableStore>): void {
  let store: Store;
  let reopen: () => Promise<Store>;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ store, reopen, cleanup } = await openFresh());
  });
  afterEach(async () => cleanup());

  const addWithToken = async (name: string, role: 'viewer' | 'operator' | 'admin') => {
    const token = newSecret();
    await expect(store.addOperator({ name, role, tokenHash: secretHash(token), createdAt: new Date(T0).toISOString() })).resolves.toBe('added');
    return token;
  };
  const signIn = async (operator: string, now: number, tokenHash: string | null = null) => {
    const id = newSecret();
    const session: NewSession = { idHash: secretHash(id), operator, csrfToken: newSecret(), tokenHash, now };
    await store.createSession(session);
    return { id, idHash: session.idHash, csrfToken: session.csrfToken };
  };

  test('an operator signs in by the hash of their token; the token itself is stored nowhere', async () => {
    const token = await addWithToken('kim', 'operator');
    await expect(store.findOperatorByTokenHash(secretHash(token))).resolves.toEqual({ name: 'kim', role: 'operator', sso: false, canCancel: false });
    await expect(store.findOperatorByTokenHash(secretHash(`${token}x`))).resolves.toBeNull();
    await expect(store.findOperatorByTokenHash(token)).resolves.toBeNull();
    expect(secretHash(token)).not.toBe(token);
    expect(secretHash(token)).toMatch(/^[0-9a-f]{64}$/);
    const listed = JSON.stringify(await store.listOperators());
    expect(listed).not.toContain(token);
    expect(listed).not.toContain(secretHash(token));
  });

  test('operators are listed by name with role and sign-in kind; a name is added once', async () => {
    await addWithToken('yoon', 'viewer');
    await expect(store.addOperator({ name: 'lee@shop.example', role: 'admin', tokenHash: null, createdAt: new Date(T0).toISOString() })).resolves.toBe('added');
    await expect(store.addOperator({ name: 'yoon', role: 'admin', tokenHash: secretHash(newSecret()), createdAt: new Date(T0).toISOString() })).resolves.toBe('exists');
    await expect(store.listOperators()).resolves.toEqual([
      { name: 'lee@shop.example', role: 'admin', sso: true, canCancel: false, createdAt: new Date(T0).toISOString(), tokenSetAt: null },
      { name: 'yoon', role: 'viewer', sso: false, canCancel: false, createdAt: new Date(T0).toISOString(), tokenSetAt: new Date(T0).toISOString() },
    ]);
    await expect(store.findOperator('lee@shop.example')).resolves.toEqual({ name: 'lee@shop.example', role: 'admin', sso: true, canCancel: false });
    await expect(store.findOperator('LEE@shop.example')).resolves.toBeNull();
  });

  test('a rotated token replaces the old one and ends the sessions signed in with it; single sign-on has no token to rotate', async () => {
    const old = await addWithToken('park', 'operator');
    const session = await signIn('park', T0);
    const fresh = newSecret();
    await expect(store.rotateOperatorToken('park', secretHash(fresh), new Date(T0 + MINUTE).toISOString())).resolves.toBe('rotated');
    await expect(store.findOperatorByTokenHash(secretHash(old))).resolves.toBeNull();
    await expect(store.findOperatorByTokenHash(secretHash(fresh))).resolves.toMatchObject({ name: 'park' });
    await expect(store.findSession(session.idHash, check(T0 + MINUTE))).resolves.toBeNull();
    expect((await store.listOperators())[0]!.tokenSetAt).toBe(new Date(T0 + MINUTE).toISOString());

    await store.addOperator({ name: 'sso-person', role: 'viewer', tokenHash: null, createdAt: new Date(T0).toISOString() });
    await expect(store.rotateOperatorToken('sso-person', secretHash(newSecret()), new Date(T0).toISOString())).resolves.toBe('sso');
    await expect(store.findOperator('sso-person')).resolves.toMatchObject({ sso: true });
    await expect(store.rotateOperatorToken('nobody', secretHash(newSecret()), new Date(T0).toISOString())).resolves.toBe('unknown');
  });

  test('a session is found by the hash of its id with its role from the operator record, never by the id', async () => {
    await addWithToken('choi', 'viewer');
    const session = await signIn('choi', T0, secretHash('choi-token'));
    await expect(store.findSession(session.idHash, check(T0 + MINUTE))).resolves.toEqual({
      operator: 'choi', role: 'viewer', throughSignOn: false, csrfToken: session.csrfToken, createdAt: T0, lastSeenAt: T0, locale: null,
    });
    // Signed in by the sign-on proxy (no token): the console lets a new name at the proxy end it.
    const proxied = await signIn('choi', T0);
    await expect(store.findSession(proxied.idHash, check(T0 + MINUTE))).resolves.toMatchObject({ operator: 'choi', throughSignOn: true });
    await expect(store.findSession(session.id, check(T0 + MINUTE))).resolves.toBeNull();
    expect(session.idHash).not.toBe(session.id);
  });

  test("a session keeps the console's language it chose, from sign-in or later, and an ended session has none to set", async () => {
    await addWithToken('han', 'viewer');
    const chosen = await signIn('han', T0);
    await expect(store.findSession(chosen.idHash, check(T0))).resolves.toMatchObject({ locale: null });
    await expect(store.setSessionLocale(chosen.idHash, 'ko')).resolves.toBe(true);
    await expect(store.findSession(chosen.idHash, check(T0 + MINUTE))).resolves.toMatchObject({ operator: 'han', locale: 'ko' });
    await store.createSession({ idHash: secretHash('at-sign-in'), operator: 'han', csrfToken: 'c', tokenHash: null, now: T0, locale: 'en' });
    await expect(store.findSession(secretHash('at-sign-in'), check(T0))).resolves.toMatchObject({ locale: 'en' });
    await store.endSession(chosen.idHash);
    await expect(store.setSessionLocale(chosen.idHash, 'en')).resolves.toBe(false);
  });

  test('a session ends after the idle time unused, and a touch restarts that clock', async () => {
    await addWithToken('jung', 'operator');
    const session = await signIn('jung', T0);
    await expect(store.touchSession(session.idHash, T0 + 29 * MINUTE, LIMITS)).resolves.toBe(true);
    await expect(store.findSession(session.idHash, check(T0 + 58 * MINUTE))).resolves.toMatchObject({ lastSeenAt: T0 + 29 * MINUTE });
    // A replica whose clock runs behind never moves the idle clock back.
    await expect(store.touchSession(session.idHash, T0 + 20 * MINUTE, LIMITS)).resolves.toBe(true);
    await expect(store.findSession(session.idHash, check(T0 + 58 * MINUTE))).resolves.toMatchObject({ lastSeenAt: T0 + 29 * MINUTE });

    await expect(store.findSession(session.idHash, check(T0 + 59 * MINUTE))).resolves.toBeNull();
    await expect(store.touchSession(session.idHash, T0 + 59 * MINUTE, LIMITS)).resolves.toBe(false);
    await expect(store.findSession(session.idHash, check(T0 + 59 * MINUTE))).resolves.toBeNull();
  });

  test('a session ends 12 h after sign-in however busy it was', async () => {
    await addWithToken('han', 'operator');
    const session = await signIn('han', T0);
    for (let now = T0 + 20 * MINUTE; now < T0 + SESSION_ABSOLUTE_MS; now += 20 * MINUTE) {
      await expect(store.touchSession(session.idHash, now, LIMITS)).resolves.toBe(true);
    }
    await expect(store.findSession(session.idHash, check(T0 + SESSION_ABSOLUTE_MS - 1))).resolves.toMatchObject({ operator: 'han' });
    await expect(store.findSession(session.idHash, check(T0 + SESSION_ABSOLUTE_MS))).resolves.toBeNull();
    await expect(store.touchSession(session.idHash, T0 + SESSION_ABSOLUTE_MS, LIMITS)).resolves.toBe(false);
  });

  test('removing an operator ends every session of theirs at once, and no other', async () => {
    await addWithToken('seo', 'admin');
    await addWithToken('kang', 'viewer');
    const first = await signIn('seo', T0);
    const second = await signIn('seo', T0 + MINUTE);
    const other = await signIn('kang', T0);
    await expect(store.removeOperator('seo')).resolves.toEqual({ removed: true, sessionsEnded: 2 });
    await expect(store.findSession(first.idHash, check(T0 + 2 * MINUTE))).resolves.toBeNull();
    await expect(store.findSession(second.idHash, check(T0 + 2 * MINUTE))).resolves.toBeNull();
    await expect(store.findSession(other.idHash, check(T0 + 2 * MINUTE))).resolves.toMatchObject({ operator: 'kang' });
    await expect(store.listOperators()).resolves.toEqual([expect.objectContaining({ name: 'kang' })]);
    await expect(store.removeOperator('seo')).resolves.toEqual({ removed: false, sessionsEnded: 0 });
  });

  test('a session created for an operator just removed is no session', async () => {
    await addWithToken('late', 'operator');
    await store.removeOperator('late');
    const session = await signIn('late', T0);
    await expect(store.findSession(session.idHash, check(T0 + MINUTE))).resolves.toBeNull();
  });

  test('signing out ends one session; ending an operator\'s sessions ends all of theirs', async () => {
    await addWithToken('moon', 'operator');
    const a = await signIn('moon', T0);
    const b = await signIn('moon', T0);
    const c = await signIn('moon', T0);
    await expect(store.endSession(a.idHash)).resolves.toBe(true);
    await expect(store.endSession(a.idHash)).resolves.toBe(false);
    await expect(store.findSession(a.idHash, check(T0 + MINUTE))).resolves.toBeNull();
    await expect(store.findSession(b.idHash, check(T0 + MINUTE))).resolves.not.toBeNull();
    await expect(store.endSessionsOf('moon')).resolves.toBe(2);
    await expect(store.findSession(c.idHash, check(T0 + MINUTE))).resolves.toBeNull();
  });

  test('the bootstrap admin is not stored; its session holds while ADMIN_TOKEN is the token it signed in with', async () => {
    const session = await signIn(BOOTSTRAP_OPERATOR, T0, secretHash(BOOTSTRAP_TOKEN));
    await expect(store.listOperators()).resolves.toEqual([]);
    await expect(store.findOperatorByTokenHash(secretHash(BOOTSTRAP_TOKEN))).resolves.toBeNull();
    await expect(store.findSession(session.idHash, check(T0 + MINUTE))).resolves.toMatchObject({ operator: 'admin', role: 'admin' });
    await expect(store.findSession(session.idHash, check(T0 + MINUTE, 'a-new-admin-token-after-a-leak-0123'))).resolves.toBeNull();
    await expect(store.findSession(session.idHash, check(T0 + MINUTE, null))).resolves.toBeNull();
    // Through single sign-on (no token) no session can pass for the bootstrap admin.
    const forged = await signIn(BOOTSTRAP_OPERATOR, T0, null);
    await expect(store.findSession(forged.idHash, check(T0 + MINUTE))).resolves.toBeNull();
  });

  test('pruning deletes the sessions expired by either clock and keeps the live ones', async () => {
    await addWithToken('oh', 'viewer');
    const idle = await signIn('oh', T0);
    const old = await signIn('oh', T0);
    const live = await signIn('oh', T0 + 11 * 60 * MINUTE + 50 * MINUTE);
    for (let now = T0 + 20 * MINUTE; now <= T0 + 12 * 60 * MINUTE; now += 20 * MINUTE) await store.touchSession(old.idHash, now, LIMITS);
    await store.touchSession(live.idHash, T0 + 12 * 60 * MINUTE, LIMITS);

    await expect(store.pruneExpiredSessions(T0 + SESSION_ABSOLUTE_MS + MINUTE, LIMITS)).resolves.toBe(2);
    await expect(store.endSession(idle.idHash)).resolves.toBe(false);
    await expect(store.endSession(old.idHash)).resolves.toBe(false);
    await expect(store.findSession(live.idHash, check(T0 + SESSION_ABSOLUTE_MS + MINUTE))).resolves.toMatchObject({ operator: 'oh' });
    await expect(store.pruneExpiredSessions(T0 + SESSION_ABSOLUTE_MS + MINUTE, LIMITS)).resolves.toBe(0);
  });

  test('operators and sessions survive a restart, and another opening of the database sees them at once', async () => {
    const token = await addWithToken('baek', 'operator');
    const session = await signIn('baek', T0);
    const admin = await signIn(BOOTSTRAP_OPERATOR, T0, secretHash(BOOTSTRAP_TOKEN));
    await store.close();
    const restarted = await reopen();
    await expect(restarted.findOperatorByTokenHash(secretHash(token))).resolves.toMatchObject({ name: 'baek', role: 'operator' });
    await expect(restarted.findSession(session.idHash, check(T0 + MINUTE))).resolves.toMatchObject({ operator: 'baek', csrfToken: session.csrfToken });
    await expect(restarted.findSession(admin.idHash, check(T0 + MINUTE))).resolves.toMatchObject({ operator: 'admin', role: 'admin' });
    await expect(restarted.removeOperator('baek')).resolves.toEqual({ removed: true, sessionsEnded: 1 });
    await expect(restarted.findSession(session.idHash, check(T0 + MINUTE))).resolves.toBeNull();
  });
}
