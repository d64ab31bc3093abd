import request from 'supertest';
import { ADMIN_TOKEN, HOST, ORIGIN, startConsoleHarness, type ConsoleHarness } from './console-harness';

const rowsOf = (page: string) => [...page.matchAll(/<td class="mono"><bdi>(s-\d+)<\/bdi><\/td>/g)].map((m) => m[1]!);
const olderLink = (page: string) => /<a href="([^"]+)">Older →<\/a>/.exec(page)?.[1]?.replace(/&amp;/g, '&') ?? null;

describe('the audit log cannot be flooded from the admin port', () => {
  test('a lockout writes one row per client and window, naming the address and the count; each refusal is still logged', async () => {
    let clock = Date.parse('2026-11-22T00:00:00Z');
    const h = await startConsoleHarness({}, { relay: false, now: () => new Date(clock) });
    try {
      const { agent } = await h.signIn('kim');
      await h.receiver.store.recordAudit({ at: new Date(clock).toISOString(), actor: 'kim (10.0.0.7)', action: 'requeued', subject: 'evt_real_action', detail: null });
      const attempt = (token: string) => request(h.admin).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN)
        .set('X-Forwarded-For', '203.0.113.9').type('form').send({ token });
      for (let i = 0; i < 520; i++) await attempt(`wrong-${i}`);

      const refusals = (await h.receiver.store.listAudit(1000)).filter((row) => row.action === 'sign-in refused');
      expect(refusals).toHaveLength(11);
      expect(refusals.every((row) => row.actor === 'unidentified (203.0.113.9)')).toBe(true);
      expect(refusals[0]!.detail).toMatch(/^too many wrong tokens: 10 from this address within 10 minutes; locked out until 2026-11-22T00:10:00\.000Z/);
      const locked = h.consoleLogs().filter((line) => line.message === 'console sign-in refused: too many wrong tokens');
      expect(locked).toHaveLength(510);
      expect(locked.at(-1)).toMatchObject({ ip: '203.0.113.9', refusedInWindow: 510 });
      const metrics = (await request(h.admin).get('/metrics').expect(200)).text;
      expect(metrics).toContain('noti_receiver_console_sign_ins_refused_total{reason="locked_out"} 510');
      expect(metrics).toContain('noti_receiver_console_sign_ins_refused_total{reason="wrong_token"} 10');
      // The real action is still on the Audit page's first page.
      expect((await agent.get('/console/audit').set('Host', HOST).expect(200)).text).toContain('evt_real_action');

      // The next window's lockout is a row of its own.
      clock += 10 * 60_000 + 1;
      for (let i = 0; i < 12; i++) await attempt(`again-${i}`);
      expect((await h.receiver.store.listAudit(1000)).filter((row) => row.action === 'sign-in refused')).toHaveLength(11 + 11);
      // The bootstrap token still works from another address.
      await request(h.admin).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: ADMIN_TOKEN }).expect(303);
    } finally {
      await h.close();
    }
  });
});

describe('the Audit page pages and filters', () => {
  let h: ConsoleHarness;
  let agent: request.Agent;
  const T0 = Date.parse('2026-11-20T00:00:00Z');
  beforeAll(async () => {
    h = await startConsoleHarness({}, { relay: false });
    ({ agent } = await h.signIn('viewer-vi', 'viewer'));
    // 250 rows an hour apart: kim requeues, lee signs in, and every fifth is park's; plus the sign-in above.
    for (let i = 0; i < 250; i++) {
      const actor = i % 5 === 0 ? 'park (cli)' : i % 2 === 0 ? 'kim (10.0.0.7)' : 'lee (10.0.0.8)';
      await h.receiver.store.recordAudit({ at: new Date(T0 + i * 3_600_000).toISOString(), actor, action: i % 2 === 0 ? 'requeued' : 'signed in', subject: `s-${i}`, detail: null });
    }
  });
  afterAll(() => h.close());

  test('newest first, a hundred a page, "Older" to the end', async () => {
    const seen: string[] = [];
    let href: string | null = '/console/audit';
    let pages = 0;
    while (href) {
      const page = await agent.get(href).set('Host', HOST).expect(200);
      const rows = rowsOf(page.text);
      expect(rows.length).toBeLessThanOrEqual(100);
      seen.push(...rows);
      if (pages > 0) expect(page.text).toContain('← Newest');
      href = olderLink(page.text);
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => `s-${249 - i}`));
  });

  test('by operator, action and KST days; the form echoes the filter and "Older" keeps it', async () => {
    // 2026-11-21 in Korea is 2026-11-20T15:00Z to 2026-11-21T15:00Z: rows 15 to 38.
    const page = await agent.get('/console/audit?operator=kim&action=requeued&from=2026-11-21&to=2026-11-21').set('Host', HOST).expect(200);
    expect(rowsOf(page.text)).toEqual(['s-38', 's-36', 's-34', 's-32', 's-28', 's-26', 's-24', 's-22', 's-18', 's-16']);
    expect(page.text).toContain('name="operator" value="kim"');
    // The action is a choice among the audited actions, the stored name its value.
    expect(page.text).toContain('<option value="requeued" selected>requeued</option>');
    expect(page.text).toContain('name="from" type="date" value="2026-11-21"');

    const kim = await agent.get('/console/audit?operator=kim').set('Host', HOST).expect(200);
    expect(rowsOf(kim.text)).toHaveLength(100);
    const older = olderLink(kim.text)!;
    expect(older).toMatch(/^\/console\/audit\?operator=kim&before=\d+$/);
    const rest = rowsOf((await agent.get(older).set('Host', HOST).expect(200)).text);
    // kim: the even rows that are not park's (multiples of 10): 100 of them, so nothing older.
    expect(rest).toEqual([]);

    const none = await agent.get('/console/audit?operator=nobody&before=junk&from=not-a-day').set('Host', HOST).expect(200);
    expect(none.text).toContain('No audit rows match.');
  });

  test('in Korean: actions and details in Korean words (the stored name small beside), and the action filter a choice of them', async () => {
    const KOREAN = 'ko-KR,ko;q=0.9';
    await h.receiver.store.recordAudit({ at: new Date(T0 + 300 * 3_600_000).toISOString(), actor: 'kim (10.0.0.7)', action: 'signed in', subject: null, detail: 'role operator' });
    await h.receiver.store.recordAudit({ at: new Date(T0 + 301 * 3_600_000).toISOString(), actor: 'park (cli)', action: 'removed operator', subject: 'moon', detail: '2 session(s) ended' });
    await h.receiver.store.recordAudit({ at: new Date(T0 + 302 * 3_600_000).toISOString(), actor: 'kim (10.0.0.7)', action: 'resolved discrepancy', subject: 'dsc_1', detail: 'T0001234/ORD-1: 환불 완료' });
    await h.receiver.store.recordAudit({ at: new Date(T0 + 303 * 3_600_000).toISOString(), actor: 'unidentified (203.0.113.9)', action: 'sign-in refused', subject: null, detail: 'too many wrong tokens: 10 from this address within 10 minutes; locked out until 2026-11-22T00:10:00.000Z (attempts until then are logged, not audited)' });
    const page = (await agent.get('/console/audit').set('Host', HOST).set('Accept-Language', KOREAN).expect(200)).text;
    const rows = [...page.matchAll(/<tr><td><span class="when">.*?<\/span><\/span><\/td><td class="data">(.*?)<\/td><td>([^<]*?) ?(?:<code class="code-tag">[^<]*<\/code>)?<\/td>\s*<td class="mono">(.*?)<\/td><td>(.*?)<\/td><\/tr>/g)]
      .slice(0, 4).map((m) => [m[2], m[3]!.replace(/<[^>]+>/g, ''), m[4]!.replace(/<[^>]+>/g, '')]);
    expect(page).toContain('미확인 (<bdi>203.0.113.9</bdi>)');
    expect(rows).toEqual([
      ['로그인 거부', '', '잘못된 토큰이 너무 많음: 이 주소에서 10분 안에 10번. 2026. 11. 22. 09:10:00 KST까지 잠김 (그때까지의 시도는 감사 기록 없이 로그에만 남음)'],
      ['불일치 해결', 'dsc_1', 'T0001234/ORD-1: 환불 완료'],
      ['운영자 삭제', 'moon', '세션 2개 종료'],
      ['로그인', '', '역할: 처리 담당'],
    ]);
    expect(page).toContain('로그인 <code class="code-tag">signed in</code>');
    expect(page).toContain('<select name="action"><option value="">모든 작업</option>');
    expect(page).toContain('<option value="resolved discrepancy">불일치 해결</option>');
    const filtered = (await agent.get('/console/audit?action=removed+operator').set('Host', HOST).set('Accept-Language', KOREAN).expect(200)).text;
    expect(filtered).toContain('<option value="removed operator" selected>운영자 삭제</option>');
    expect(filtered).toContain('세션 2개 종료');
    expect(filtered).not.toContain('dsc_1');
  });
});

describe('the Audit page filter names one operator', () => {
  test("operator=s3opsX lists s3opsX's rows only, not those of an operator named `s3opsX (10.9.9.9)`", async () => {
    const h = await startConsoleHarness({}, { relay: false });
    try {
      await h.signIn('s3opsX (10.9.9.9)', 'viewer');
      const { agent } = await h.signIn('s3opsX', 'viewer');
      const actorsOf = (page: string) => [...page.matchAll(/<td class="data"><bdi>([^<]+)<\/bdi><\/td>/g)].map((m) => m[1]!);
      const page = await agent.get('/console/audit?operator=s3opsX').set('Host', HOST).expect(200);
      expect(actorsOf(page.text)).toEqual(['s3opsX (127.0.0.1)']);
      const other = await agent.get(`/console/audit?operator=${encodeURIComponent('s3opsX (10.9.9.9)')}`).set('Host', HOST).expect(200);
      expect(actorsOf(other.text)).toEqual(['s3opsX (10.9.9.9) (127.0.0.1)']);
    } finally {
      await h.close();
    }
  });
});
