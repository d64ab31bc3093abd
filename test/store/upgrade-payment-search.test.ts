import { openStore } from '../../src/store/open-store';
import { olderReleaseFixture, postgresAtVersion, sqliteAtVersion, type OlderReleaseDatabase } from './older-release-database';
import { admin, describePostgres } from './pg-test-database';

/** The last migration before 021 (the console search's payment_search) on this branch. */
const BEFORE_PAYMENT_SEARCH = 18;

type InboxSeed = [eventId: string, notiType: string, pgCno: string, shopOrderNo: string | null, sourceIp: string, eventJson: string];

const event = (id: string, notiType: string, pgCno: string, shopOrderNo: string, amount: number | null, data: Record<string, string>, occurredAt: string | null) =>
  JSON.stringify({ id, type: 'payment.approved', notiType, mallId: 'T0001234', pgCno, shopOrderNo, amount, occurredAt, receivedAt: '2026-11-21T03:00:00.123Z', data });

/** Notifications as an older release stored them: the migration indexes what names an order and reads as JSON. */
const SEEDS: InboxSeed[] = [
  ['evt_card', '10', 'PG1', 'ORD-1', '203.0.113.5', event('evt_card', '10', 'PG1', 'ORD-1', 12000, { approvalNo: '30012345', payMethodTypeCode: '11', cardNo: '5361-48**-****-1234' }, '2026-11-21T12:00:00+09:00')],
  ['evt_deposit', '30', 'PG2', 'ORD-2', '203.0.113.5', event('evt_deposit', '30', 'PG2', 'ORD-2', 45000, {}, null)],
  ['evt_broken', '10', 'PG3', 'ORD-3', '203.0.113.5', '{"id": "evt_broken", '],
  ['evt_no_order', '10', 'PG4', null, '203.0.113.5', event('evt_no_order', '10', 'PG4', '', 500, {}, null)],
  ['ledger_evt', '', 'PG1', null, 'internal', '{"id":"ledger_evt","type":"order.updated"}'],
];

interface OldDatabase extends OlderReleaseDatabase {
  url: string;
  insertInbox(seed: InboxSeed): Promise<void>;
}

function upgradeContract(openOld: () => Promise<OldDatabase>): void {
  const fixture = olderReleaseFixture(openOld);

  it('indexes the notifications stored before it, by approval number, amount, method and the event time, and leaves the unreadable out', async () => {
    const { old } = fixture;
    for (const seed of SEEDS) await old.insertInbox(seed);
    fixture.opened(await openStore(old.url));
    const rows = await old.rows('SELECT shop_order_no, event_id, noti_type, pg_cno, approval_no, amount, method, at_ms FROM payment_search ORDER BY event_id');
    expect(rows.map((row) => ({ ...row, amount: row.amount === null ? null : Number(row.amount), at_ms: Number(row.at_ms) }))).toEqual([
      { shop_order_no: 'ORD-1', event_id: 'evt_card', noti_type: '10', pg_cno: 'PG1', approval_no: '30012345', amount: 12000, method: '11', at_ms: Date.parse('2026-11-21T12:00:00+09:00') },
      // A deposit names no method: a virtual account's; no event time: when it was received.
      { shop_order_no: 'ORD-2', event_id: 'evt_deposit', noti_type: '30', pg_cno: 'PG2', approval_no: null, amount: 45000, method: '22', at_ms: Date.parse('2026-11-21T03:00:00.123Z') },
    ]);
    const operators = await old.rows("SELECT count(*) AS n FROM operators WHERE can_cancel = 0");
    expect(Number(operators[0]!.n)).toBe(0);
  });
}

const INSERT = `INSERT INTO inbox (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno, shop_order_no, body_hash, raw_body, content_type, source_ip, received_at, event_json)`;

describe('payment_search on an upgraded SQLite database', () => {
  upgradeContract(async () => {
    const old = sqliteAtVersion(BEFORE_PAYMENT_SEARCH);
    return {
      ...old,
      url: `sqlite:${old.file}`,
      insertInbox: async ([id, notiType, pgCno, shopOrderNo, ip, json]) => void old.db.prepare(`${INSERT} VALUES (?, ?, ?, 'payment.approved', 'T0001234', ?, ?, 'h', ?, 'application/json', ?, '2026-11-21T03:00:00.123Z', ?)`)
        .run(id, `k-${id}`, notiType, pgCno, shopOrderNo, Buffer.from(json), ip, json),
    };
  });
});

describePostgres('payment_search on an upgraded PostgreSQL database', () => {
  upgradeContract(async () => {
    const old = await postgresAtVersion(BEFORE_PAYMENT_SEARCH);
    return {
      ...old,
      insertInbox: async ([id, notiType, pgCno, shopOrderNo, ip, json]) => void (await admin(old.url,
        `${INSERT} VALUES ($1, $2, $3, 'payment.approved', 'T0001234', $4, $5, 'h', $6, 'application/json', $7, '2026-11-21T03:00:00.123Z', $8)`,
        [id, `k-${id}`, notiType, pgCno, shopOrderNo, Buffer.from(json), ip, json])),
    };
  });
});
