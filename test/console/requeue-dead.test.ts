import { inboxEntry } from '../helpers/stored-events';
import { HOST, ORIGIN, startConsoleHarness, type ConsoleHarness } from './console-harness';

describe('console "Requeue all dead"', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    // No relay: the rows stay where the test puts them.
    h = await startConsoleHarness({}, { relay: false });
  });
  afterAll(() => h.close());

  test('requeues the dead events of the current filter only, and audits it', async () => {
    const store = h.receiver.store;
    await store.record(inboxEntry({ pgCno: 'PG-DEAD-1', shopOrderNo: 'ORDER-DEAD' }));
    await store.record(inboxEntry({ pgCno: 'PG-DEAD-2', shopOrderNo: 'ORDER-OTHER' }));
    for (const row of await store.nextPending(10)) await store.markDead(row.seq, 'queue refused: <b>bad</b>');
    const { agent, csrf } = await h.signIn();

    const list = await agent.get('/console/events?q=ORDER-DEAD&state=dead').set('Host', HOST).expect(200);
    expect(list.text).toContain('Requeue all dead');
    const answer = await agent.post('/console/events/requeue-dead').set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, q: 'ORDER-DEAD', state: 'dead' });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/console/events?q=ORDER-DEAD&state=dead&done=requeued-dead&n=1');
    const after = await agent.get(answer.headers.location!).set('Host', HOST).expect(200);
    expect(after.text).toContain('Requeued 1 dead event(s) matching this filter.');

    await expect(store.eventCounts()).resolves.toEqual({ pending: 1, delivered: 0, dead: 1 });
    expect((await store.listAudit(1))[0]).toMatchObject({ action: 'requeued all dead', subject: 'events?q=ORDER-DEAD&state=dead', detail: '1 event(s)' });
    const [other] = await store.searchEvents({ query: 'ORDER-OTHER', limit: 1, offset: 0 });
    const page = await agent.get(`/console/events/${other!.eventId}`).set('Host', HOST).expect(200);
    expect(page.text).toContain('queue refused: &lt;b&gt;bad&lt;/b&gt;');
  });
});
