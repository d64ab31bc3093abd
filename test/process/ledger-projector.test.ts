import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LEDGER_SETTINGS } from '../../src/config/ledger-settings';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import { approvalNotification, changeNotification, nextPgCno, type JsonNotification } from '../../src/simulator/notification-builders';
import { openStores } from '../../src/ledger/projector/open-stores';
import { eventually } from '../helpers/eventually';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { describePostgres } from '../store/pg-test-database';
import { postgresReplicas } from './postgres-replicas';

/** 40 orders, each an approval of 10000 and two partial cancels, sent interleaved. */
function burst(): JsonNotification[] {
  const orders = Array.from({ length: 40 }, (_, i) => {
    const pgCno = nextPgCno();
    const shopOrderNo = `ORD-KILL-${process.pid}-${i}`;
    return [
      approvalNotification({ pgCno, shopOrderNo, amount: '10000' }),
      changeNotification({ pgCno, shopOrderNo, cancelAmount: '1000', amount: '1000', cancelRemainAmount: '9000' }),
      changeNotification({ pgCno, shopOrderNo, cancelAmount: '2000', amount: '2000', cancelRemainAmount: '7000' }),
    ];
  });
  return [0, 1, 2].flatMap((k) => orders.map((order) => order[k]!));
}

async function post(url: string, body: JsonNotification): Promise<boolean> {
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '61.33.205.151' }, body: JSON.stringify(body) });
    return res.status === 200 && ((await res.json()) as { resCd?: string }).resCd === '0000';
  } catch {
    return false;
  }
}

async function readyz(r: SpawnedReceiver): Promise<{ ledger: { behind: number; lagSeconds: number; projector: { here: boolean } } }> {
  return (await fetch(`http://127.0.0.1:${r.adminPort}/readyz`)).json() as never;
}

/**
 * Sends the burst with 16 senders and SIGKILLs the receiver once `killAfter` acks are in; then
 * the rest to a second receiver. Answers the acked notifications.
 */
async function killMidBurst(start: () => Promise<SpawnedReceiver>, killAfter: number): Promise<SpawnedReceiver> {
  const notifications = burst();
  const first = await start();
  let acked = 0;
  let next = 0;
  const worker = async () => {
    while (next < notifications.length) {
      const i = next++;
      if (await post(first.url, notifications[i]!)) acked += 1;
      if (acked >= killAfter && first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
  // The gateway resends what was not acked: every notification again, to the restarted receiver.
  const second = await start();
  for (const body of notifications) expect(await post(second.url, body)).toBe(true);
  return second;
}

/** After the projector caught up: every stored notification is in its order's record once, and a rebuild changes nothing. */
async function expectExact(databaseUrl: string, receiver: SpawnedReceiver): Promise<void> {
  await eventually(async () => (await readyz(receiver)).ledger.behind === 0, 30_000, 'the projector to catch up');
  const stores = await openStores(databaseUrl, { ledger: DEFAULT_LEDGER_SETTINGS, projector: false });
  try {
    const page = await stores.ledger.listOrders({ limit: 500 });
    const records = page.orders.filter((o) => o.shopOrderNo.startsWith('ORD-KILL-'));
    expect(records).toHaveLength(40);
    for (const record of records as OrderRecord[]) {
      expect(record).toMatchObject({ status: 'partially_cancelled', approved: 10000, cancelled: 3000, remaining: 7000 });
      expect(record.events).toHaveLength(3);
      expect(new Set(record.events).size).toBe(3);
    }
    let after: number | null = null;
    let changed = 0;
    do {
      const rebuilt = await stores.ledger.rebuildPage(after, 100, new Date().toISOString());
      changed += rebuilt.changed;
      after = rebuilt.next;
    } while (after !== null);
    expect(changed).toBe(0);
  } finally {
    await stores.store.close();
  }
}

describe("the ledger's projector through a kill -9 (built service)", () => {
  let dir: string;
  const running: SpawnedReceiver[] = [];
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'projector-kill-'))));
  afterEach(async () => {
    for (const r of running.splice(0)) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('on SQLite: the records equal a rebuild, each notification applied once, after a kill -9 mid-burst', async () => {
    const start = async () => {
      const r = await spawnReceiver(dir);
      running.push(r);
      return r;
    };
    const second = await killMidBurst(start, 40);
    await expectExact(`sqlite:${join(dir, 'data', 'receiver.db')}`, second);
  });
});

describePostgres("the ledger's projector on PostgreSQL replicas (built service)", () => {
  const replicas = postgresReplicas('projector-pg');
  const start = () => replicas.spawn();

  it('the records equal a rebuild, each notification applied once, after a kill -9 mid-burst', async () => {
    const second = await killMidBurst(start, 40);
    await expectExact(replicas.schema.url, second);
  });

  it('two replicas race for the projector: one runs it; when it is killed the other takes over', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const holder = await eventually(async () => {
      const [ra, rb] = await Promise.all([readyz(a), readyz(b)]);
      if (ra.ledger.projector.here && rb.ledger.projector.here) throw new Error('both replicas run the projector');
      return ra.ledger.projector.here ? a : rb.ledger.projector.here ? b : undefined;
    }, 15_000, 'one replica to take the projector');
    const standby = holder === a ? b : a;
    // Notifications reach both; the holder projects them all.
    const notifications = burst();
    await Promise.all(notifications.map((body, i) => post((i % 2 === 0 ? a : b).url, body)));
    expect((await readyz(standby)).ledger.projector.here).toBe(false);
    holder.child.kill('SIGKILL');
    await holder.exited;
    await eventually(async () => (await readyz(standby)).ledger.projector.here, 20_000, 'the standby to take the projector over');
    // The gateway resends to the survivor what the dead replica may not have acked; all must be there once.
    for (const body of notifications) expect(await post(standby.url, body)).toBe(true);
    await expectExact(replicas.schema.url, standby);
  });
});
