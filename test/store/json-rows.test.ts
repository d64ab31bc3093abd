import fc from 'fast-check';
import { Client } from 'pg';
import { jsonRows } from '../../src/store/procedures/json-rows';
import type { Param } from '../../src/store/procedures/procedure';
import { describePostgres, TEST_POSTGRES_URL } from './pg-test-database';

const ROWS = jsonRows([['t', 'text'], ['i', 'bigint'], ['b', 'bytea']]);
const READ = `SELECT r.t, r.i, r.b, r.n FROM ${ROWS.from.replace('?', '$1')} AS r ORDER BY r.n`;

describe('jsonRows', () => {
  it('is one statement text whatever the row count, its one parameter a JSON array of the rows', () => {
    expect(ROWS.from).toBe("(SELECT e->>0 AS t, (e->>1)::bigint AS i, decode(e->>2, 'hex') AS b, a.n FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS a (e, n))");
    expect(JSON.parse(ROWS.rowsParam([['a', 1, null], ['b', 2n, Buffer.from([0, 255])]]))).toEqual([['a', 1, null], ['b', '2', '00ff']]);
  });

  it('refuses a column name it would have to quote', () => {
    expect(() => jsonRows([['x; DROP TABLE y', 'text']])).toThrow(/plain column name/);
  });
});

describePostgres('jsonRows read back by PostgreSQL', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
  });
  afterAll(async () => client.end());

  const read = async (rows: Param[][]) => (await client.query<{ t: string | null; i: string | null; b: Buffer | null; n: string }>(READ, [ROWS.rowsParam(rows)])).rows;

  it('gives back every text, integer and byte string, in row order', async () => {
    const texts = ['', '"', '\\', 'a\\"b', '\\u0000 as text', 'NULL', ' 앞뒤 😀 ', JSON.stringify({ note: 'say "hi"\\n', list: [1, '2'] }), null];
    const rows: Param[][] = texts.map((t, k) => [t, k === 3 ? null : 2 ** 53 - k, k % 2 === 0 ? Buffer.from([k, 92, 34, 255]) : null]);
    rows.push(['big', -(2n ** 63n), new Uint8Array([1, 2])]);
    const back = await read(rows);
    expect(back.map((r) => r.t)).toEqual([...texts, 'big']);
    expect(back.map((r) => r.i)).toEqual([...rows.map((r) => (r[1] === null ? null : String(r[1])))]);
    expect(back.map((r) => r.b)).toEqual(rows.map((r) => (r[2] === null ? null : Buffer.from(r[2] as Uint8Array))));
    expect(back.map((r) => Number(r.n))).toEqual(rows.map((_, k) => k + 1));
  });

  it('writes U+0000 and a lone surrogate as U+FFFD, as the driver binds text, instead of failing the batch', async () => {
    const back = await read([['a\u0000b'], ['\ud800x'], ['x\udc00'], ['\\\u0000'], ['\ud83d\ude00 pair']].map(([t]) => [t!, null, null]));
    expect(back.map((r) => r.t)).toEqual(['a\ufffdb', '\ufffdx', 'x\ufffd', '\\\ufffd', '\ud83d\ude00 pair']);
  });

  it('reads any string back as PostgreSQL text holds it', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 8 }), async (texts) => {
      const back = await read(texts.map((t) => [t, null, null]));
      expect(back.map((r) => r.t)).toEqual(texts.map((t) => Buffer.from(t.replace(/\u0000/g, '\ufffd'), 'utf8').toString('utf8')));
    }), { numRuns: 100 });
  });
});
