import { jsonField, jsonFlag } from '../../src/store/procedures/json-field';
import { all, dialect, type Procedure } from '../../src/store/procedures/procedure';
import { describePostgres } from './pg-test-database';
import { postgresRunner, sqliteRunner, type ProcedureRunner } from './procedure-runners';

describe('the SQL that reads one JSON field', () => {
  // The texts the store's statements carried before the helper: the same text is the same plan.
  test.each([
    ['sqlite', 'event_json', ['shopOrderNo'], "json_extract(event_json, '$.shopOrderNo')"],
    ['postgres', 'event_json', ['shopOrderNo'], "event_json::json->>'shopOrderNo'"],
    ['sqlite', 'o.record_json', ['expected', 'currency'], "json_extract(o.record_json, '$.expected.currency')"],
    ['postgres', 'o.record_json', ['expected', 'currency'], "o.record_json::json->'expected'->>'currency'"],
    ['postgres', 'lo.record_json', ['a', 'b', 'c'], "lo.record_json::json->'a'->'b'->>'c'"],
  ] as const)('on %s, %s at %j', (on, column, path, sql) => {
    expect(jsonField(on, column, path)).toBe(sql);
  });

  test('a true/false field is false when missing, in each database\'s own form', () => {
    expect(jsonFlag('sqlite', 'o.record_json', ['simulated'])).toBe("coalesce(json_extract(o.record_json, '$.simulated'), 0)");
    expect(jsonFlag('postgres', 'o.record_json', ['simulated'])).toBe("coalesce((o.record_json::json->>'simulated')::boolean, false)");
  });

  // The names are pasted into the statement: a quote, a dot, a `?` (a placeholder on PostgreSQL)
  // or an expression in place of a column would change what the statement means.
  test.each([
    ["x') OR 1=1 --"],
    ['expected.currency'],
    ['amount?'],
    [''],
    ['1st'],
  ])('a path name %j is refused', (name) => {
    expect(() => jsonField('sqlite', 'record_json', ['expected', name])).toThrow(/not a plain JSON field name/);
    expect(() => jsonFlag('postgres', 'record_json', [name])).toThrow(/not a plain JSON field name/);
  });

  test.each([['a || b'], ['(record_json)'], ['o.record_json; DROP TABLE inbox'], ['s.o.record_json']])('a column %j is refused', (column) => {
    expect(() => jsonField('postgres', column, ['simulated'])).toThrow(/not a column name/);
  });

  test('an empty path is refused', () => {
    expect(() => jsonField('sqlite', 'record_json', [])).toThrow(/at least one name/);
  });
});

interface Read {
  n: number | string;
  currency: string | null;
  flag: boolean | number;
}

/** Three stored texts, each read by the database: a nested field, a null step to it, and nothing. */
function* readDocuments(): Procedure<Array<{ currency: string | null; flag: boolean }>> {
  const on = yield* dialect();
  const rows = yield* all<Read>(
    `SELECT j.n, ${jsonField(on, 'j.doc', ['expected', 'currency'])} AS currency, ${jsonFlag(on, 'j.doc', ['simulated'])} AS flag
       FROM (SELECT 1 AS n, ? AS doc UNION ALL SELECT 2, ? UNION ALL SELECT 3, ?) j ORDER BY j.n`,
    JSON.stringify({ expected: { currency: 'USD', amount: 12000 }, simulated: true }),
    JSON.stringify({ expected: null, simulated: false }),
    JSON.stringify({}),
  );
  return rows.map((row) => ({ currency: row.currency, flag: Boolean(row.flag) }));
}

function readsContract(open: () => Promise<ProcedureRunner>): void {
  let db: ProcedureRunner;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => db.close());

  test('a nested field is read, a missing one is null, a missing flag is false', async () => {
    await expect(db.transaction(readDocuments())).resolves.toEqual([
      { currency: 'USD', flag: true },
      { currency: null, flag: false },
      { currency: null, flag: false },
    ]);
  });
}

describe('JSON fields read by SQLite', () => {
  readsContract(async () => sqliteRunner());
});

describePostgres('JSON fields read by PostgreSQL', () => {
  readsContract(postgresRunner);
});
