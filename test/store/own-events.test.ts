import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandEvent } from '../../src/commands/command-event';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { queueOwnEvents, type OwnEvent } from '../../src/store/procedures/inbox-outbox/own-events';
import { sha256Hex } from '../../src/sha256-hex';
import { MALL, minute, paid } from './ledger-entries';
import { postgresRunner, sqliteRunner, type ProcedureRunner } from './procedure-runners';
import { admin, createTestSchema, describePostgres } from './pg-test-database';

type Row = Record<string, unknown>;

const ownEvent = (id: string): OwnEvent => {
  const json = JSON.stringify({ id, type: 'order.updated', at: minute(0) });
  return { id, type: 'order.updated', mallId: MALL, pgCno: 'PG-OWN', json, bodyHash: sha256Hex(json) };
};

/** Each own row as the relay and the readers see it: inbox columns and its outbox row, in seq order. */
const OWN_ROWS = `SELECT i.event_id AS "eventId", i.origin, i.source_ip AS "sourceIp", i.dedup_key AS "dedupKey", i.event_type AS "type",
    o.event_id AS "queued", o.created_at AS "createdAt"
  FROM inbox i LEFT JOIN outbox o ON o.inbox_seq = i.seq WHERE i.origin <> 'gateway' ORDER BY i.seq`;

function oneWriterContract(open: () => Promise<ProcedureRunner>): void {
  let db: ProcedureRunner;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => db.close());

  it('stores the events as its origin\'s inbox rows, queued in the order given, and a batch written again queues each once', async () => {
    // More than one chunk of SQLite's statements, in an order that is not the ids'.
    const ids = Array.from({ length: 300 }, (_, i) => `evt_own_${String((i * 7919) % 300).padStart(3, '0')}`);
    await db.transaction(queueOwnEvents('ledger', ids.map(ownEvent), minute(1)));
    await db.transaction(queueOwnEvents('ledger', [...ids.slice(0, 10), 'evt_own_new'].map(ownEvent), minute(2)));

    const rows = await db.rows(OWN_ROWS);
    expect(rows.map((row) => row.eventId)).toEqual([...ids, 'evt_own_new']);
    expect(rows.every((row) => row.queued === row.eventId)).toBe(true);
    expect(rows[0]).toEqual({ eventId: ids[0], origin: 'ledger', sourceIp: 'ledger', dedupKey: `ledger:${ids[0]}`, type: 'order.updated', queued: ids[0], createdAt: minute(1) });
    expect(rows.at(-1)).toMatchObject({ createdAt: minute(2) });
    const [outbox] = await db.rows('SELECT count(*) AS n, count(DISTINCT inbox_seq) AS seqs FROM outbox');
    expect([Number(outbox!.n), Number(outbox!.seqs)]).toEqual([301, 301]);
  });

  it('writes a command\'s final state under its own origin', async () => {
    await db.transaction(queueOwnEvents('command', [ownEvent('evt_cmd_1')], minute(1)));
    await expect(db.rows(OWN_ROWS)).resolves.toEqual([
      { eventId: 'evt_cmd_1', origin: 'command', sourceIp: 'command', dedupKey: 'command:evt_cmd_1', type: 'order.updated', queued: 'evt_cmd_1', createdAt: minute(1) },
    ]);
  });
}

/** The store's two paths to the one writer: the ledger's events and a command's final state. */
function ownEventPathsContract(open: () => Promise<{ stores: Stores; rows(sql: string): Promise<Row[]>; cleanup(): Promise<void> }>): void {
  let stores: Stores;
  let rows: (sql: string) => Promise<Row[]>;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ stores, rows, cleanup } = await open());
  });
  afterEach(async () => cleanup());

  it('a ledger event is the ledger\'s own inbox row with its outbox row, and no gateway notification', async () => {
    await stores.store.record(paid('ORD-OWN-1', 'PG-OWN-1', 30000));
    await expect(stores.ledger.getOrder({ mallId: MALL, shopOrderNo: 'ORD-OWN-1' })).resolves.toMatchObject({ status: 'paid' });
    const own = await rows(OWN_ROWS);
    expect(own).toEqual([expect.objectContaining({ origin: 'ledger', sourceIp: 'ledger', type: 'order.status_changed' })]);
    expect(own[0]!.queued).toBe(own[0]!.eventId);
    expect(own[0]!.dedupKey).toBe(`ledger:${String(own[0]!.eventId)}`);
    await expect(stores.store.eventActivity('2026-11-21T00:00:00.000Z')).resolves.toEqual([{ hour: '2026-11-21T03', type: 'payment.approved', count: 1 }]);
  });

  it('a command\'s final state is the command\'s own inbox row with its outbox row', async () => {
    const at = minute(0);
    const request = { pgCno: 'PG-OWN-2' };
    await stores.commands.createCommand({ kind: 'wallet-b.cancel', shopTransactionId: 'st-own-2', mallId: MALL, bodyHash: 'h', request, state: 'pending', at, owner: 'me', leaseUntil: Date.parse(at) + 60_000 });
    const n = await stores.commands.beginAttempt({ shopTransactionId: 'st-own-2', owner: 'me', operation: 'wallet-b.cancel', request, state: 'pending', at, leaseUntil: Date.parse(at) + 60_000 });
    const event = commandEvent('wallet.cancel.succeeded', {
      command: 'wallet-b.cancel', shopTransactionId: 'st-own-2', mallId: MALL, state: 'succeeded', attempts: 1, request, response: { resCd: '0000' },
      lastError: null, createdAt: at, updatedAt: at,
    });
    await stores.commands.finishAttempt({
      shopTransactionId: 'st-own-2', owner: 'me', n: n!, at, httpStatus: 200, response: { resCd: '0000' }, answerText: null, error: null, state: 'succeeded', nextAttemptAt: 0, event,
    });
    await expect(rows(OWN_ROWS)).resolves.toEqual([
      { eventId: event.id, origin: 'command', sourceIp: 'command', dedupKey: `command:${event.id}`, type: 'wallet.cancel.succeeded', queued: event.id, createdAt: at },
    ]);
    expect((await stores.store.nextPending(10)).map((row) => row.eventId)).toEqual([event.id]);
    // No notification of the gateway: the console's activity does not count it.
    await expect(stores.store.eventActivity('2026-11-21T00:00:00.000Z')).resolves.toEqual([]);
  });
}

describe('the one writer of the service\'s own events on SQLite', () => {
  oneWriterContract(async () => sqliteRunner());
  ownEventPathsContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-own-'));
    const file = join(dir, 'receiver.db');
    const stores = await openStores(`sqlite:${file}`, { ledger: { requireExpectation: false, graceSeconds: 2100 } });
    const reader = new Database(file, { readonly: true });
    return {
      stores,
      rows: async (sql) => reader.prepare(sql).all() as Row[],
      cleanup: async () => {
        reader.close();
        await stores.store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describePostgres('the one writer of the service\'s own events on PostgreSQL', () => {
  oneWriterContract(postgresRunner);
  ownEventPathsContract(async () => {
    const schema = await createTestSchema();
    const stores = await openStores(schema.url, { ledger: { requireExpectation: false, graceSeconds: 2100 } });
    return {
      stores,
      rows: (sql) => admin(schema.url, sql),
      cleanup: async () => {
        await stores.store.close();
        await schema.drop();
      },
    };
  });
});
