import { join } from 'node:path';
import { approvalNotification, changeNotification, escrowNotification, nextPgCno, type JsonNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { readEventsFile, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { admin, describePostgres, type TestSchema } from '../store/pg-test-database';
import { postAsGateway, postgresReplicas } from './postgres-replicas';

const post = postAsGateway;

/** 12 payments, each with an approval, two partial cancels and two escrow statuses: 60 distinct keys. */
function distinctNotifications(): JsonNotification[] {
  return Array.from({ length: 12 }, () => {
    const pgCno = nextPgCno();
    return [
      approvalNotification({ pgCno }),
      changeNotification({ pgCno, cancelAmount: '1000' }),
      changeNotification({ pgCno, cancelAmount: '2000' }),
      escrowNotification({ pgCno, statusCode: 'ES01' }),
      escrowNotification({ pgCno, statusCode: 'ES02' }),
    ];
  }).flat();
}

async function count(schema: TestSchema, from: string): Promise<number> {
  const [row] = await admin(schema.url, `SELECT count(*)::int AS n FROM ${from}`);
  return Number(row?.n);
}

async function metricValue(r: SpawnedReceiver, pattern: RegExp): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${r.adminPort}/metrics`)).text();
  return text.split('\n').filter((l) => pattern.test(l)).reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

/** Once the ledger's projector (on whichever replica runs it) has applied everything stored. */
async function ledgerCaughtUp(r: SpawnedReceiver): Promise<void> {
  await eventually(async () => {
    const body = (await (await fetch(`http://127.0.0.1:${r.adminPort}/readyz`)).json()) as { ledger?: { behind: number } };
    return body.ledger?.behind === 0;
  }, 20_000, "the ledger's projector to catch up");
}

describePostgres('two replicas on one PostgreSQL', () => {
  const replicas = postgresReplicas('replicas');

  it('duplicate-heavy traffic on both yields one event per key; after one is killed the other relays everything', async () => {
    const { schema } = replicas;
    const queue = join(replicas.dir, 'events.ndjson');
    const env = { QUEUE_URL: `file:${queue}` };
    const a = await replicas.spawn(env);
    const b = await replicas.spawn(env);

    const notifications = distinctNotifications();
    // Every notification four times, alternating replicas, 24 requests in flight.
    const jobs = notifications.flatMap((n, i) => [0, 1, 2, 3].map((copy) => ({ n, url: (i + copy) % 2 ? a.url : b.url })));
    jobs.sort(() => Math.random() - 0.5);
    const answers: Array<{ status: number; resCd?: string }> = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 24 }, async () => {
        while (next < jobs.length) {
          const job = jobs[next++]!;
          answers.push(await post(job.url, job.n));
        }
      }),
    );
    expect(answers.filter((x) => x.status !== 200 || x.resCd !== '0000')).toEqual([]);
    // The ledger's events are queued by its projector, behind the acks.
    await ledgerCaughtUp(a);
    // Each notification once, and beside it the payment ledger's status change of its order, once.
    const notificationRows = "inbox WHERE origin = 'gateway'";
    expect([await count(schema, notificationRows), await count(schema, `outbox WHERE inbox_seq IN (SELECT seq FROM ${notificationRows})`)])
      .toEqual([notifications.length, notifications.length]);
    expect(await count(schema, "inbox WHERE event_type = 'order.status_changed'")).toBe(new Set(notifications.map((n) => n.shopOrderNo)).size);
    expect(await count(schema, 'outbox')).toBe(await count(schema, 'inbox'));
    const accepted = (await metricValue(a, /^noti_receiver_notifications_total\{.*outcome="accepted"/)) +
      (await metricValue(b, /^noti_receiver_notifications_total\{.*outcome="accepted"/));
    const duplicates = (await metricValue(a, /^noti_receiver_notifications_total\{.*outcome="duplicate"/)) +
      (await metricValue(b, /^noti_receiver_notifications_total\{.*outcome="duplicate"/));
    expect([accepted, duplicates]).toEqual([notifications.length, notifications.length * 3]);

    // Kill one replica (it may hold the relay lock); the survivor must take over and finish.
    a.child.kill('SIGKILL');
    await a.exited;
    const late = approvalNotification();
    expect(await post(b.url, late)).toEqual({ status: 200, resCd: '0000' });
    await ledgerCaughtUp(b);

    // Every stored event: the notifications, the late one, and the ledger's status change of each order.
    const expected = await count(schema, 'inbox');
    const deadline = Date.now() + 20_000;
    let events = readEventsFile(queue, { whileWriting: true });
    while (new Set(events.map((e) => e.id)).size < expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      events = readEventsFile(queue, { whileWriting: true });
    }
    // The queue holds an event a moment before its row is marked delivered (publish, then mark);
    // once every row is, nothing more is written and the whole file is read, torn lines failing.
    await eventually(async () => (await count(schema, "outbox WHERE status <> 'delivered'")) === 0, 10_000, 'every outbox row to be marked delivered');
    events = readEventsFile(queue);
    const ids = new Set(events.map((e) => e.id));
    expect(ids.size).toBe(expected);
    // At least once: only an event in flight at the kill may appear twice.
    expect(events.length - ids.size).toBeLessThanOrEqual(1);
    // Forwarded in arrival (outbox) order across both replicas and the take-over.
    const arrival = (await admin(schema.url, 'SELECT event_id FROM outbox ORDER BY seq')).map((r) => r.event_id);
    const firstSeen = events.map((e) => e.id).filter((id, i, all) => all.indexOf(id) === i);
    expect(firstSeen).toEqual(arrival);
  });
});
