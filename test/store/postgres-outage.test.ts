import { openPostgresStore } from '../../src/store/postgres/postgres-store';
import { StoreUnavailable, type Store } from '../../src/store/store';
import { inboxEntry } from '../helpers/stored-events';
import { createTestSchema, describePostgres, postgresAddress, withAddress, type TestSchema } from './pg-test-database';
import { TcpProxy } from '../helpers/tcp-proxy';

/** Resolves to how long `promise` took to reject, failing the test if it resolved instead. */
async function rejectionTime(promise: Promise<unknown>, expected: new (...args: never[]) => Error): Promise<number> {
  const started = Date.now();
  await expect(promise).rejects.toBeInstanceOf(expected);
  return Date.now() - started;
}

describePostgres('PostgreSQL store during a database outage', () => {
  let schema: TestSchema;
  let proxy: TcpProxy;
  let store: Store | null = null;
  const backgroundErrors: Error[] = [];

  beforeEach(async () => {
    schema = await createTestSchema();
    proxy = new TcpProxy(postgresAddress());
    await proxy.start();
  });
  afterEach(async () => {
    await store?.close();
    store = null;
    await proxy.cut();
    await schema.drop();
  });

  const openThroughProxy = async () => {
    store = await openPostgresStore(withAddress(schema.url, '127.0.0.1', proxy.port), {
      connectTimeoutMs: 500,
      statementTimeoutMs: 1000,
      onBackgroundError: (error) => backgroundErrors.push(error),
    });
    return store;
  };

  test('opening against a port where nothing listens fails fast with StoreUnavailable', async () => {
    const elapsed = await rejectionTime(openPostgresStore(withAddress(schema.url, '127.0.0.1', 1)), StoreUnavailable);
    expect(elapsed).toBeLessThan(3000);
  });

  test('a lost database answers StoreUnavailable at once, and the store recovers when it returns', async () => {
    const store = await openThroughProxy();
    await expect(store.record(inboxEntry({ pgCno: 'O1' }))).resolves.toMatchObject({ outcome: 'accepted' });

    await proxy.cut();
    expect(await rejectionTime(store.record(inboxEntry({ pgCno: 'O2' })), StoreUnavailable)).toBeLessThan(1000);
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.nextPending(10)).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.holdsRelayLock()).resolves.toBe(false);

    await proxy.start();
    await expect(store.record(inboxEntry({ pgCno: 'O2' }))).resolves.toMatchObject({ outcome: 'accepted' });
    await expect(store.ping()).resolves.toBeUndefined();
    await expect(store.holdsRelayLock()).resolves.toBe(true);
    expect((await store.nextPending(10)).map((row) => JSON.parse(row.eventJson).pgCno)).toEqual(['O1', 'O2']);
  });

  test('an idle connection dropped by the database does not crash the process', async () => {
    const store = await openThroughProxy();
    await store.ping();
    backgroundErrors.length = 0;
    await proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(backgroundErrors.length).toBeGreaterThan(0);
    await proxy.start();
    await expect(store.ping()).resolves.toBeUndefined();
  });

  test('a database that stops answering gives StoreUnavailable within the timeouts, not a hung request', async () => {
    const store = await openThroughProxy();
    await store.ping();
    proxy.freeze();
    // An open pooled connection waits out the client-side query timeout (statement timeout + 1 s).
    expect(await rejectionTime(store.record(inboxEntry({ pgCno: 'F1' })), StoreUnavailable)).toBeLessThan(3000);
    // A new connection waits out the connect timeout.
    expect(await rejectionTime(store.ping(), StoreUnavailable)).toBeLessThan(2000);
    proxy.thaw();
    await expect(store.record(inboxEntry({ pgCno: 'F1' }))).resolves.toMatchObject({ outcome: 'accepted' });
  });
});
