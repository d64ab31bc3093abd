import express from 'express';
import request from 'supertest';
import { mallScope } from '../../src/api/mall-scope';
import { summaryRoutes } from '../../src/api/summary-routes';
import * as kstDays from '../../src/ledger/summary/kst-day';
import { summaryDays } from '../../src/ledger/summary/summary-days';
import { HOST } from '../console/console-harness';
import { startLedgerConsole } from '../console/ledger-console-harness';

/**
 * A range of ten thousand years is refused from its two dates: no day of it is listed, and the
 * store is never asked, wherever the range is taken (the CLI's own test shows it refused before the
 * store is opened).
 */
describe('a range is checked before anything is built from it', () => {
  let listed: jest.SpyInstance;
  beforeEach(() => {
    listed = jest.spyOn(kstDays, 'daysBetween');
  });
  afterEach(() => listed.mockRestore());

  test('the summary itself refuses a range longer than a summary answers, having listed no day', () => {
    expect(() => summaryDays([], [], { from: '0000-01-01', to: '9999-12-31' }, 'KRW')).toThrow('is 3652425 days, more than 366');
    expect(listed).not.toHaveBeenCalled();
    expect(summaryDays([], [], { from: '2024-01-01', to: '2024-12-31' }, 'KRW')).toEqual([]);
    expect(listed).toHaveBeenCalledTimes(1);
  });

  test('GET /v1/summary/daily refuses it in its own error form without asking the store', async () => {
    const dailySummary = jest.fn(async () => []);
    const app = express().use(summaryRoutes({ dailySummary }, 'KRW', mallScope([])));
    const answer = await request(app).get('/v1/summary/daily?from=0000-01-01&to=9999-12-31').expect(400);
    expect(answer.body).toEqual({ error: 'bad range: from 0000-01-01 to 9999-12-31 is 3652425 days, more than 366; ask for a shorter range' });
    expect(dailySummary).not.toHaveBeenCalled();
    expect(listed).not.toHaveBeenCalled();
  });

  test("the console's summary exports refuse it without asking the store", async () => {
    const h = await startLedgerConsole();
    try {
      const dailySummary = jest.spyOn(h.consoleDeps.ledger!, 'dailySummary' as never);
      const { agent } = await h.signIn('kim', 'operator');
      for (const file of ['summary.csv', 'summary.xlsx']) {
        const refused = await agent.get(`/console/exports/${file}?from=0000-01-01&to=9999-12-31`).set('Host', HOST).set('Accept-Language', 'en').expect(400);
        expect(refused.text).toContain('is 3652425 days, more than 366');
      }
      expect(dailySummary).not.toHaveBeenCalled();
      expect(listed).not.toHaveBeenCalled();
    } finally {
      await h.close();
    }
  });
});
