import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { planNotifications } from '../src/simulator/scenario';

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

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const copyName = (shopOrderNo: string, copy: number) => `${shopOrderNo}-S${copy}`;

/** SQLite: one transaction, prepared statements; the receiver must be stopped. */
export function cloneSqlite(file: string, orders: number): SeedResult {
  const started = Date.now();
  const db = new Database(file);
  try {
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -1000000');
    const order = db.prepare(TEMPLATE_QUERY.order.replace('$1', '?')).get() as Record<string, unknown> | undefined;
    if (!order) throw new Error('no template order to clone');
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
    db.transaction(() => {
      for (let copy = 1; copy <= orders; copy += 1) {
        const name = copyName(template.shopOrderNo, copy);
        const renamed = <T>(value: T) => (typeof value === 'string' ? value.split(template.shopOrderNo).join(name) : value);
        for (const row of template.inbox) {
          const eventId = sha256(`${String(row.event_id)}${copy}`);
          const values = pick(row, inboxColumns);
          for (const key of Object.keys(values)) if (key.endsWith('_json') || key === 'shop_order_no') values[key] = renamed(values[key]!);
          values.event_id = eventId;
          values.dedup_key = `${String(row.dedup_key)}:${copy}`;
          values.event_json = String(values.event_json).split(String(row.event_id)).join(eventId);
          const seq = insertInbox.run(values).lastInsertRowid;
          insertOutbox.run(seq, eventId, row.received_at, Date.parse(String(row.received_at)), row.received_at);
        }
        const values = pick(template.order, orderColumns);
        for (const key of Object.keys(values)) if (key.endsWith('_json') || key === 'shop_order_no') values[key] = renamed(values[key]!);
        const orderId = insertOrder.run(values).lastInsertRowid;
        for (const fact of template.facts) insertFact.run({ ...(fact as Values), order_id: orderId, fact_json: renamed(fact.fact_json as string) });
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
    const order = (await client.query<Record<string, unknown>>(TEMPLATE_QUERY.order)).rows[0];
    if (!order) throw new Error('no template order to clone');
    const shopOrderNo = String(order.shop_order_no);
    const inboxRows = (await client.query(TEMPLATE_QUERY.inbox, [shopOrderNo])).rowCount ?? 0;
    const facts = (await client.query(TEMPLATE_QUERY.facts, [order.order_id])).rowCount ?? 0;
    const columns = async (table: string, skip: string) =>
      (await client.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`, [table],
      )).rows.map((r) => r.column_name).filter((name) => name !== skip);
    const renamedSql = (expression: string) => `replace(${expression}, $1, $1 || '-S' || g)`;
    const inboxColumns = await columns('inbox', 'seq');
    const newEventId = `encode(sha256(convert_to(t.event_id || g::text, 'UTF8')), 'hex')`;
    const inboxExpressions = inboxColumns.map((name) => {
      if (name === 'event_id') return newEventId;
      if (name === 'dedup_key') return `t.dedup_key || ':' || g`;
      if (name === 'event_json') return `replace(${renamedSql('t.event_json')}, t.event_id, ${newEventId})`;
      if (name === 'shop_order_no' || name.endsWith('_json')) return renamedSql(`t.${name}`);
      return `t.${name}`;
    });
    const orderColumns = await columns('ledger_orders', 'order_id');
    const orderExpressions = orderColumns.map((name) => (name === 'shop_order_no' || name.endsWith('_json') ? renamedSql(`t.${name}`) : `t.${name}`));
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
         SELECT o.order_id, f.id, f.kind, f.recorded_at, replace(f.fact_json, $1, o.shop_order_no)
         FROM o CROSS JOIN (SELECT * FROM ledger_facts WHERE order_id = $4) f`,
        [shopOrderNo, from, to, order.order_id],
      );
      await client.query('COMMIT');
    }
    await client.query('UPDATE ledger_projector SET inbox_seq = (SELECT MAX(seq) FROM inbox) WHERE id = 1');
    // A store that grew to this size in production was vacuumed and analyzed on the way.
    await client.query('VACUUM ANALYZE inbox, outbox, ledger_orders, ledger_facts, ledger_projector');
    return { orders, seconds: (Date.now() - started) / 1000, inboxRowsPerOrder: inboxRows, factsPerOrder: facts, status: order.status === null ? null : String(order.status) };
  } finally {
    await client.end();
  }
}
