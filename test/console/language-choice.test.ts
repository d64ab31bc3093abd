import request from 'supertest';
import { ADMIN_TOKEN, HOST, ORIGIN, consoleAppOver, startConsoleHarness, type ConsoleHarness } from './console-harness';

const KOREAN = 'ko-KR,ko;q=0.9,en;q=0.5';

describe('the language of a console page', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    h = await startConsoleHarness();
  });
  afterAll(() => h.close());

  test('the sign-in page follows Accept-Language, and ?lang= overrides it and travels with the form', async () => {
    const korean = await request(h.admin).get('/console/sign-in').set('Host', HOST).set('Accept-Language', KOREAN).expect(200);
    expect(korean.text).toContain('<html lang="ko">');
    expect(korean.text).toContain('<label for="token">토큰</label>');
    expect(korean.text).not.toContain('name="lang"');
    const chosen = await request(h.admin).get('/console/sign-in?lang=en').set('Host', HOST).set('Accept-Language', KOREAN).expect(200);
    expect(chosen.text).toContain('<label for="token">Token</label>');
    expect(chosen.text).toContain('<input type="hidden" name="lang" value="en">');
    const wrong = await request(h.admin).post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).set('Accept-Language', KOREAN).type('form').send({ token: 'nope' }).expect(401);
    expect(wrong.text).toContain('토큰이 맞지 않습니다.');
  });

  test("the language chosen on the sign-in page is the session's, whatever the browser says later", async () => {
    const agent = request.agent(h.admin);
    await agent.post('/console/sign-in').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ token: ADMIN_TOKEN, lang: 'ko' }).expect(303);
    const page = await agent.get('/console/events').set('Host', HOST).set('Accept-Language', 'en-US').expect(200);
    expect(page.text).toContain('<h1>이벤트</h1>');
  });

  test('any role may switch, the switch returns to the page it was on and never leaves the console, and the choice survives a restart', async () => {
    const { agent, csrf, cookie } = await h.signIn('vera', 'viewer');
    expect((await agent.get('/console/events').set('Host', HOST).set('Accept-Language', KOREAN).expect(200)).text).toContain('<h1>이벤트</h1>');
    const switched = await agent.post('/console/locale').set('Host', HOST).set('Origin', ORIGIN).type('form')
      .send({ _csrf: csrf, locale: 'en', back: '/console/events?state=dead' }).expect(303);
    expect(switched.headers.location).toBe('/console/events?state=dead');
    expect((await agent.get('/console/events').set('Host', HOST).set('Accept-Language', KOREAN).expect(200)).text).toContain('<h1>Events</h1>');
    // Another process over the same database (a restart, a replica) knows the choice.
    const restarted = consoleAppOver(h.receiver.store);
    const again = await request(restarted).get('/console/events').set('Host', HOST).set('Cookie', cookie).set('Accept-Language', KOREAN).expect(200);
    expect(again.text).toContain('<h1>Events</h1>');

    for (const back of ['https://evil.example/', '//evil.example/console', '/console\\@evil']) {
      const away = await agent.post('/console/locale').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, locale: 'ko', back }).expect(303);
      expect(away.headers.location).toBe('/console');
    }
    // A language the console does not speak changes nothing; without the CSRF token it is refused.
    await agent.post('/console/locale').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, locale: 'fr', back: '/console' }).expect(303);
    expect((await agent.get('/console/events').set('Host', HOST).expect(200)).text).toContain('<h1>이벤트</h1>');
    await agent.post('/console/locale').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ locale: 'en' }).expect(403);
  });

  test('the refusal pages speak the language too: a role refusal in Korean, and a notice code that names no notice is no notice', async () => {
    const { agent } = await h.signIn('yuna', 'viewer');
    const refused = await agent.get('/console/operators').set('Host', HOST).set('Accept-Language', KOREAN).expect(403);
    expect(refused.text).toContain('<h1>허용되지 않음</h1>');
    expect(refused.text).toContain('역할(조회 전용)로는 할 수 없는 일입니다. 관리자 역할이 필요합니다.');
    for (const done of ['valueOf', 'constructor', '__proto__', 'toString']) {
      const page = await agent.get(`/console/events?done=${done}`).set('Host', HOST).expect(200);
      expect(page.text).not.toContain('class="notice"');
    }
  });
});
