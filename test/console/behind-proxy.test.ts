import request from 'supertest';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { ADMIN_TOKEN, csrfIn, startConsoleHarness, type ConsoleHarness } from './console-harness';

/** What a TLS-terminating proxy in front of the admin listener sends on: the browser's origin in X-Forwarded-*. */
const PUBLIC_HOST = 'console.example.com';
const PUBLIC_ORIGIN = `https://${PUBLIC_HOST}`;
const proxied = (test: request.Test, client = '198.51.100.7') =>
  test.set('Host', '10.0.0.5:9464').set('X-Forwarded-Proto', 'https').set('X-Forwarded-Host', PUBLIC_HOST).set('X-Forwarded-For', client);

describe('the console behind a TLS-terminating proxy named in TRUST_PROXY', () => {
  let h: ConsoleHarness;
  let eventId: string;
  beforeAll(async () => {
    // supertest connects from 127.0.0.1: the harness's TRUST_PROXY (127.0.0.1) makes it the proxy.
    h = await startConsoleHarness();
    await h.receiver.postJson(approvalNotification({ shopOrderNo: 'ORDER-PROXY' })).expect(200);
    eventId = (await h.receiver.store.searchEvents({ query: 'ORDER-PROXY', limit: 1, offset: 0 }))[0]!.eventId;
  });
  afterAll(() => h.close());

  test('an operator signs in over https and the session cookie is Secure', async () => {
    const agent = request.agent(h.admin);
    const signIn = await proxied(agent.post('/console/sign-in')).set('Origin', PUBLIC_ORIGIN).type('form').send({ token: await h.addOperator('lee') });
    expect(signIn.status).toBe(303);
    expect(String(signIn.headers['set-cookie'])).toMatch(/; Secure/);
    // The audit names the operator's address, not the proxy's.
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'signed in', actor: 'lee (198.51.100.7)' });

    // superagent keeps a Secure cookie for https only, so the next requests carry it by hand.
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const page = await proxied(request(h.admin).get('/console/events')).set('Cookie', cookie).expect(200);
    const requeue = await proxied(request(h.admin).post(`/console/events/${eventId}/requeue`)).set('Cookie', cookie).set('Origin', PUBLIC_ORIGIN)
      .type('form').send({ _csrf: csrfIn(page.text) });
    expect(requeue.status).toBe(303);
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'requeued', subject: eventId });
  });

  test('a proxy that names the default port, or the host in capitals, still matches the browser\'s Origin', async () => {
    for (const forwardedHost of [`${PUBLIC_HOST}:443`, PUBLIC_HOST.toUpperCase()]) {
      const answer = await proxied(request(h.admin).post('/console/sign-in')).set('X-Forwarded-Host', forwardedHost).set('Origin', PUBLIC_ORIGIN)
        .type('form').send({ token: ADMIN_TOKEN });
      expect([forwardedHost, answer.status]).toEqual([forwardedHost, 303]);
    }
  });

  test('a forged origin is still refused through the proxy', async () => {
    const answer = await proxied(request(h.admin).post('/console/sign-in')).set('Origin', 'https://evil.example').type('form').send({ token: ADMIN_TOKEN });
    expect(answer.status).toBe(403);
  });
});

describe('the same headers from a peer that is not in TRUST_PROXY', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    h = await startConsoleHarness({ TRUST_PROXY: '10.9.9.9' }, { relay: false });
  });
  afterAll(() => h.close());

  test('are ignored: the public origin is refused, the listener\'s own is accepted, and the cookie is not Secure', async () => {
    const forged = await proxied(request(h.admin).post('/console/sign-in')).set('Origin', PUBLIC_ORIGIN).type('form').send({ token: ADMIN_TOKEN });
    expect(forged.status).toBe(403);
    const direct = await proxied(request(h.admin).post('/console/sign-in')).set('Origin', 'http://10.0.0.5:9464').type('form').send({ token: await h.addOperator('lee') });
    expect(direct.status).toBe(303);
    expect(String(direct.headers['set-cookie'])).not.toMatch(/Secure/);
    // Nor is X-Forwarded-For: the audit names the peer itself.
    expect((await h.receiver.store.listAudit(1))[0]!.actor).toMatch(/^lee \((127\.0\.0\.1|::1)\)$/);
  });
});

describe('the sign-in throttle behind a trusted proxy', () => {
  test('counts per forwarded client: ten wrong tokens from A lock out A, not B behind the same proxy; every refusal is audited with its address', async () => {
    const clock = Date.parse('2026-11-22T00:00:00Z');
    const h = await startConsoleHarness({}, { relay: false, now: () => new Date(clock) });
    try {
      const attempt = (client: string, token: string) =>
        proxied(request(h.admin).post('/console/sign-in'), client).set('Origin', PUBLIC_ORIGIN).type('form').send({ token, name: 'x' });
      for (let i = 0; i < 10; i++) expect((await attempt('198.51.100.1', `wrong-${i}`)).status).toBe(401);

      const locked = await attempt('198.51.100.1', ADMIN_TOKEN);
      expect(locked.status).toBe(429);
      expect(locked.headers['retry-after']).toBe('600');
      // When, in the operator's clock and as a wait: 2026-11-22 00:10 UTC is 09:10 KST.
      expect(locked.text).toContain('2026-11-22 09:10:00 KST');
      expect(locked.text).toContain('10 minute(s)');

      expect((await attempt('198.51.100.2', ADMIN_TOKEN)).status).toBe(303);

      const refusals = (await h.receiver.store.listAudit(100)).filter((row) => row.action === 'sign-in refused');
      expect(refusals).toHaveLength(11);
      expect(refusals.every((row) => row.actor === 'unidentified (198.51.100.1)')).toBe(true);
      expect(refusals.filter((row) => /too many wrong tokens/.test(row.detail ?? ''))).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});
