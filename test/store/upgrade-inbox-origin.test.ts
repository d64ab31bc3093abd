import { commandEvent } from '../../src/commands/command-event';
import { inboxRow } from '../../src/store/procedures/inbox-outbox/inbox-row';
import { openStore } from '../../src/store/open-store';
import { writes } from '../../src/store/procedures';
import { inboxEntry } from '../helpers/stored-events';
import { olderReleaseFixture, ownEntryBefore027, postgresAtVersion, sqliteAtVersion, type OlderReleaseDatabase } from './older-release-database';
import { describePostgres } from './pg-test-database';

/** The last migration before 027 (inbox.origin). */
const BEFORE_ORIGIN = 26;
const RECEIVED = '2026-11-21T03:10:00.000Z';

const notification = inboxEntry({ pgCno: 'PG-ORIGIN', shopOrderNo: 'ORD-ORIGIN', receivedAt: RECEIVED });
const ledgerJson = JSON.stringify({ id: 'evt_ledger_1', type: 'order.status_changed', at: RECEIVED, order: { mallId: 'T0001234', shopOrderNo: 'ORD-ORIGIN' } });
const ledgerEvent = { id: 'evt_ledger_1', type: 'order.status_changed', mallId: 'T0001234', pgCno: 'PG-ORIGIN', json: ledgerJson, bodyHash: 'h' };
const commandFinal = commandEvent('wallet.cancel.succeeded', {
  command: 'wallet-b.cancel', shopTransactionId: 'ORIGIN-CMD-1', mallId: 'T0001234', state: 'succeeded', attempts: 1,
  request: { pgCno: 'PG-ORIGIN' }, response: { resCd: '0000' }, lastError: null, createdAt: RECEIVED, updatedAt: RECEIVED,
});

function upgradeContract(openOld: () => Promise<OlderReleaseDatabase & { url: string }>): void {
  const fixture = olderReleaseFixture(openOld);

  it("names each stored row's origin: the gateway's notifications, the ledger's events and a command's final state, each by what it is", async () => {
    const { old } = fixture;
    await old.write(writes.recordNotification(inboxRow(notification)));
    await old.write(ownEntryBefore027('ledger', ledgerEvent, RECEIVED));
    await old.write(ownEntryBefore027('command', commandFinal, RECEIVED));
    const store = fixture.opened(await openStore(old.url));

    const rows = await old.rows('SELECT event_id, origin, source_ip FROM inbox ORDER BY seq');
    expect(rows).toEqual([
      { event_id: notification.event.id, origin: 'gateway', source_ip: notification.event.source.ip },
      { event_id: 'evt_ledger_1', origin: 'ledger', source_ip: 'ledger' },
      { event_id: commandFinal.id, origin: 'command', source_ip: 'command' },
    ]);
    // The readers of the gateway's notifications read the upgraded rows by their origin.
    await expect(store.eventActivity('2026-11-21T00:00:00.000Z')).resolves.toEqual([{ hour: '2026-11-21T03', type: 'payment.approved', count: 1 }]);
    // Queued as they were, in their order.
    expect((await store.nextPending(10)).map((row) => row.eventId)).toEqual([notification.event.id, 'evt_ledger_1', commandFinal.id]);
  });
}

describe('inbox.origin on an upgraded SQLite database', () => {
  upgradeContract(async () => {
    const old = sqliteAtVersion(BEFORE_ORIGIN);
    return { ...old, url: `sqlite:${old.file}` };
  });
});

describePostgres('inbox.origin on an upgraded PostgreSQL database', () => {
  upgradeContract(() => postgresAtVersion(BEFORE_ORIGIN));
});
