import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../src/config/env';
import { ADMIN_TOKEN, HOST, ORIGIN, csrfIn, startConsoleHarness, type ConsoleHarness } from './console-harness';

const SSO = { ADMIN_AUTH_HEADER: 'X-Forwarded-Email' };
const FALLBACK_WARNING = /^ADMIN_AUTH_PROXY is unset/;

async function sessionCount(h: ConsoleHarness): Promise<number> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(h.receiver.dir, 'receiver.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const addSignOnOperator = (h: ConsoleHarness, name: string) =>
  h.receiver.store.addOperator({ name, role: 'operator', tokenHash: null, createdAt: new Date().toISOString() });

describe('the sign-on header signs in single sign-on operators only', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    // supertest connects from loopback, which the harness's TRUST_PROXY names: it plays the proxy.
    h = await startConsoleHarness(SSO, { relay: false });
    await addSignOnOperator(h, 'kim@shop.example');
  });
  afterAll(() => h.close());

  test('a token operator named by the header is refused with a 403 page, audited, and still signs in with the token', async () => {
    const token = await h.addOperator('tokop', 'admin');
    const sessions = await sessionCount(h);
    const named = await request(h.admin).get('/console/operators').set('Host', HOST).set('X-Forwarded-Email', 'tokop');
    expect(named.status).toBe(403);
    expect(named.text).toContain('Sign in with your token');
    expect(named.headers['set-cookie']).toBeUndefined();
    expect(await sessionCount(h)).toBe(sessions);
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'sign-in refused', detail: expect.stringContaining('"tokop", who signs in with a token') });

    const agent = request.agent(h.admin);
    await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).set('X-Forwarded-Email', 'tokop').type('form').send({ token }).expect(303);
    const page = await agent.get('/console/operators').set('Host', HOST).set('X-Forwarded-Email', 'tokop').expect(200);
    expect(page.text).toContain('tokop (');
  });

  test('the bootstrap admin named by the header is refused too; ADMIN_TOKEN still signs it in', async () => {
    const named = await request(h.admin).get('/console').set('Host', HOST).set('X-Forwarded-Email', 'admin');
    expect(named.status).toBe(403);
    expect(named.text).toContain('an operator who signs in with a token here');
    expect(named.headers['set-cookie']).toBeUndefined();
    // The sign-in form is still there for it behind the proxy.
    const form = await request(h.admin).get('/console/sign-in').set('Host', HOST).set('X-Forwarded-Email', 'admin').expect(200);
    expect(form.text).toContain('<label for="token">Token</label>');
    const agent = request.agent(h.admin);
    await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).set('X-Forwarded-Email', 'admin').type('form').send({ token: ADMIN_TOKEN }).expect(303);
    await agent.get('/console').set('Host', HOST).set('X-Forwarded-Email', 'admin').expect(200);
  });

  test('one request through the proxy makes one session, also one the console passes on to the listener (a 404)', async () => {
    for (const path of ['/console', '/console/no-such-page', '/no-such-page']) {
      const before = await sessionCount(h);
      const answer = await request(h.admin).get(path).set('Host', HOST).set('X-Forwarded-Email', 'kim@shop.example');
      expect([path, [answer.headers['set-cookie']].flat().length]).toEqual([path, 1]);
      expect([path, await sessionCount(h)]).toEqual([path, before + 1]);
    }
  });

  test('refusals of the proxy\'s names write one audit row per client in a window, each one still logged', async () => {
    const auditBefore = (await h.receiver.store.listAudit(1000)).length;
    const logsBefore = h.consoleLogs().length;
    for (let i = 0; i < 30; i++) {
      await request(h.admin).get('/console').set('Host', HOST).set('X-Forwarded-Email', `stranger-${i}@shop.example`).set('X-Forwarded-For', '198.51.100.77').expect(403);
    }
    const all = await h.receiver.store.listAudit(1000);
    const rows = all.slice(0, all.length - auditBefore);
    expect(rows.map((row) => [row.actor, row.action])).toEqual([['unidentified (198.51.100.77)', 'sign-in refused']]);
    const refusals = h.consoleLogs().slice(logsBefore).filter((line) => String(line.message).startsWith('console sign-in refused'));
    expect(refusals).toHaveLength(30);
    expect(refusals.at(-1)).toMatchObject({ refusedInWindow: 30 });
  });

  test('unset, ADMIN_AUTH_PROXY falls back to TRUST_PROXY with one warning at start', () => {
    expect(h.consoleLogs().filter((line) => FALLBACK_WARNING.test(String(line.message)))).toHaveLength(1);
  });
});

describe('ADMIN_AUTH_PROXY: the sign-on proxy\'s own addresses', () => {
  test('is parsed like TRUST_PROXY, and alone is enough for ADMIN_AUTH_HEADER', () => {
    expect(() => loadConfig({ ...SSO, ADMIN_AUTH_PROXY: '10.0.0.4/33' })).toThrow(/^invalid ADMIN_AUTH_PROXY \(got "10\.0\.0\.4\/33"\): .*bad prefix length/);
    expect(() => loadConfig({ ...SSO, ADMIN_AUTH_PROXY: 'oauth2-proxy' })).toThrow(/^invalid ADMIN_AUTH_PROXY .*not an IP address or CIDR/);
    expect(() => loadConfig({ ...SSO })).toThrow(/^invalid ADMIN_AUTH_HEADER .*set ADMIN_AUTH_PROXY/);
    const config = loadConfig({ ...SSO, ADMIN_AUTH_PROXY: '10.0.0.4, ::ffff:10.0.0.5' });
    expect(config.ADMIN_AUTH_PROXY?.has('10.0.0.5')).toBe(true);
    expect(config.TRUST_PROXY.entries).toEqual([]);
  });

  test('a peer trusted for X-Forwarded-For but not in ADMIN_AUTH_PROXY names nobody', async () => {
    const h = await startConsoleHarness({ ...SSO, ADMIN_AUTH_PROXY: '10.9.9.9' }, { relay: false });
    try {
      await addSignOnOperator(h, 'kim@shop.example');
      const page = await request(h.admin).get('/console').set('Host', HOST).set('X-Forwarded-Email', 'kim@shop.example');
      expect(page.status).toBe(303);
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(await sessionCount(h)).toBe(0);
      expect(h.consoleLogs().filter((line) => FALLBACK_WARNING.test(String(line.message)))).toEqual([]);
    } finally {
      await h.close();
    }
  });

  test('a peer in ADMIN_AUTH_PROXY (and not in TRUST_PROXY) signs a single sign-on operator in', async () => {
    const h = await startConsoleHarness({ ...SSO, TRUST_PROXY: '10.9.9.9', ADMIN_AUTH_PROXY: '127.0.0.1,::1' }, { relay: false });
    try {
      await addSignOnOperator(h, 'kim@shop.example');
      const page = await request(h.admin).get('/console').set('Host', HOST).set('X-Forwarded-Email', 'kim@shop.example').expect(200);
      expect(page.text).toContain('kim@shop.example (');
    } finally {
      await h.close();
    }
  });
});

describe('the session cookie over HTTPS is __Host- prefixed', () => {
  let h: ConsoleHarness;
  const PUBLIC = 'ops.shop.example';
  beforeAll(async () => {
    h = await startConsoleHarness({ ADMIN_PUBLIC_URL: `https://${PUBLIC}` }, { relay: false });
  });
  afterAll(() => h.close());

  test('Secure, Path=/ and no Domain; read by that name only, and cleared by it at sign-out', async () => {
    const token = await h.addOperator('park', 'viewer');
    const signIn = await request(h.admin).post('/console/sign-in').set('Host', PUBLIC).set('Origin', `https://${PUBLIC}`).type('form').send({ token }).expect(303);
    const setCookie = String(signIn.headers['set-cookie']);
    expect(setCookie).toMatch(/^__Host-noti_console=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    const value = /^__Host-noti_console=([^;]+)/.exec(setCookie)![1]!;

    const page = await request(h.admin).get('/console/events').set('Host', PUBLIC).set('Cookie', `__Host-noti_console=${value}`).expect(200);
    // A plain-named cookie over HTTPS is no session: anyone on a sibling subdomain or plain http could have set it.
    expect((await request(h.admin).get('/console/events').set('Host', PUBLIC).set('Cookie', `noti_console=${value}`)).status).toBe(303);

    const out = await request(h.admin).post('/console/sign-out').set('Host', PUBLIC).set('Origin', `https://${PUBLIC}`)
      .set('Cookie', `__Host-noti_console=${value}`).type('form').send({ _csrf: csrfIn(page.text) }).expect(303);
    expect(String(out.headers['set-cookie'])).toMatch(/^__Host-noti_console=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict$/);
    expect((await request(h.admin).get('/console/events').set('Host', PUBLIC).set('Cookie', `__Host-noti_console=${value}`)).status).toBe(303);
  });

  test('over plain http the cookie keeps its plain name (a browser refuses __Host- without Secure)', async () => {
    const plain = await startConsoleHarness({}, { relay: false });
    try {
      const signIn = await request(plain.admin).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: ADMIN_TOKEN }).expect(303);
      expect(String(signIn.headers['set-cookie'])).toMatch(/^noti_console=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
    } finally {
      await plain.close();
    }
  });
});
