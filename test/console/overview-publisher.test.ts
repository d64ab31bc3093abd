import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { overviewPage } from '../../src/console/pages/overview-page';
import { openPublisher } from '../../src/publishers/open-publisher';
import type { EventCounts, ProblemCounts } from '../../src/store/store';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { HOST, startConsoleHarness, type ConsoleHarness } from './console-harness';

/** A port nobody listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the overview says why the backlog grows', () => {
  test('with the queue down it shows the publisher disconnected and its last error, as /readyz does', async () => {
    const publisher = await openPublisher({ url: `http://127.0.0.1:${await closedPort()}/events`, queueName: 'payment-notifications' });
    const h: ConsoleHarness = await startConsoleHarness({}, { publisher });
    try {
      await h.receiver.postJson(approvalNotification({ shopOrderNo: 'ORDER-QUEUE-DOWN' })).expect(200);
      await eventually(async () => (await request(h.admin).get('/readyz')).body.publisher.lastError !== null, 10_000, 'a failed publish');
      const { agent } = await h.signIn();
      const page = (await agent.get('/console').set('Host', HOST).expect(200)).text;
      expect(page).toContain('Publisher');
      expect(page).toMatch(/http publisher: <strong[^>]*>disconnected<\/strong>/);
      expect(page).toContain('ECONNREFUSED');
      expect(page).toContain('no delivery yet');
    } finally {
      await h.close();
    }
  });

  test('with the queue up it says connected and when it last delivered', async () => {
    const h = await startConsoleHarness();
    try {
      await h.receiver.postJson(approvalNotification()).expect(200);
      await h.receiver.forwarded(1);
      await eventually(async () => h.receiver.relay!.state().lastDeliveredAt !== null, 10_000, 'a delivery');
      const { agent } = await h.signIn();
      const page = (await agent.get('/console').set('Host', HOST).expect(200)).text;
      expect(page).toMatch(/file publisher: <strong[^>]*>connected<\/strong>/);
      expect(page).toMatch(/last delivery \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} KST/);
    } finally {
      await h.close();
    }
  });
});

describe('the overview when the database refuses the relay', () => {
  test('names the store, not the queue, and says what waits to be marked', () => {
    const text = overviewPage({ actor: 'kim', role: 'viewer', csrfToken: 't' }, {
      counts: { pending: 3, delivered: 0, dead: 0 } as EventCounts,
      backlog: { pending: 3, dead: 0, oldestPendingAgeMs: 35_000 },
      problems: { rejections: 0, conflicts: 0 } as ProblemCounts,
      activity: { hours: [], series: [] },
      retentionDays: 90,
      lastRetention: null,
      failedCommands: null,
      delivery: {
        publisher: { ok: true, kind: 'file', connected: true, detail: '/data/events.ndjson', lastError: null, lastDeliveredAt: null },
        relay: { running: true, holdsLock: true, storeError: 'database or disk is full', confirmedUnmarked: 10 },
      },
    });
    expect(text).toMatch(/file publisher: <strong class="status-ok">connected<\/strong>/);
    expect(text).toContain('The database refuses the relay: <span class="mono">database or disk is full</span>.');
    expect(text).toContain('10 event(s) the queue confirmed wait to be recorded as delivered');
  });
});
