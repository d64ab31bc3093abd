import { openStore } from '../../src/store/open-store';
import { auditOperator } from '../../src/store/procedures/console-operators/record-audit';
import { olderReleaseFixture, postgresAtVersion, sqliteAtVersion, type OlderReleaseDatabase } from './older-release-database';
import { admin, describePostgres } from './pg-test-database';

/** Migration 017 stored the operator of each audit row apart from its actor. */
const BEFORE_AUDIT_OPERATOR = 15;

/** Actors as releases before it wrote them, with the operator each names. */
const ACTORS: Array<[string, string]> = [
  ['kim (10.0.0.7)', 'kim'],
  ['ops-lead (cli)', 'ops-lead'],
  ['s3opsX (10.9.9.9) (127.0.0.1)', 's3opsX (10.9.9.9)'],
  ['김민지 (kim@shop.example) (internal API)', '김민지 (kim@shop.example)'],
  ['kim (x (::1)', 'kim (x'],
  ['cli', 'cli'],
  ['unidentified (2001:db8::1)', 'unidentified'],
];

interface OldDatabase extends OlderReleaseDatabase {
  insertAudit(actor: string, at: string): Promise<void>;
  url: string;
}

function upgradeContract(openOld: () => Promise<OldDatabase>): void {
  const fixture = olderReleaseFixture(openOld);

  it('derives the operator of every row written before, as a new row stores it, so the filter finds them exactly', async () => {
    const { old } = fixture;
    for (const [i, [actor]] of ACTORS.entries()) await old.insertAudit(actor, `2026-11-20T00:0${i}:00.000Z`);
    const store = fixture.opened(await openStore(old.url));
    const migrated = await old.rows('SELECT actor, operator FROM audit_log ORDER BY id');
    expect(migrated).toEqual(ACTORS.map(([actor, operator]) => ({ actor, operator })));
    for (const [actor, operator] of ACTORS) expect(auditOperator(actor)).toBe(operator);

    await store.recordAudit({ at: '2026-11-21T00:00:00.000Z', actor: 's3opsX (10.9.9.9)', action: 'signed in', subject: null, detail: null });
    const found = await store.searchAudit({ operator: 's3opsX', limit: 10 });
    expect(found.rows.map((row) => row.actor)).toEqual(['s3opsX (10.9.9.9)']);
    expect((await store.searchAudit({ operator: 's3opsX (10.9.9.9)', limit: 10 })).rows.map((row) => row.actor)).toEqual(['s3opsX (10.9.9.9) (127.0.0.1)']);
  });
}

describe('the audit operator column on an upgraded SQLite database', () => {
  upgradeContract(async () => {
    const old = sqliteAtVersion(BEFORE_AUDIT_OPERATOR);
    return {
      ...old,
      url: `sqlite:${old.file}`,
      // The current store opens the file itself: this connection only seeds it.
      cleanup: old.cleanup,
      insertAudit: async (actor, at) => void old.db.prepare("INSERT INTO audit_log (at, actor, action) VALUES (?, ?, 'signed in')").run(at, actor),
      rows: async (sql) => old.rows(sql),
    };
  });
});

describePostgres('the audit operator column on an upgraded PostgreSQL database', () => {
  upgradeContract(async () => {
    const old = await postgresAtVersion(BEFORE_AUDIT_OPERATOR);
    return { ...old, insertAudit: async (actor, at) => void (await admin(old.url, "INSERT INTO audit_log (at, actor, action) VALUES ($1, $2, 'signed in')", [at, actor])) };
  });
});
