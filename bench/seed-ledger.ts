import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { planNotifications } from '../src/simulator/scenario';
import { storeWholePostgres, storeWholeSqlite } from './whole-record';

/**
 * Gives a store `orders` approved orders, each as real traffic would leave it: the gateway's
 * approval in the inbox (and whatever the projector stored beside it), its outbox rows delivered,
 * its ledger order and facts, the projector's position after all of them.
 *
 * A million HTTP requests would take too long, and writing the ledger's rows by hand would drift
 * from what the projector really writes. So the receiver itself stores and projects one approval
 * (`template`, sent while it runs), and `clone` (with the receiver stopped) copies that order's rows
 * in bulk, each copy under its own order number and event id.
 */
export async function sendTemplateOrder(notificationsUrl: string): Promise<void> {
  const wire = planNotifications(['10'], 1)[0]!;
  const response = await fetch(notificationsUrl, { method: 'POST', headers: { 'content-type': wire.contentType }, body: wire.body });
  if (!response.ok) throw new Error(`the template approval was answered ${response.status}`);
}

export interface SeedResult {
  orders: number;
  seconds: number;
  /** The template's rows per order: what each copy adds. */
  inboxRowsPerOrder: number;
  factsPerOrder: number;
  status: string | null;
}

/** One order's rows, as the receiver left them. */
interface Template {
  shopOrderNo: string;
  inbox: Array<Record<string, unknown>>;
  order: Record<string, unknown>;
  facts: Array<Record<string, unknown>>;
}

const TEMPLATE_QUERY = {
  order: `SELECT * FROM ledger_orders WHERE status IS NOT NULL ORDER BY order_id LIMIT 1`,
  inbox: `SELECT * FROM inbox WHERE shop_order_no = $1 ORDER BY seq`,
  facts: `SELECT * FROM ledger_facts WHERE order_id = $1 ORDER BY id`,
};

/** Waits until the projector applied the template and the relay delivered its rows. */
async function settled(read: () => Promise<{ projected: boolean; pending: number }>): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { projected, pending } = await read();
    if (projected && pending === 0) return;
    if (Date.now() > deadline) throw new Error('the template order was not projected and delivered within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const SETTLED_SQL = `SELECT (SELECT COUNT(*) FROM ledger_orders WHERE status IS NOT NULL) AS orders,
  (SELECT COUNT(*) FROM inbox WHERE seq > (SELECT inbox_seq FROM ledger_projector WHERE id = 1)) AS behind,
  (SELECT COUNT(*) FROM outbox WHERE status = 'pending') AS pending`;

export async function waitForTemplateSqlite(file: string): Promise<void> {
  const db = new Database(file, { readonly: true });
  try {
    await settled(async () => {
      const row = db.prepare(SETTLED_SQL).get() as { orders: number; behind: number; pending: number };
      return { projected: row.orders > 0 && row.behind === 0, pending: row.pending };
    });
  } finally {
    db.close();
  }
}

export async function waitForTemplatePostgres(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await settled(async () => {
      const row = (await client.query<{ orders: string; behind: string; pending: string }>(SETTLED_SQL)).rows[0]!;
      return { projected: Number(row.orders) > 0 && Number(row.behind) === 0, pending: Number(row.pending) };
    });
  } finally {
    await client.end();
  }
}

const copyName = (shopOrderNo: string, copy: number) => `${shopOrderNo}-S${copy}`;
/** The receiver's form (`evt_` and 32 hex digits), derived from the template's id and the copy. */
const copyEventId = (eventId: string, copy: number) => `evt_${createHash('sha256').update(`${eventId}:${copy}`).digest('hex').slice(0, 32)}`;
/** 20 digits like the gateway's, starting 99 where the simulator's never do. */
const copyPgCno = (copy: number, index: number) => `99${String(index)}${String(copy).padStart(17, '0')}`;
/** Text columns that name the order, the event or the payment outright. */
const RENAMED_COLUMNS = new Set(['shop_order_no', 'event_id', 'pg_cno', 'id']);

/** SQLite: one transaction, prepared statements; the receiver must be stopped. */
export function cloneSqlite(file: string, orders: number): SeedResult {
  const started = Date.now();
  const db = new Database(file);
  try {
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -1000000');
    const first = db.prepare(TEMPLATE_QUERY.order.replace('$1', '?')).get() as Record<string, unknown> | undefined;
    if (!first) throw new Error('no template order to clone');
    // The copies are of its row and facts alone: its record whole in the row.
    storeWholeSqlite(db, first.order_id as number);
    const order = db.prepare(TEMPLATE_QUERY.order.replace('$1', '?')).get() as Record<string, unknown>;
    const template: Template = {
      shopOrderNo: String(order.shop_order_no),
      order,
      inbox: db.prepare(TEMPLATE_QUERY.inbox.replace('$1', '?')).all(order.shop_order_no) as Array<Record<string, unknown>>,
      facts: db.prepare(TEMPLATE_QUERY.facts.replace('$1', '?')).all(order.order_id) as Array<Record<string, unknown>>,
    };
    const columns = (table: string, skip: string) =>
      (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as Array<{ name: string }>).map((c) => c.name).filter((name) => name !== skip);
    const insertInto = (table: string, names: string[]) => db.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`);
    const inboxColumns = columns('inbox', 'seq');
    const orderColumns = columns('ledger_orders', 'order_id');
    const insertInbox = insertInto('inbox', inboxColumns);
    const insertOrder = insertInto('ledger_orders', orderColumns);
    const insertFact = insertInto('ledger_facts', columns('ledger_facts', ''));
    const insertOutbox = db.prepare(`INSERT INTO outbox (inbox_seq, event_id, status, attempts, created_at, created_at_ms, delivered_at)
      VALUES (?, ?, 'delivered', 1, ?, ?, ?)`);
    type Values = Record<string, string | number | bigint | Buffer | null>;
    const pick = (row: Record<string, unknown>, names: string[]) => Object.fromEntries(names.map((n) => [n, row[n] ?? null])) as Values;
    const pgCnos = [...new Set(template.inbox.map((row) => String(row.pg_cno)))];
    db.transaction(() => {
      for (let copy = 1; copy <= orders; copy += 1) {
        // Each copy its own order number, event ids and payment numbers, wherever the template's appear.
        const names: Array<[string, string]> = [
          [template.shopOrderNo, copyName(template.shopOrderNo, copy)],
          ...template.inbox.map((row): [string, string] => [String(row.event_id), copyEventId(String(row.event_id), copy)]),
          ...pgCnos.map((pgCno, i): [string, string] => [pgCno, copyPgCno(copy, i)]),
        ];
        const renamed = <T>(value: T) => (typeof value === 'string' ? names.reduce((text: string, [from, to]) => text.split(from).join(to), value) : value);
        const renameAll = (values: Values) => {
          for (const key of Object.keys(values)) if (key.endsWith('_json') || RENAMED_COLUMNS.has(key)) values[key] = renamed(values[key]!);
          return values;
        };
        for (const row of template.inbox) {
          const values = renameAll(pick(row, inboxColumns));
          values.dedup_key = `${String(row.dedup_key)}:${copy}`;
          const seq = insertInbox.run(values).lastInsertRowid;
          insertOutbox.run(seq, values.event_id, row.received_at, Date.parse(String(row.received_at)), row.received_at);
        }
        const orderId = insertOrder.run(renameAll(pick(template.order, orderColumns))).lastInsertRowid;
        for (const fact of template.facts) insertFact.run({ ...renameAll(pick(fact, Object.keys(fact))), order_id: orderId });
      }
      db.prepare('UPDATE ledger_projector SET inbox_seq = (SELECT MAX(seq) FROM inbox) WHERE id = 1').run();
    })();
    db.exec('ANALYZE');
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { orders, seconds: (Date.now() - started) / 1000, inboxRowsPerOrder: template.inbox.length, factsPerOrder: template.facts.length, status: String(order.status) };
  } finally {
    db.close();
  }
}

/** PostgreSQL: INSERT … SELECT over generate_series in chunks, then VACUUM ANALYZE; the receiver must be stopped. */
export async function clonePostgres(url: string, orders: number): Promise<SeedResult> {
  const started = Date.now();
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const first = (await client.query<Record<string, unknown>>(TEMPLATE_QUERY.order)).rows[0];
    if (!first) throw new Error('no template order to clone');
    // The copies are of its row and facts alone: its record whole in the row.
    await storeWholePostgres(client, first.order_id as string);
    const order = (await client.query<Record<string, unknown>>(TEMPLATE_QUERY.order)).rows[0]!;
    const shopOrderNo = String(order.shop_order_no);
    const facts = (await client.query(TEMPLATE_QUERY.facts, [order.order_id])).rowCount ?? 0;
    const columns = async (table: string, skip: string) =>
      (await client.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`, [table],
      )).rows.map((r) => r.column_name).filter((name) => name !== skip);
    const template = (await client.query<{ event_id: string; pg_cno: string }>(TEMPLATE_QUERY.inbox, [shopOrderNo])).rows;
    if (template.length !== 1) throw new Error(`the template order has ${template.length} inbox rows; the PostgreSQL seed copies exactly one`);
    // Each copy (g) its own order number, event id and payment number, as copyEventId and copyPgCno make them.
    const eventId = template[0]!.event_id;
    const pgCno = template[0]!.pg_cno;
    const names = (g: string) => [
      [`$1`, `$1 || '-S' || ${g}`],
      [`'${eventId}'`, `'evt_' || left(encode(sha256(convert_to('${eventId}:' || ${g}, 'UTF8')), 'hex'), 32)`],
      [`'${pgCno}'`, `'990' || lpad(${g}::text, 17, '0')`],
    ];
    const renamedSql = (expression: string, g = 'g') => names(g).reduce((sql, [from, to]) => `replace(${sql}, ${from}, ${to})`, expression);
    const renamesColumn = (name: string) => name.endsWith('_json') || ['shop_order_no', 'event_id', 'pg_cno', 'id'].includes(name);
    const inboxColumns = await columns('inbox', 'seq');
    const inboxExpressions = inboxColumns.map((name) => {
      if (name === 'dedup_key') return `t.dedup_key || ':' || g`;
      return renamesColumn(name) ? renamedSql(`t.${name}`) : `t.${name}`;
    });
    const orderColumns = await columns('ledger_orders', 'order_id');
    const orderExpressions = orderColumns.map((name) => (renamesColumn(name) ? renamedSql(`t.${name}`) : `t.${name}`));
    const copyOf = `substring(o.shop_order_no from '-S([0-9]+)$')`;
    const CHUNK = 50_000;
    for (let from = 1; from <= orders; from += CHUNK) {
      const to = Math.min(orders, from + CHUNK - 1);
      await client.query('BEGIN');
      await client.query(
        `WITH ins AS (
           INSERT INTO inbox (${inboxColumns.join(', ')})
           SELECT ${inboxExpressions.join(', ')} FROM generate_series($2::int, $3::int) g
             CROSS JOIN (SELECT * FROM inbox WHERE shop_order_no = $1) t ORDER BY g, t.seq
           RETURNING seq, event_id, received_at)
         INSERT INTO outbox (inbox_seq, event_id, status, attempts, created_at, created_at_ms, delivered_at)
         SELECT seq, event_id, 'delivered', 1, received_at, (extract(epoch FROM received_at::timestamptz) * 1000)::bigint, received_at FROM ins ORDER BY seq`,
        [shopOrderNo, from, to],
      );
      await client.query(
        `WITH o AS (
           INSERT INTO ledger_orders (${orderColumns.join(', ')})
           SELECT ${orderExpressions.join(', ')} FROM generate_series($2::int, $3::int) g
             CROSS JOIN (SELECT * FROM ledger_orders WHERE order_id = $4) t ORDER BY g
           RETURNING order_id, shop_order_no)
         INSERT INTO ledger_facts (order_id, id, kind, recorded_at, fact_json)
         SELECT o.order_id, ${renamedSql('f.id', copyOf)}, f.kind, f.recorded_at, ${renamedSql('f.fact_json', copyOf)}
         FROM o CROSS JOIN (SELECT * FROM ledger_facts WHERE order_id = $4) f`,
        [shopOrderNo, from, to, order.order_id],
      );
      await client.query('COMMIT');
    }
    await client.query('UPDATE ledger_projector SET inbox_seq = (SELECT MAX(seq) FROM inbox) WHERE id = 1');
    // A store that grew to this size in production was vacuumed and analyzed on the way.
    await client.query('VACUUM ANALYZE inbox, outbox, ledger_orders, ledger_facts, ledger_projector');
    return { orders, seconds: (Date.now() - started) / 1000, inboxRowsPerOrder: 1, factsPerOrder: facts, status: order.status === null ? null : String(order.status) };
  } finally {
    await client.end();
  }
}
