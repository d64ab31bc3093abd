import request from 'supertest';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { ADMIN_TOKEN, HOST, ORIGIN, startConsoleHarness, type ConsoleHarness } from './console-harness';

describe('console access: sign-in, sessions and CSRF', () => {
  let h: ConsoleHarness;
  let eventId: string;
  beforeAll(async () => {
    h = await startConsoleHarness();
    await h.receiver.postJson(approvalNotification({ shopOrderNo: 'ORDER-ACCESS' })).expect(200);
    eventId = (await h.receiver.store.searchEvents({ query: 'ORDER-ACCESS', limit: 1, offset: 0 }))[0]!.eventId;
  });
  afterAll(() => h.close());

  test('without a session, pages redirect to the sign-in and console API calls are 401', async () => {
    const page = await request(h.admin).get(`/console/events/${eventId}`).set('Host', HOST);
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe(`/console/sign-in?next=${encodeURIComponent(`/console/events/${eventId}`)}`);
    await request(h.admin).get('/console/api/activity').set('Host', HOST).expect(401);
    await request(h.admin).post(`/console/events/${eventId}/requeue`).set('Host', HOST).set('Origin', ORIGIN).type('form').send({}).expect(401);
    await request(h.admin).get('/anything-else').set('Host', HOST).expect(303);
  });

  test('probes and metrics stay open', async () => {
    await request(h.admin).get('/healthz').expect(200);
    await request(h.admin).get('/readyz').expect(200);
    await request(h.admin).get('/metrics').expect(200);
  });

  test('the sign-in page has a Token field and a Sign in button', async () => {
    const page = await request(h.admin).get('/console/sign-in').set('Host', HOST).expect(200);
    expect(page.text).toMatch(/<label for="token">Token<\/label>/);
    expect(page.text).toContain('<button type="submit" class="primary">Sign in</button>');
  });

  test('a wrong token is refused with no session, and the attempt is audited', async () => {
    const answer = await request(h.admin).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: 'guess', name: 'mallory' });
    expect(answer.status).toBe(401);
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.text).toContain('That token is not right.');
    // A name typed beside a wrong token names nobody: the refusal is audited with the address only.
    expect((await h.receiver.store.listAudit(10)).map((row) => [row.actor.split(' ')[0], row.action])).toContainEqual(['unidentified', 'sign-in refused']);
  });

  test('the right token sets an HttpOnly, SameSite=Strict session cookie and goes back where the operator was heading', async () => {
    const answer = await request(h.admin)
      .post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ token: ADMIN_TOKEN, name: 'kim', next: '/console/events' });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/console/events');
    const cookie = String(answer.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const audit = await h.receiver.store.listAudit(1);
    expect(audit[0]).toMatchObject({ action: 'signed in' });
    expect(h.consoleLogs()).toContainEqual(expect.objectContaining({ message: 'console audit', audit: expect.objectContaining({ action: 'signed in' }) }));
  });

  test('a sign-in never redirects outside the console', async () => {
    const answer = await request(h.admin).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ token: ADMIN_TOKEN, next: '//evil.example/console' });
    expect(answer.headers.location).toBe('/console');
  });

  test('a POST without the CSRF token, from another Origin, or with no origin at all is 403 and changes nothing', async () => {
    const { agent, csrf } = await h.signIn();
    const requeue = () => agent.post(`/console/events/${eventId}/requeue`).set('Host', HOST).type('form');
    const auditBefore = (await h.receiver.store.listAudit(100)).length;

    expect((await requeue().set('Origin', ORIGIN).send({})).status).toBe(403);
    expect((await requeue().set('Origin', ORIGIN).send({ _csrf: 'forged' })).status).toBe(403);
    expect((await requeue().set('Origin', 'http://evil.example').send({ _csrf: csrf })).status).toBe(403);
    expect((await requeue().send({ _csrf: csrf })).status).toBe(403);
    expect((await request(h.admin).post('/console/sign-in').set('Host', HOST).set('Origin', 'http://evil.example').type('form').send({ token: ADMIN_TOKEN })).status).toBe(403);
    expect((await h.receiver.store.listAudit(100)).length).toBe(auditBefore);

    const ok = await requeue().set('Origin', ORIGIN).send({ _csrf: csrf });
    expect(ok.status).toBe(303);
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'requeued', subject: eventId });
  });

  test('signing out ends the session', async () => {
    const { agent, csrf } = await h.signIn();
    await agent.post('/console/sign-out').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf }).expect(303);
    expect((await agent.get('/console').set('Host', HOST)).status).toBe(303);
  });

  test('pages forbid inline scripts and framing', async () => {
    const { agent } = await h.signIn();
    const page = await agent.get('/console').set('Host', HOST).expect(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  test('after ten wrong tokens an address must wait, even with the right token, until the window passes', async () => {
    let clock = Date.parse('2026-11-22T00:00:00Z');
    const throttled = await startConsoleHarness({}, { now: () => new Date(clock) });
    try {
      const attempt = (token: string) =>
        request(throttled.admin).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token });
      for (let i = 0; i < 10; i++) expect((await attempt(`wrong-${i}`)).status).toBe(401);
      const refused = await attempt(ADMIN_TOKEN);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('600');
      clock += 10 * 60 * 1000 + 1;
      expect((await attempt(ADMIN_TOKEN)).status).toBe(303);
    } finally {
      await throttled.close();
    }
  });
});
