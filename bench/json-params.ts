// How fast PostgreSQL reads one multi-row write's rows, by the way they are bound: one array per
// column (`unnest(?::text[], …)`), or one JSON text read by json_to_recordset, jsonb_to_recordset or
// json_array_elements. 1,000 rows of the ledger orders' columns, each with a record of a few KiB of
// JSON; the rows are read whole (every column used) so no variant skips its parse.
//   npx tsc --outDir /tmp/json-params --module commonjs --target es2022 --esModuleInterop bench/json-params.ts
//   TEST_POSTGRES_URL=postgres://… PAYMENTS=6 NODE_PATH=node_modules node /tmp/json-params/bench/json-params.js
// PAYMENTS: the payments in each record (its size); the times include the round trip on localhost.
import { Client } from 'pg';
import { arrayLiteral } from '../src/store/procedures/array-literal';

const ROWS = 1000;
const ROUNDS = Number(process.env.ROUNDS ?? 60);

function record(i: number): string {
  const payments = Array.from({ length: Number(process.env.PAYMENTS ?? 6) }, (_, p) => ({ pgCno: `2026120${p}${String(i).padStart(8, '0')}`, amount: 12000 + p, approvedAt: '2026-12-02T07:00:00.000+09:00', method: 'card', note: 'a "quoted" \\ text' }));
  return JSON.stringify({ mallId: 'M0001', shopOrderNo: `order-${i}`, status: 'paid', payments, discrepancies: [], updatedAt: '2026-12-02T07:00:00.000Z' });
}

const rows = Array.from({ length: ROWS }, (_, i) => ['M0001', `order-${i}`, 'paid', record(i), 1_764_000_000_000 + i, '2026-12-02T07:00:00.000Z'] as const);
const SUM = 'sum(length(r.mall_id) + length(r.shop_order_no) + length(r.status) + length(r.record_json) + length(r.updated_at) + r.sweep_at % 7)';

const variants: Array<{ name: string; sql: string; params: () => unknown[] }> = [
  {
    name: 'unnest(text[] per column)',
    sql: `SELECT ${SUM} FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[]) WITH ORDINALITY AS r (mall_id, shop_order_no, status, record_json, sweep_at, updated_at, n)`,
    params: () => Array.from({ length: 6 }, (_, c) => arrayLiteral(rows.map((row) => row[c]!))),
  },
  {
    name: 'json_to_recordset(objects)',
    sql: `SELECT ${SUM} FROM json_to_recordset($1::json) AS r (mall_id text, shop_order_no text, status text, record_json text, sweep_at bigint, updated_at text)`,
    params: () => [JSON.stringify(rows.map(([mall_id, shop_order_no, status, record_json, sweep_at, updated_at]) => ({ mall_id, shop_order_no, status, record_json, sweep_at, updated_at })))],
  },
  {
    name: 'jsonb_to_recordset(objects)',
    sql: `SELECT ${SUM} FROM jsonb_to_recordset($1::jsonb) AS r (mall_id text, shop_order_no text, status text, record_json text, sweep_at bigint, updated_at text)`,
    params: () => [JSON.stringify(rows.map(([mall_id, shop_order_no, status, record_json, sweep_at, updated_at]) => ({ mall_id, shop_order_no, status, record_json, sweep_at, updated_at })))],
  },
  {
    name: 'json_array_elements(arrays) ->>',
    sql: `SELECT ${SUM} FROM (SELECT e->>0 AS mall_id, e->>1 AS shop_order_no, e->>2 AS status, e->>3 AS record_json, (e->>4)::bigint AS sweep_at, e->>5 AS updated_at
      FROM json_array_elements($1::json) WITH ORDINALITY AS a (e, n)) r`,
    params: () => [JSON.stringify(rows)],
  },
  {
    name: 'jsonb_array_elements(arrays) ->>',
    sql: `SELECT ${SUM} FROM (SELECT e->>0 AS mall_id, e->>1 AS shop_order_no, e->>2 AS status, e->>3 AS record_json, (e->>4)::bigint AS sweep_at, e->>5 AS updated_at
      FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS a (e, n)) r`,
    params: () => [JSON.stringify(rows)],
  },
];

async function main(): Promise<void> {
  const client = new Client({ connectionString: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
  await client.connect();
  const results: string[] = [];
  for (const variant of variants) {
    const encodeStart = process.hrtime.bigint();
    let params: unknown[] = [];
    for (let i = 0; i < 10; i++) params = variant.params();
    const encodeMs = Number(process.hrtime.bigint() - encodeStart) / 1e6 / 10;
    const bytes = params.reduce<number>((n, p) => n + Buffer.byteLength(String(p)), 0);
    const query = { name: variant.name.replace(/\W/g, '_'), text: variant.sql, values: params };
    for (let i = 0; i < 10; i++) await client.query(query);
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const start = process.hrtime.bigint();
      await client.query(query);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    results.push(`${variant.name.padEnd(34)} median ${times[times.length >> 1]!.toFixed(2)} ms per ${ROWS} rows (p10 ${times[Math.floor(ROUNDS / 10)]!.toFixed(2)}), encode ${encodeMs.toFixed(2)} ms, ${(bytes / 1024).toFixed(0)} KiB`);
  }
  results.push(...await serverSide(client));
  await client.end();
  console.log(results.join('\n'));
}

/**
 * The same reads timed inside the server (a loop in one DO block, the texts read from a table so
 * nothing is folded into a constant): the parse and the read alone, without the round trip.
 */
async function serverSide(client: Client): Promise<string[]> {
  await client.query('CREATE TEMP TABLE bench_params (k TEXT PRIMARY KEY, v TEXT NOT NULL)');
  const arrays = variants[0]!.params() as string[];
  for (const [c, text] of arrays.entries()) await client.query('INSERT INTO bench_params VALUES ($1, $2)', [`c${c}`, text]);
  await client.query('INSERT INTO bench_params VALUES ($1, $2)', ['objects', variants[1]!.params()[0]]);
  await client.query('INSERT INTO bench_params VALUES ($1, $2)', ['arrays', variants[3]!.params()[0]]);
  const p = (k: string) => `(SELECT v FROM bench_params WHERE k = '${k}')`;
  const reads: Array<[string, string]> = [
    ['unnest(text[] per column)', `unnest(${p('c0')}::text[], ${p('c1')}::text[], ${p('c2')}::text[], ${p('c3')}::text[], ${p('c4')}::bigint[], ${p('c5')}::text[]) WITH ORDINALITY AS r (mall_id, shop_order_no, status, record_json, sweep_at, updated_at, n)`],
    ['json_to_recordset(objects)', `json_to_recordset(${p('objects')}::json) AS r (mall_id text, shop_order_no text, status text, record_json text, sweep_at bigint, updated_at text)`],
    ['jsonb_to_recordset(objects)', `jsonb_to_recordset(${p('objects')}::jsonb) AS r (mall_id text, shop_order_no text, status text, record_json text, sweep_at bigint, updated_at text)`],
    ['json_array_elements(arrays) ->>', `(SELECT e->>0 AS mall_id, e->>1 AS shop_order_no, e->>2 AS status, e->>3 AS record_json, (e->>4)::bigint AS sweep_at, e->>5 AS updated_at FROM json_array_elements(${p('arrays')}::json) WITH ORDINALITY AS a (e, n)) r`],
    ['jsonb_array_elements(arrays) ->>', `(SELECT e->>0 AS mall_id, e->>1 AS shop_order_no, e->>2 AS status, e->>3 AS record_json, (e->>4)::bigint AS sweep_at, e->>5 AS updated_at FROM jsonb_array_elements(${p('arrays')}::jsonb) WITH ORDINALITY AS a (e, n)) r`],
  ];
  const lines: string[] = [];
  for (const [name, from] of reads) {
    const times: number[] = [];
    for (let round = 0; round < 7; round++) {
      const notices: string[] = [];
      const listen = (msg: { message?: string }) => notices.push(msg.message ?? '');
      client.on('notice', listen);
      await client.query(`DO $$ DECLARE t0 timestamptz := clock_timestamp(); BEGIN
        FOR i IN 1..20 LOOP PERFORM ${SUM} FROM ${from}; END LOOP;
        RAISE NOTICE '%', extract(epoch FROM clock_timestamp() - t0) * 1000 / 20; END $$`);
      client.off('notice', listen);
      times.push(Number(notices[0]));
    }
    times.sort((a, b) => a - b);
    lines.push(`server-side ${name.padEnd(34)} median ${times[3]!.toFixed(2)} ms per ${ROWS} rows (min ${times[0]!.toFixed(2)})`);
  }
  return lines;
}

void main();
