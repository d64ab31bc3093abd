import request from 'supertest';
import { HOST, startConsoleHarness, type ConsoleHarness } from './console-harness';

describe('console assets', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    h = await startConsoleHarness({}, { relay: false });
  });
  afterAll(() => h.close());

  test('the console stylesheet and the chart library are served', async () => {
    await request(h.admin).get('/console/assets/console.css').set('Host', HOST).expect(200);
    await request(h.admin).get('/console/assets/uPlot.min.css').set('Host', HOST).expect(200);
  });

  test('every page names an icon that is served (no 404 for /favicon.ico in the browser\'s log)', async () => {
    const signIn = await request(h.admin).get('/console/sign-in').set('Host', HOST).expect(200);
    const href = /<link rel="icon" href="([^"]+)"/.exec(signIn.text)?.[1];
    expect(href).toBe('/console/assets/favicon.svg');
    const icon = await request(h.admin).get(href!).set('Host', HOST).expect(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  test('a missing asset, a path out of the folder and a prototype name answer 404, logged at most at debug', async () => {
    for (const path of ['nope.css', '..%2f..%2fpackage.json', '..%2F..%2F..%2Fpackage.json', 'constructor', '__proto__', 'hasOwnProperty', 'toString']) {
      const answer = await request(h.admin).get(`/console/assets/${path}`).set('Host', HOST);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(answer.text).not.toContain('"name"');
    }
    const loud = h.consoleLogs().filter((line) => line.level !== 'debug');
    expect(loud).toEqual([]);
  });
});
