import request from 'supertest';
import { describePostgres } from '../store/pg-test-database';
import { ADMIN_TOKEN, HOST, ORIGIN, consoleAppOver, csrfIn } from './console-harness';
import { newSecret, secretHash } from '../../src/store/operator-credentials';
import { replicaStores } from './replica-stores';

describePostgres('two console replicas on one PostgreSQL schema', () => {
  const replicas = replicaStores();

  test('a session made on one replica works on the other; signing out or removing the operator ends it on both', async () => {
    const { a, b } = replicas();
    const replicaA = consoleAppOver(a.store);
    const replicaB = consoleAppOver(b.store);
    const token = newSecret();
    await a.store.addOperator({ name: 'kim@shop.example', role: 'operator', tokenHash: secretHash(token), createdAt: new Date().toISOString() });

    const signIn = await request(replicaA).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token }).expect(303);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const onB = await request(replicaB).get('/console/events').set('Host', HOST).set('Cookie', cookie).expect(200);
    expect(onB.text).toContain('kim@shop.example (');
    // The CSRF token is the session's: a form from replica B is accepted by replica A.
    const csrf = csrfIn(onB.text);
    const onA = await request(replicaA).get('/console').set('Host', HOST).set('Cookie', cookie).expect(200);
    expect(csrfIn(onA.text)).toBe(csrf);

    await request(replicaB).post('/console/sign-out').set('Host', HOST).set('Origin', ORIGIN).set('Cookie', cookie).type('form').send({ _csrf: csrf }).expect(303);
    expect((await request(replicaA).get('/console').set('Host', HOST).set('Cookie', cookie)).status).toBe(303);

    const again = await request(replicaB).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token }).expect(303);
    const second = String(again.headers['set-cookie']).split(';')[0]!;
    await request(replicaA).get('/console').set('Host', HOST).set('Cookie', second).expect(200);
    expect(await b.store.removeOperator('kim@shop.example')).toEqual({ removed: true, sessionsEnded: 1 });
    expect((await request(replicaA).get('/console').set('Host', HOST).set('Cookie', second)).status).toBe(303);
  });

  test('an admin adds a viewer on one replica; on the other the viewer reads and its replayed POST is 403', async () => {
    const { a, b } = replicas();
    const replicaA = consoleAppOver(a.store);
    const replicaB = consoleAppOver(b.store);
    const admin = request.agent(replicaA);
    await admin.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: ADMIN_TOKEN }).expect(303);
    const page = await admin.get('/console/operators').set('Host', HOST).expect(200);
    const added = await admin.post('/console/operators/add').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrfIn(page.text), name: 'vera', role: 'viewer' }).expect(200);
    const token = /id="new-token">([^<]+)</.exec(added.text)![1]!;

    const viewer = request.agent(replicaB);
    await viewer.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token }).expect(303);
    const events = await viewer.get('/console/events').set('Host', HOST).expect(200);
    const auditBefore = await a.store.listAudit(100);
    const replay = await viewer.post('/console/events/requeue-dead').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrfIn(events.text) });
    expect(replay.status).toBe(403);
    expect(await a.store.listAudit(100)).toEqual(auditBefore);
  });
});
