import { inboxRow } from '../../src/store/procedures/inbox-outbox/inbox-row';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMigrations } from '../../src/store/migrations';
import { writes } from '../../src/store/procedures';
import { migrate } from '../../src/store/sqlite/migrate';
import { runProcedure, StatementCache } from '../../src/store/sqlite/run-procedure';
import { BACKFILL_REMINDER } from '../../src/ledger/projector/backfill-reminder';
import { eventually } from '../helpers/eventually';
import { inboxEntry } from '../helpers/stored-events';
import { spawnReceiver } from '../helpers/spawn-receiver';

describe('starting on a database of an older release', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'noti-upgrade-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('the receiver says which migration it applies, and what a long one does, before it listens; then that a ledger backfill is due', async () => {
    const file = join(dir, 'receiver.db');
    const db = new Database(file);
    migrate(db, { migrations: readMigrations('sqlite').filter((m) => m.version <= 5) });
    db.transaction(() => runProcedure(new StatementCache(db), writes.recordNotification(inboxRow(inboxEntry({ pgCno: 'OLD-1' }))), { outboxChanged: false }))();
    db.close();

    const receiver = await spawnReceiver(dir, { DATABASE_URL: `sqlite:${file}`, QUEUE_URL: `file:${join(dir, 'events.ndjson')}` });
    try {
      const messages = receiver.logs().map((line) => line.message);
      const applying = receiver.logs().filter((line) => line.message === 'applying database migration');
      expect(applying).toEqual([
        expect.objectContaining({ level: 'info', migration: '006_lean_indexes', note: expect.stringMatching(/one-time.*per million stored notifications/) }),
        expect.objectContaining({ level: 'info', migration: '007_ordered_dedup_index', note: expect.stringMatching(/one-time.*per million stored notifications/) }),
        expect.objectContaining({ level: 'info', migration: '008_unpruned_index', note: expect.stringMatching(/one-time.*per million stored notifications/) }),
        expect.objectContaining({ level: 'info', migration: '009_operators' }),
        expect.objectContaining({ level: 'info', migration: '010_ledger' }),
        expect.objectContaining({ level: 'info', migration: '011_ledger_lean_indexes', note: expect.stringMatching(/one-time.*per million ledger orders/) }),
        expect.objectContaining({ level: 'info', migration: '012_trace_context' }),
        expect.objectContaining({ level: 'info', migration: '013_session_locale' }),
        expect.objectContaining({ level: 'info', migration: '014_ledger_projector' }),
        expect.objectContaining({ level: 'info', migration: '015_outbox_autovacuum' }),
        expect.objectContaining({ level: 'info', migration: '016_ledger_failed_inputs' }),
        expect.objectContaining({ level: 'info', migration: '017_audit_operator' }),
        expect.objectContaining({ level: 'info', migration: '018_store_identity' }),
        expect.objectContaining({ level: 'info', migration: '019_ledger_fold_states' }),
        expect.objectContaining({ level: 'info', migration: '020_daily_summary' }),
        expect.objectContaining({ level: 'info', migration: '021_payment_search', note: expect.stringMatching(/one-time.*per million notifications/) }),
        expect.objectContaining({ level: 'info', migration: '022_alerts' }),
        expect.objectContaining({ level: 'info', migration: '023_ledger_generation' }),
        expect.objectContaining({ level: 'info', migration: '024_command_payment' }),
        expect.objectContaining({ level: 'info', migration: '025_summary_status_day' }),
        expect.objectContaining({ level: 'info', migration: '026_payment_method_facts', note: expect.stringMatching(/one-time.*ledger rebuild/) }),
        expect.objectContaining({ level: 'info', migration: '027_inbox_origin', note: expect.stringMatching(/one-time/) }),
        expect.objectContaining({ level: 'info', migration: '028_summary_by_deltas', note: expect.stringMatching(/one-time/) }),
        expect.objectContaining({ level: 'info', migration: '029_page_layout', note: expect.stringMatching(/one-time.*copy of payment_search/) }),
        expect.objectContaining({ level: 'info', migration: '030_ledger_fold_positions' }),
        expect.objectContaining({ level: 'info', migration: '031_ledger_order_items' }),
        expect.objectContaining({ level: 'info', migration: '032_reconciliation_imports' }),
        expect.objectContaining({ level: 'info', migration: '033_day_close_and_settlement' }),
        expect.objectContaining({ level: 'info', migration: '034_reconciliation_uploads' }),
        expect.objectContaining({ level: 'info', migration: '036_import_lists_cancels' }),
      ]);
      expect(messages.indexOf('applying database migration')).toBeLessThan(messages.indexOf('listening'));
      // The notification stored before the ledger has no facts yet: one warning says what to run.
      const reminder = await eventually(() => receiver.logs().find((line) => line.message === BACKFILL_REMINDER), 10_000, 'the backfill reminder');
      expect(reminder).toMatchObject({ level: 'warn', command: 'noti-receiver ledger backfill' });
      expect(receiver.logs().filter((line) => line.message === BACKFILL_REMINDER)).toHaveLength(1);
    } finally {
      receiver.child.kill('SIGTERM');
      await receiver.exited;
    }
  });
});
