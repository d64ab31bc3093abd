import request from 'supertest';
import { loadConfig } from '../../src/config/env';
import { HOST, ORIGIN, startConsoleHarness, type ConsoleHarness } from './console-harness';

const SSO = { ADMIN_AUTH_HEADER: 'X-Forwarded-Email' };

describe('single sign-on through an authenticating proxy in TRUST_PROXY (ADMIN_AUTH_HEADER)', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    // supertest connects from loopback, which the harness's TRUST_PROXY names: it plays the proxy.
    h = await startConsoleHarness(SSO, { relay: false });
    await h.receiver.store.addOperator({ name: 'kim@shop.example', role: 'operator', tokenHash: null, createdAt: new Date().toISOString() });
  });
  afterAll(() => h.close());

  test('a known operator is signed in without a form: a database session, the audit names them', async () => {
    const agent = request.agent(h.admin);
    const page = await agent.get('/console').set('Host', HOST).set('X-Forwarded-Email', 'kim@shop.example');
    expect(page.status).toBe(200);
    expect(page.text).toContain('kim@shop.example (');
    expect(String(page.headers['set-cookie'])).toMatch(/noti_console=.+HttpOnly/);
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'signed in', actor: expect.stringMatching(/^kim@shop\.example \(/), detail: 'through the sign-on proxy' });
    // The session is the database's: the cookie alone is enough on the next request.
    await agent.get('/console/events').set('Host', HOST).expect(200);
    expect((await agent.get('/console/sign-in').set('Host', HOST)).status).toBe(303);
  });

  test('a sign-on session follows the proxy: when it names another person, the old session ends and the audit names the new one', async () => {
    await h.receiver.store.addOperator({ name: 'park@shop.example', role: 'viewer', tokenHash: null, createdAt: new Date().toISOString() });
    const browser = request.agent(h.admin);
    const asKim = await browser.get('/console').set('Host', HOST).set('X-Forwarded-Email', 'kim@shop.example').expect(200);
    const kimCookie = /noti_console=([^;]+)/.exec(String(asKim.headers['set-cookie']))?.[1];
    expect(kimCookie).toBeDefined();
    // Park signs in at the proxy in the same browser while Kim's cookie is still there.
    const asPark = await browser.get('/console').set('Host', HOST).set('X-Forwarded-Email', 'park@shop.example');
    expect(asPark.status).toBe(200);
    expect(asPark.text).toContain('park@shop.example (');
    expect(asPark.text).not.toContain('kim@shop.example (');
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'signed in', actor: expect.stringMatching(/^park@shop\.example \(/) });
    // Kim's session is over everywhere, not only in this browser.
    const replayed = await request(h.admin).get('/console/events').set('Host', HOST).set('Cookie', `noti_console=${kimCookie}`);
    expect(replayed.status).toBe(303);
    // An unknown name at the proxy ends the session too, and is refused.
    const stranger = await browser.get('/console').set('Host', HOST).set('X-Forwarded-Email', 'nobody@shop.example');
    expect(stranger.status).toBe(403);
    expect((await browser.get('/console').set('Host', HOST)).status).toBe(303);
  });

  test('an unknown name gets a 403 page that shows the name as text, and no session', async () => {
    const name = '<script>alert(1)</script>@evil.example';
    const page = await request(h.admin).get('/console/events').set('Host', HOST).set('X-Forwarded-Email', name);
    expect(page.status).toBe(403);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;@evil.example');
    expect(page.text).not.toContain('<script>alert');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'sign-in refused' });
  });

  test('token operators and the bootstrap admin still sign in with their token behind the proxy', async () => {
    const token = await h.addOperator('lee', 'viewer');
    const form = await request(h.admin).get('/console/sign-in').set('Host', HOST).set('X-Forwarded-Email', 'lee@shop.example');
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="token">Token</label>');
    for (const given of [token, 'console-test-token-0123456789']) {
      const agent = request.agent(h.admin);
      await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).set('X-Forwarded-Email', 'lee@shop.example').type('form').send({ token: given }).expect(303);
      await agent.get('/console').set('Host', HOST).set('X-Forwarded-Email', 'lee@shop.example').expect(200);
    }
  });

  test('from a peer that is not in TRUST_PROXY the header is ignored', async () => {
    const untrusted = await startConsoleHarness({ ...SSO, TRUST_PROXY: '10.9.9.9' }, { relay: false });
    try {
      await untrusted.receiver.store.addOperator({ name: 'kim@shop.example', role: 'admin', tokenHash: null, createdAt: new Date().toISOString() });
      const page = await request(untrusted.admin).get('/console').set('Host', HOST).set('X-Forwarded-Email', 'kim@shop.example');
      expect(page.status).toBe(303);
      expect(page.headers.location).toBe('/console/sign-in?next=%2Fconsole');
      expect(page.headers['set-cookie']).toBeUndefined();
      const unknown = await request(untrusted.admin).get('/console').set('Host', HOST).set('X-Forwarded-Email', 'nobody@evil.example');
      expect(unknown.status).toBe(303);
      expect(await untrusted.receiver.store.listAudit(10)).toEqual([]);
    } finally {
      await untrusted.close();
    }
  });

  test('the start refuses ADMIN_AUTH_HEADER without TRUST_PROXY, and an ADMIN_PUBLIC_URL that is no origin, naming the variable', () => {
    expect(() => loadConfig({ ...SSO })).toThrow(/^invalid ADMIN_AUTH_HEADER.*TRUST_PROXY/);
    expect(() => loadConfig({ ADMIN_PUBLIC_URL: 'https://ops.shop.example/console' })).toThrow(/^invalid ADMIN_PUBLIC_URL .*no path/);
    expect(() => loadConfig({ ADMIN_PUBLIC_URL: 'ops.shop.example' })).toThrow(/^invalid ADMIN_PUBLIC_URL /);
    expect(() => loadConfig({ ADMIN_SESSION_IDLE_MINUTES: '0' })).toThrow(/^invalid ADMIN_SESSION_IDLE_MINUTES /);
    expect(loadConfig({ ADMIN_PUBLIC_URL: 'https://OPS.shop.example:443/' }).ADMIN_PUBLIC_URL?.origin).toBe('https://ops.shop.example');
  });
});

describe('ADMIN_PUBLIC_URL: the Host check against DNS rebinding, the Origin check and the Secure cookie', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    h = await startConsoleHarness({ ADMIN_PUBLIC_URL: 'https://ops.shop.example' }, { relay: false });
  });
  afterAll(() => h.close());

  test('a console request for another host is refused with a 4xx; the probes and /metrics answer any Host', async () => {
    for (const path of ['/console', '/console/sign-in', '/console/assets/console.css', '/', '/anything']) {
      const answer = await request(h.admin).get(path).set('Host', 'rebound.evil.example');
      expect([path, answer.status]).toEqual([path, 421]);
    }
    const post = await request(h.admin).post('/console/sign-in').set('Host', 'rebound.evil.example').set('Origin', 'http://rebound.evil.example').type('form')
      .send({ token: 'console-test-token-0123456789' });
    expect(post.status).toBe(421);
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect([path, (await request(h.admin).get(path).set('Host', 'rebound.evil.example')).status]).toEqual([path, 200]);
    }
  });

  test("the public host, the proxy's X-Forwarded-Host of it, and the listener's own address are served", async () => {
    await request(h.admin).get('/console/sign-in').set('Host', 'ops.shop.example').expect(200);
    await request(h.admin).get('/console/sign-in').set('Host', '10.0.0.5:9464').set('X-Forwarded-Host', 'ops.shop.example').expect(200);
    // supertest names the listener's own address (127.0.0.1:port) in Host.
    await request(h.admin).get('/console/sign-in').expect(200);
  });

  test('the Origin check compares against it and the cookie is Secure', async () => {
    const token = await h.addOperator('park', 'operator');
    const forged = await request(h.admin).post('/console/sign-in').set('Host', 'ops.shop.example').set('Origin', 'https://evil.example').type('form').send({ token });
    expect(forged.status).toBe(403);
    // A Host that is neither the public one nor the listener's own address (its port missing) is refused first.
    const signIn = await request(h.admin).post('/console/sign-in').set('Host', '127.0.0.1').set('Origin', 'https://ops.shop.example').type('form').send({ token });
    expect(signIn.status).toBe(421);
    const ok = await request(h.admin).post('/console/sign-in').set('Host', 'ops.shop.example').set('Origin', 'https://ops.shop.example').type('form').send({ token });
    expect(ok.status).toBe(303);
    expect(String(ok.headers['set-cookie'])).toMatch(/; Secure/);
  });
});
