import { inboxEntry } from '../helpers/stored-events';
import { HOST, ORIGIN, startConsoleHarness, type ConsoleHarness } from './console-harness';

describe('console event page: every delivery attempt', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    // No relay: the attempts are the ones the test records.
    h = await startConsoleHarness({}, { relay: false });
  });
  afterAll(() => h.close());

  test('lists each attempt with when, outcome and its error as masked text, and the requeue with who did it', async () => {
    const store = h.receiver.store;
    const entry = inboxEntry({ pgCno: 'PG-ATTEMPTS', shopOrderNo: 'ORDER-ATTEMPTS' });
    await store.record(entry);
    const [row] = await store.nextPending(1);
    await store.markRetry(row!.seq, 'queue said <script>window.__pwned=1</script>', Date.parse('2026-11-21T03:00:05.000Z'), { at: '2026-11-21T03:00:00.000Z', publisher: 'http' });
    await store.markDead(row!.seq, 'answered 400: {"cardNo":"4111111111111111"} <img src=x onerror=alert(1)>', { at: '2026-11-21T03:00:06.000Z' });
    const { agent, csrf } = await h.signIn('park');
    await agent.post(`/console/events/${entry.event.id}/requeue`).set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf }).expect(303);
    await store.markDelivered([row!.seq], '2026-11-21T03:10:00.000Z', 'http');

    const page = (await agent.get(`/console/events/${entry.event.id}`).set('Host', HOST).expect(200)).text;
    const section = page.slice(page.indexOf('<h2>Delivery attempts</h2>'), page.indexOf('</table></section>', page.indexOf('<h2>Delivery attempts</h2>')));
    const rows = [...section.matchAll(/<tr><td class="num">([^<]*)<\/td><td>(.*?)<\/td>\s*<td>(.*?)<\/td><td class="error mono">(.*?)<\/td><\/tr>/gs)]
      .map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, ''), m[3]!.replace(/<[^>]+>/g, ''), m[4]]);
    expect(rows).toEqual([
      ['1', '2026-11-21 12:00:00 KST', 'retry via http · next at 2026-11-21 12:00:05 KST', 'queue said &lt;script&gt;window.__pwned=1&lt;/script&gt;'],
      ['2', '2026-11-21 12:00:06 KST', 'dead', 'answered 400: {&quot;cardNo&quot;:&quot;************1111&quot;} &lt;img src=x onerror=alert(1)&gt;'],
      ['—', expect.stringMatching(/ KST$/), expect.stringMatching(/^requeued by park \(/), ''],
      ['1', '2026-11-21 12:10:00 KST', 'delivered via http', ''],
    ]);
    expect(page).not.toContain('<script>window.__pwned');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('4111111111111111');
  });

  test('an event not tried yet says so', async () => {
    const entry = inboxEntry({ pgCno: 'PG-UNTRIED' });
    await h.receiver.store.record(entry);
    const { agent } = await h.signIn();
    const page = (await agent.get(`/console/events/${entry.event.id}`).set('Host', HOST).expect(200)).text;
    expect(page).toContain('Delivery attempts');
    expect(page).toContain('Not tried yet.');
  });
});
