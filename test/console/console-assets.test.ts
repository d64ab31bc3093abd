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
