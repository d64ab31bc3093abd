import { openStore } from '../../src/store/open-store';
import { olderReleaseFixture, postgresAtVersion, sqliteAtVersion, type OlderReleaseDatabase, type Row } from './older-release-database';
import { admin, describePostgres } from './pg-test-database';

/** The last migration before 026 (the payments' method in the ledger's facts). */
const BEFORE_PAYMENT_METHOD = 25;

const fact = (id: string, notiType: string, pgCno: string) => JSON.stringify({
  kind: 'notification', id, at: '2026-11-21T12:00:00+09:00', recordedAt: '2026-11-21T03:00:00.123Z', notiType, pgCno, cancelPgCno: null, resCd: '0000',
  statusCode: null, amount: 12000, cancelAmount: null, remainAmount: null, occurredAt: '2026-11-21T12:00:00+09:00', receivedAt: '2026-11-21T03:00:00.123Z',
});

/** [fact id, notiType, pgCno, the search row's method (undefined: no search row)] of one order, as the previous release stored them. */
const FACTS: Array<[string, string, string, string | null | undefined]> = [
  ['evt_card', '10', 'PG1', '11'],
  ['evt_unionpay', '70', 'PG2', '11'],
  ['evt_unnamed', '10', 'PG3', null],
  ['evt_pruned', '10', 'PG4', undefined],
  ['evt_deposit', '30', 'PG5', '22'],
];

interface OldDatabase extends OlderReleaseDatabase {
  url: string;
  run(sql: string, ...params: unknown[]): Promise<void>;
}

function upgradeContract(openOld: () => Promise<OldDatabase>): void {
  const fixture = olderReleaseFixture(openOld);

  it('gives the payments stored before it the method the gateway reported, from the search rows, and drops the changed orders\' fold checkpoints', async () => {
    const { old } = fixture;
    await old.run("INSERT INTO ledger_orders (mall_id, shop_order_no, status, record_json, updated_at) VALUES ('T0001234', 'ORD-1', 'paid', '{}', '2026-11-21T03:00:00.123Z')");
    await old.run("INSERT INTO ledger_orders (mall_id, shop_order_no, status, record_json, updated_at) VALUES ('T0001234', 'ORD-2', 'paid', '{}', '2026-11-21T03:00:00.123Z')");
    const orderOf = (no: string) => `(SELECT order_id FROM ledger_orders WHERE shop_order_no = '${no}')`;
    for (const [id, notiType, pgCno, method] of FACTS) {
      await old.run(`INSERT INTO ledger_facts (order_id, id, kind, recorded_at, fact_json) VALUES (${orderOf('ORD-1')}, '${id}', 'notification', '2026-11-21T03:00:00.123Z', '${fact(id, notiType, pgCno)}')`);
      if (method !== undefined) {
        await old.run(`INSERT INTO payment_search (shop_order_no, mall_id, event_id, noti_type, pg_cno, approval_no, amount, method, at_ms)
          VALUES ('ORD-1', 'T0001234', '${id}', '${notiType}', '${pgCno}', NULL, 12000, ${method === null ? 'NULL' : `'${method}'`}, 0)`);
      }
    }
    // Another order's payment with no method anywhere.
    await old.run(`INSERT INTO ledger_facts (order_id, id, kind, recorded_at, fact_json) VALUES (${orderOf('ORD-2')}, 'evt_other', 'notification', '2026-11-21T03:00:00.123Z', '${fact('evt_other', '10', 'PG9')}')`);
    for (const no of ['ORD-1', 'ORD-2']) await old.run(`INSERT INTO ledger_fold_states (order_id, settings, last_moment, state_json) VALUES (${orderOf(no)}, 's', 0, '{}')`);

    fixture.opened(await openStore(old.url));
    const facts = await old.rows('SELECT id, fact_json FROM ledger_facts ORDER BY id');
    const methods = Object.fromEntries(facts.map((row: Row) => [row.id, (JSON.parse(String(row.fact_json)) as { payMethod?: string }).payMethod ?? 'none']));
    expect(methods).toEqual({ evt_card: '11', evt_unionpay: '11', evt_unnamed: 'none', evt_pruned: 'none', evt_deposit: 'none', evt_other: 'none' });
    // Everything else in a fact is as it was.
    const card = JSON.parse(String(facts.find((row) => row.id === 'evt_card')!.fact_json)) as Record<string, unknown>;
    expect(card).toEqual({ ...JSON.parse(fact('evt_card', '10', 'PG1')), payMethod: '11' });
    // Every stored fold state is gone by the latest migration (030 keeps positions only, written at each order's next input): each order replays once.
    expect(await old.rows('SELECT order_id FROM ledger_fold_positions')).toEqual([]);
  });
}

describe('the payments\' method on an upgraded SQLite database', () => {
  upgradeContract(async () => {
    const old = sqliteAtVersion(BEFORE_PAYMENT_METHOD);
    return { ...old, url: `sqlite:${old.file}`, run: async (sql) => void old.db.exec(sql) };
  });
});

describePostgres('the payments\' method on an upgraded PostgreSQL database', () => {
  upgradeContract(async () => {
    const old = await postgresAtVersion(BEFORE_PAYMENT_METHOD);
    return { ...old, run: async (sql) => void (await admin(old.url, sql)) };
  });
});
