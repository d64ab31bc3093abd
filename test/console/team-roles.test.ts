import request from 'supertest';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { HOST, ORIGIN, csrfIn, startConsoleHarness, type ConsoleHarness } from './console-harness';

/** Every page a viewer may read, with the action buttons an operator would see on it. */
const BUTTONS = /<button[^>]*>(Requeue|Requeue all dead|Reprocess|Replace token|Remove|Add operator)<\/button>/;

describe('roles: what a viewer, an operator and an admin may do', () => {
  let h: ConsoleHarness;
  let eventId: string;
  let rejectionId: number;
  let pages: string[];
  beforeAll(async () => {
    h = await startConsoleHarness({ MALL_IDS: 'T0001234' }, { relay: false });
    await h.receiver.postJson(approvalNotification({ shopOrderNo: 'ORDER-ROLES' })).expect(200);
    eventId = (await h.receiver.store.searchEvents({ query: 'ORDER-ROLES', limit: 1, offset: 0 }))[0]!.eventId;
    await h.receiver.postJson(approvalNotification({ mallId: 'T0009999', shopOrderNo: 'ORDER-REJECTED' })).expect(400);
    rejectionId = (await h.receiver.store.listRejections(1))[0]!.id;
    const original = approvalNotification({ shopOrderNo: 'ORDER-CONFLICT' });
    await h.receiver.postJson(original).expect(200);
    await h.receiver.postJson({ ...original, amount: '1000' }).expect(200);
    const conflictId = (await h.receiver.store.listConflicts(1))[0]!.id;
    pages = ['/console', '/console/events', `/console/events/${eventId}`, '/console/events?status=pending', '/console/rejections',
      `/console/rejections/${rejectionId}`, '/console/conflicts', `/console/conflicts/${conflictId}`, '/console/commands', '/console/audit'];
  });
  afterAll(() => h.close());

  test('a viewer reads every page and sees no action button and no Operators page', async () => {
    const { agent } = await h.signIn('vera', 'viewer');
    for (const path of pages) {
      const page = await agent.get(path).set('Host', HOST);
      expect([path, page.status]).toEqual([path, 200]);
      expect([path, BUTTONS.exec(page.text)?.[0] ?? null]).toEqual([path, null]);
      expect(page.text).not.toContain('/console/operators');
      expect(page.text).toContain('Sign out');
    }
    expect((await agent.get('/console/operators').set('Host', HOST)).status).toBe(403);
  });

  test("a viewer's replayed POSTs with a valid CSRF token are 403 and change nothing", async () => {
    const { agent, csrf } = await h.signIn('vera', 'viewer');
    const before = { event: await h.receiver.store.getEvent(eventId), rejection: await h.receiver.store.getRejection(rejectionId),
      attempts: await h.receiver.store.deliveryAttempts(eventId), audit: await h.receiver.store.listAudit(500), operators: await h.receiver.store.listOperators() };
    const posts: Array<[string, Record<string, string>]> = [
      [`/console/events/${eventId}/requeue`, {}],
      ['/console/events/requeue-dead', { status: 'dead' }],
      [`/console/rejections/${rejectionId}/reprocess`, {}],
      ['/console/operators/add', { name: 'mallory', role: 'admin' }],
      ['/console/operators/token', { name: 'vera' }],
      ['/console/operators/remove', { name: 'vera' }],
    ];
    for (const [path, form] of posts) {
      const answer = await agent.post(path).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ ...form, _csrf: csrf });
      expect([path, answer.status]).toEqual([path, 403]);
    }
    expect(await h.receiver.store.getEvent(eventId)).toEqual(before.event);
    expect(await h.receiver.store.getRejection(rejectionId)).toEqual(before.rejection);
    expect(await h.receiver.store.deliveryAttempts(eventId)).toEqual(before.attempts);
    expect(await h.receiver.store.listAudit(500)).toEqual(before.audit);
    expect(await h.receiver.store.listOperators()).toEqual(before.operators);
    // Still signed in: a refused action is not a sign-out.
    expect((await agent.get('/console').set('Host', HOST)).status).toBe(200);
  });

  test('an operator requeues and reprocesses, names themself in the audit, and may not manage operators', async () => {
    const { agent, csrf } = await h.signIn('omar', 'operator');
    const event = await agent.get(`/console/events/${eventId}`).set('Host', HOST).expect(200);
    expect(event.text).toMatch(/<button[^>]*>Requeue<\/button>/);
    expect(event.text).not.toContain('/console/operators');
    await agent.post(`/console/events/${eventId}/requeue`).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf }).expect(303);
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'requeued', subject: eventId, actor: expect.stringMatching(/^omar \(/) });
    expect((await h.receiver.store.deliveryAttempts(eventId)).at(-1)).toMatchObject({ outcome: 'requeued', actor: expect.stringMatching(/^omar \(/) });
    await agent.post(`/console/rejections/${rejectionId}/reprocess`).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf }).expect(422);
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'reprocess refused', actor: expect.stringMatching(/^omar \(/) });

    expect((await agent.get('/console/operators').set('Host', HOST)).status).toBe(403);
    const add = await agent.post('/console/operators/add').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, name: 'x', role: 'admin' });
    expect(add.status).toBe(403);
    expect((await h.receiver.store.listOperators()).map((o) => o.name)).not.toContain('x');
  });

  test('an admin adds an operator (the token shown once signs them in), replaces the token and removes them, each audited', async () => {
    const { agent, csrf } = await h.signIn('ada', 'admin');
    const list = await agent.get('/console/operators').set('Host', HOST).expect(200);
    expect(list.text).toContain('<td class="mono">vera</td>');

    const added = await agent.post('/console/operators/add').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, name: 'nina@shop.example', role: 'viewer' });
    expect(added.status).toBe(200);
    const token = /<code class="mono" id="new-token">([^<]+)<\/code>/.exec(added.text)![1]!;
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'added operator', subject: 'nina@shop.example', detail: 'viewer', actor: expect.stringMatching(/^ada \(/) });
    expect((await agent.get('/console/operators').set('Host', HOST)).text).not.toContain(token);

    const nina = request.agent(h.admin);
    await nina.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token }).expect(303);
    expect((await nina.get('/console').set('Host', HOST).expect(200)).text).toContain('nina@shop.example (');

    const rotated = await agent.post('/console/operators/token').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, name: 'nina@shop.example' });
    expect(rotated.status).toBe(200);
    const newToken = /id="new-token">([^<]+)</.exec(rotated.text)![1]!;
    expect(newToken).not.toBe(token);
    // A replaced token may have leaked: its sessions end and it signs nobody in.
    expect((await nina.get('/console').set('Host', HOST)).status).toBe(303);
    expect((await request(h.admin).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token })).status).toBe(401);
    await nina.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: newToken }).expect(303);

    const removed = await agent.post('/console/operators/remove').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, name: 'nina@shop.example' });
    expect(removed.status).toBe(303);
    expect((await h.receiver.store.listAudit(1))[0]).toMatchObject({ action: 'removed operator', subject: 'nina@shop.example', detail: '1 session(s) ended', actor: expect.stringMatching(/^ada \(/) });
    expect((await nina.get('/console').set('Host', HOST)).status).toBe(303);
  });

  test('the Operators page shows names as text', async () => {
    const { agent, csrf } = await h.signIn('ada', 'admin');
    const added = await agent.post('/console/operators/add').set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, name: '<img src=x onerror=alert(1)>', role: 'viewer', sso: 'on' });
    expect(added.status).toBe(200);
    expect(added.text).not.toContain('<img src=x');
    expect(added.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  test.each([
    ['admin + U+034F', 'admin\u034f', 'invisible characters'],
    ['ledger + U+FE0F', 'ledger\ufe0f', 'invisible characters'],
    ['admin + U+3164', 'admin\u3164', 'invisible characters'],
    ['U+115F + admin', '\u115fadmin', 'invisible characters'],
    ['Admin', 'Admin', 'reserved for the bootstrap operator'],
    ['full-width ledger', 'ｌｅｄｇｅｒ', "reserved for the ledger's own resolutions"],
    ['a Hangul filler in a name', '김\uffa0민지', 'invisible characters'],
    ['a zero-width space in a name', 'kim\u200blee', 'control or invisible'],
    ["another operator's name in capitals", 'ADA', 'must not read as another operator&#39;s: &quot;ada&quot; exists'],
    ["another operator's name with a Cyrillic а", '\u0430da', 'must not read as another operator&#39;s: &quot;ada&quot; exists'],
    ['admin with a Cyrillic а', '\u0430dmin', 'reserved for the bootstrap operator'],
  ])('the operator form refuses a name with %s, and adds no one', async (_what, name, reason) => {
    const { agent, csrf } = await h.signIn('ada', 'admin');
    const before = await h.receiver.store.listOperators();
    const added = await agent.post('/console/operators/add').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, name, role: 'admin' });
    expect(added.status).toBe(422);
    expect(added.text).toContain(reason.replace(/'/g, '&#39;'));
    expect(added.text).not.toContain('id="new-token"');
    expect(await h.receiver.store.listOperators()).toEqual(before);
  });

  test('the bootstrap admin signs in with ADMIN_TOKEN as "admin" and manages operators', async () => {
    const { agent } = await h.signIn('admin');
    const page = await agent.get('/console/operators').set('Host', HOST).expect(200);
    expect(csrfIn(page.text)).toBeTruthy();
    expect((await h.receiver.store.listAudit(5)).find((row) => row.action === 'signed in')).toMatchObject({ actor: expect.stringMatching(/^admin \(/), detail: 'role admin' });
  });
});
