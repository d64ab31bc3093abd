import { Client, type Pool } from 'pg';
import { migrate } from '../../src/store/postgres/migrate';
import { createPool, inTransaction } from '../../src/store/postgres/pool';
import { runProcedure, writeTransaction, type Effects } from '../../src/store/postgres/run-procedure';
import { changes, lastTrip, oneTrip, type Procedure } from '../../src/store/procedures/procedure';
import { createTestSchema, describePostgres, type TestSchema } from './pg-test-database';

/**
 * `lastTrip` statements are not waited for before COMMIT goes out behind them: a failure among
 * them must still fail the write (nobody is acked) and leave nothing of the transaction behind.
 */
describePostgres('PostgreSQL: the last trip commits with its statements', () => {
  let schema: TestSchema;
  let pool: Pool;
  beforeEach(async () => {
    schema = await createTestSchema();
    pool = createPool(schema.url, {});
    await migrate(pool);
  });
  afterEach(async () => {
    await pool.end();
    await schema.drop();
  });

  const write = <T>(procedure: Procedure<T>): Promise<T> => {
    const effects: Effects = { outboxChanged: false, orderLocked: true };
    return inTransaction(pool, 'test', (client) => runProcedure(client, 'test', procedure, effects), writeTransaction(effects));
  };
  const probes = async () => {
    const client = new Client({ connectionString: schema.url });
    await client.connect();
    try {
      return (await client.query<{ probed_at: string }>('SELECT probed_at FROM store_probe')).rows.map((row) => row.probed_at);
    } finally {
      await client.end();
    }
  };

  test('a failing statement of the last trip fails the write, and the statements before it are rolled back', async () => {
    function* failing(): Procedure<string> {
      yield* oneTrip(changes('INSERT INTO store_probe (id, probed_at) VALUES (1, ?)', 'before'));
      // The CHECK (id = 1) refuses it, after the procedure has already returned.
      yield* lastTrip(changes('INSERT INTO store_probe (id, probed_at) VALUES (2, ?)', 'refused'));
      return 'answered';
    }
    await expect(write(failing())).rejects.toThrow(/store_probe_id_check|violates check constraint/);
    expect(await probes()).toEqual([]);
  });

  test('a failing statement of a procedure that waited for none of its answers fails the write too', async () => {
    function* blind(): Procedure<void> {
      yield* lastTrip(
        changes('INSERT INTO store_probe (id, probed_at) VALUES (1, ?)', 'first'),
        changes('INSERT INTO store_probe (id, probed_at) VALUES (1, ?)', 'duplicate key'),
      );
    }
    await expect(write(blind())).rejects.toThrow(/duplicate key|unique/);
    expect(await probes()).toEqual([]);
  });

  test('when every statement succeeds the write resolves after COMMIT, with what the procedure returned', async () => {
    function* fine(): Procedure<string> {
      yield* lastTrip(changes('INSERT INTO store_probe (id, probed_at) VALUES (1, ?)', 'kept'));
      return 'answered';
    }
    await expect(write(fine())).resolves.toBe('answered');
    expect(await probes()).toEqual(['kept']);
  });
});
