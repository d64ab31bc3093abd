import Database from 'better-sqlite3';
import { join } from 'node:path';
import { bodyHash } from '../src/notifications/dedup-key';
import { NOTI_TYPES } from '../src/notifications/event-types';
import { normalizeNotification } from '../src/notifications/normalize';
import { validateNotification } from '../src/notifications/schema';
import { decodeBody } from '../src/notifications/decode-body';
import { planNotifications } from '../src/simulator/scenario';
import { REPO_ROOT } from './processes';

/**
 * Fills a receiver database with `rows` delivered events, as months of traffic would leave it.
 * The schema comes from the receiver's own compiled store (dist/), which migrates on open,
 * so the seeded file is exactly what the benchmarked receiver expects; the rows are then
 * written directly in one transaction, because a million HTTP requests would take too long.
 */
export async function seedInbox(databaseFile: string, rows: number): Promise<{ seconds: number; sizeMb: number }> {
  const started = Date.now();
  const { openSqliteStore } = require(join(REPO_ROOT, 'dist', 'store', 'sqlite', 'sqlite-store.js')) as typeof import('../src/store/sqlite/sqlite-store');
  await openSqliteStore(databaseFile).close();

  const templates = planNotifications(NOTI_TYPES, 1).map((wire) => {
    const validation = validateNotification(decodeBody(wire.body, wire.contentType), { mallIds: [] });
    if (!validation.ok) throw new Error(`seed template invalid: ${validation.reasons.join('; ')}`);
    return { wire, valid: validation.value };
  });

  const db = new Database(databaseFile);
  // Durability is irrelevant while seeding; the file is checkpointed before the receiver opens it.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  const insertInbox = db.prepare(`INSERT INTO inbox
    (event_id, dedup_key, noti_type, event_type, mall_id, pg_cno, shop_order_no, body_hash, raw_body, content_type, source_ip, received_at, event_json)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertOutbox = db.prepare(`INSERT INTO outbox (inbox_seq, event_id, status, attempts, created_at, created_at_ms, delivered_at)
    VALUES (?, ?, 'delivered', 1, ?, ?, ?)`);
  const firstMs = Date.now() - 90 * 24 * 3600_000;
  const stepMs = (90 * 24 * 3600_000) / rows;

  db.transaction(() => {
    for (let i = 0; i < rows; i += 1) {
      const { wire, valid } = templates[i % templates.length]!;
      const pgCno = `SEED${String(i).padStart(16, '0')}`;
      const pgCnoField = valid.layout === 'unionpay' ? 'cno' : 'pgCno';
      const fields = { ...valid.fields, [pgCnoField]: pgCno };
      const receivedAt = new Date(firstMs + i * stepMs).toISOString();
      const { event, dedupKey: key } = normalizeNotification(
        { ...valid, common: { ...valid.common, pgCno }, fields },
        { receivedAt, sourceIp: '203.233.72.150', environment: 'production' },
      );
      const raw = valid.layout === 'unionpay' ? wire.body : Buffer.from(JSON.stringify(fields));
      const { lastInsertRowid } = insertInbox.run(
        event.id, key, event.notiType, event.type, event.mallId, pgCno, event.shopOrderNo, bodyHash(fields),
        raw, wire.contentType, event.source.ip, receivedAt, JSON.stringify(event),
      );
      insertOutbox.run(lastInsertRowid, event.id, receivedAt, Date.parse(receivedAt), receivedAt);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pages = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  return { seconds: (Date.now() - started) / 1000, sizeMb: (pages * pageSize) / 1024 / 1024 };
}

