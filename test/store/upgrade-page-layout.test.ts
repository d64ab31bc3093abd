import { openStore } from '../../src/store/open-store';
import { olderReleaseFixture, postgresAtVersion, sqliteAtVersion, type OlderReleaseDatabase } from './older-release-database';
import { admin, describePostgres } from './pg-test-database';

/** The last migration before 029 (payment_search in insertion order, room for HOT updates) on this branch. */
const BEFORE_PAGE_LAYOUT = 26;

const COLUMNS = 'shop_order_no, mall_id, event_id, noti_type, pg_cno, approval_no, amount, method, at_ms';
type SearchRow = [string, string, string, string, string, string | null, number | null, string | null, number];
/** Rows as 021 kept them: in the order of their order numbers, which is not their time order. */
const ROWS: SearchRow[] = [
  ['ORD-A', 'T0001234', 'evt_3', '10', 'PG3', '30012345', 12000, '11', 3_000],
  ['ORD-B', 'T0001234', 'evt_1', '10', 'PG1', null, 500, null, 1_000],
  ['ORD-C', 'T0001234', 'evt_2', '30', 'PG2', null, null, '22', 2_000],
];
const asRow = (row: Record<string, unknown>) => [row.shop_order_no, row.mall_id, row.event_id, row.noti_type, row.pg_cno, row.approval_no,
  row.amount === null ? null : Number(row.amount), row.method, Number(row.at_ms)];

interface OldDatabase extends OlderReleaseDatabase {
  url: string;
  insertSearchRow(row: SearchRow): Promise<void>;
}

// PostgreSQL's payment_search needs no copy: its heap already lies in the order rows were written.
function upgradeContract(openOld: () => Promise<OldDatabase>, storedOrder: string): void {
  const fixture = olderReleaseFixture(openOld);

  it('carries every search row, in the order of their time, and keeps a notification written again once', async () => {
    const { old } = fixture;
    for (const row of ROWS) await old.insertSearchRow(row);
    fixture.opened(await openStore(old.url));
    const rows = await old.rows(`SELECT ${COLUMNS} FROM payment_search ORDER BY ${storedOrder}`);
    expect(rows.map(asRow)).toEqual([...ROWS].sort((a, b) => a[8] - b[8]));
    await expect(old.insertSearchRow(ROWS[0]!)).resolves.toBeUndefined();
    expect(Number((await old.rows('SELECT count(*) AS n FROM payment_search'))[0]!.n)).toBe(ROWS.length);
  });
}

describe('029 on an upgraded SQLite database', () => {
  upgradeContract(async () => {
    const old = sqliteAtVersion(BEFORE_PAGE_LAYOUT);
    return {
      ...old,
      url: `sqlite:${old.file}`,
      insertSearchRow: async (row) => void old.db.prepare(`INSERT INTO payment_search (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`).run(...row),
    };
  // The rowid: the order the rows lie in the table.
  }, 'rowid');
});

describePostgres('029 on an upgraded PostgreSQL database', () => {
  const fixture = olderReleaseFixture(async () => postgresAtVersion(BEFORE_PAGE_LAYOUT));

  it('leaves room on the pages of the tables updated in place per batch', async () => {
    const { old } = fixture;
    fixture.opened(await openStore(old.url));
    const options = await admin(old.url, `SELECT relname, reloptions FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' AND reloptions IS NOT NULL ORDER BY relname`);
    expect(options.filter((row) => row.relname !== 'outbox')).toEqual([
      { relname: 'ledger_fold_positions', reloptions: ['fillfactor=50'] },
      { relname: 'ledger_orders', reloptions: ['fillfactor=80'] },
      { relname: 'ledger_projector', reloptions: ['fillfactor=50'] },
      { relname: 'summary_daily', reloptions: ['fillfactor=70'] },
    ]);
  });
});
