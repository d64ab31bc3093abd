import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createAdminApp } from '../../src/admin/admin-app';
import { createMetrics } from '../../src/observability/metrics';
import { openHttpPublisher } from '../../src/publishers/http-publisher';
import { eventually } from '../helpers/eventually';
import { entryFor, sampleEvent } from '../helpers/stored-events';
import { RelayHarness } from './relay-harness';

/** An endpoint that refuses each event with an error page quoting the event back, as many frameworks do. */
async function echoingEndpoint(status: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => res.writeHead(status, { 'Content-Type': 'text/plain' }).end(`invalid event: ${Buffer.concat(chunks).toString('utf8')}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe("an HTTP endpoint's error answer", () => {
  it.each([
    [400, 'dead'],
    [500, 'pending'],
  ])('a %i answer that echoes the event leaves only status and size in last_error, /readyz and the relay state', async (status, rowStatus) => {
    const endpoint = await echoingEndpoint(status);
    const harness = new RelayHarness(openHttpPublisher({ url: endpoint.url }));
    try {
      const event = sampleEvent();
      Object.assign(event.data, { customerName: '홍길동', cardNo: '5361481234561234', accountNo: '94770201234567' });
      await harness.store.record(entryFor(event));
      const row = await eventually(async () => {
        const detail = await harness.store.getEvent(event.id);
        return detail?.status === rowStatus && detail.lastError ? detail : undefined;
      }, 10_000, `the event to be ${rowStatus} with an error`);

      expect(row.lastError).toMatch(new RegExp(`answered ${status} with a \\d+-byte body$`));
      const admin = createAdminApp({ store: harness.store, publisher: harness.publisher, relay: harness.relay, metrics: createMetrics(), isShuttingDown: () => false });
      const ready = await request(admin).get('/readyz');
      const exposed = JSON.stringify([row.lastError, harness.relay.state(), harness.publisher.status(), ready.body]);
      expect(exposed).toMatch(/answered/);
      expect(exposed).not.toMatch(/홍길동|5361481234561234|94770201234567|invalid event/);
    } finally {
      await harness.close();
      await endpoint.close();
    }
  });
});
