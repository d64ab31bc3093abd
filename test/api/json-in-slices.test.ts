import express from 'express';
import request from 'supertest';
import { sendJsonList } from '../../src/api/json-in-slices';

/**
 * Issue 37: the internal API answers on the event loop that acks the gateway. A list of hundreds
 * of order records serialized in one call held every ack behind it; the list goes out a slice at a
 * time, the same bytes as res.json.
 */
describe('a JSON list sent in slices', () => {
  const record = (i: number) => ({ id: i, text: `${'x'.repeat(900)} "quoted" ${i} 한글`, nested: { at: null, ok: i % 2 === 0 } });

  const app = (items: unknown[], rest?: Record<string, unknown>, seen?: { endedAtNextTurn?: boolean }) => {
    const server = express();
    server.get('/list', async (_req, res) => {
      setImmediate(() => {
        if (seen) seen.endedAtNextTurn = res.writableEnded;
      });
      await sendJsonList(res, 'orders', items, rest);
    });
    return server;
  };

  test.each([
    ['many records and a cursor', Array.from({ length: 300 }, (_, i) => record(i)), { next: 'cursor/1' }],
    ['a null cursor', [record(1)], { next: null }],
    ['an undefined field, left out', [record(1)], { next: undefined }],
    ['no rest', [record(1), record(2)], undefined],
    ['an empty list', [], { next: null }],
  ])('%s: the same bytes and type as res.json', async (_name, items, rest) => {
    const answer = await request(app(items, rest)).get('/list').buffer(true).parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.body).toBe(JSON.stringify({ orders: items, ...rest }));
  });

  test('a long list leaves the event loop free before it is done', async () => {
    const seen: { endedAtNextTurn?: boolean } = {};
    await request(app(Array.from({ length: 300 }, (_, i) => record(i)), {}, seen)).get('/list').expect(200);
    expect(seen.endedAtNextTurn).toBe(false);
  });

  test('a short one is sent at once', async () => {
    const seen: { endedAtNextTurn?: boolean } = {};
    await request(app([record(1)], {}, seen)).get('/list').expect(200);
    expect(seen.endedAtNextTurn).toBe(true);
  });
});
