import fc from 'fast-check';
import { Client } from 'pg';
import { arrayLiteral } from '../../src/store/procedures/array-literal';
import { columnArrays } from '../../src/store/procedures/procedure';
import { describePostgres, TEST_POSTGRES_URL } from './pg-test-database';

// The driver's own encoder (untyped): what it would have sent for these arrays, byte for byte.
const { prepareValue } = jest.requireActual<{ prepareValue(value: unknown): unknown }>('pg/lib/utils');

const element = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', '"', '\\', '\\"', 'NULL', '{a,b}', ' ', '{"k":"v\\n"}', '한글 "따옴표"'),
  fc.integer(),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(null),
);

describe('arrayLiteral', () => {
  it('writes every array exactly as the pg driver would have on the thread that sends it', () => {
    fc.assert(fc.property(fc.array(element, { maxLength: 12 }), (values) => {
      expect(arrayLiteral(values)).toBe(prepareValue(values));
    }), { numRuns: 500 });
  });

  it('writes a byte array that came through a thread as a plain Uint8Array as the driver writes a Buffer', () => {
    const bytes = new Uint8Array([0, 1, 254, 255]);
    expect(arrayLiteral([bytes, null])).toBe(prepareValue([Buffer.from(bytes), null]));
  });

  it('gives columnArrays each column already encoded', () => {
    expect(columnArrays([['a"1', 1], [null, 2]], 2)).toEqual(['{"a\\"1",NULL}', '{"1","2"}']);
  });
});

describePostgres('arrayLiteral read back by PostgreSQL', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
  });
  afterAll(async () => client.end());

  it('comes back as the very texts and bytes it was made of', async () => {
    const texts = ['', '"', '\\', 'a\\"b', 'NULL', '{x,y}', ' 앞뒤 ', JSON.stringify({ note: 'say "hi"\\n', list: [1, '2'] }), null];
    const bytes = [Buffer.from([0, 92, 34, 255]), null];
    const { rows } = await client.query<{ t: (string | null)[]; b: (Buffer | null)[] }>('SELECT $1::text[] AS t, $2::bytea[] AS b', [arrayLiteral(texts), arrayLiteral(bytes)]);
    expect(rows[0]!.t).toEqual(texts);
    expect(rows[0]!.b).toEqual(bytes);
  });
});
