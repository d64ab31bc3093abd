import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openHttpPublisher } from '../../src/publishers/http-publisher';
import { isPermanent, outboundEvent } from '../../src/publishers/publisher';
import { startEndpoint } from './http-endpoint';
import { oneOfEachType, sampleEvent } from '../helpers/stored-events';
import { contractProblems, oneOfEveryKind } from '../helpers/event-contract';

describe('http publisher', () => {
  it('POSTs every event type as JSON with the event id as Idempotency-Key', async () => {
    const endpoint = await startEndpoint();
    const publisher = openHttpPublisher({ url: endpoint.url });
    try {
      const events = oneOfEachType();
      for (const event of events) await publisher.publish(outboundEvent(event));
      expect(endpoint.received).toHaveLength(events.length);
      endpoint.received.forEach((request, i) => {
        expect(request.method).toBe('POST');
        expect(request.url).toBe('/events');
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.headers['idempotency-key']).toBe(events[i]!.id);
        expect(JSON.parse(request.body)).toEqual(events[i]);
      });
      expect(contractProblems(endpoint.received.map((request) => request.body))).toEqual([]);
      expect(publisher.status()).toEqual({ connected: true, detail: endpoint.url });
    } finally {
      await publisher.close();
      await endpoint.close();
    }
  });

  it('POSTs every event type of docs/asyncapi.json as the document describes it', async () => {
    const endpoint = await startEndpoint();
    const publisher = openHttpPublisher({ url: endpoint.url });
    try {
      const events = oneOfEveryKind();
      for (const event of events) await publisher.publish(event);
      expect(endpoint.received.map((request) => request.headers['idempotency-key'])).toEqual(events.map((event) => event.id));
      expect(contractProblems(endpoint.received.map((request) => request.body))).toEqual([]);
    } finally {
      await publisher.close();
      await endpoint.close();
    }
  });

  it.each([
    [200, 'delivered'], [201, 'delivered'], [204, 'delivered'],
    [400, 'permanent'], [401, 'permanent'], [404, 'permanent'], [409, 'permanent'], [422, 'permanent'],
    [408, 'transient'], [429, 'transient'], [500, 'transient'], [502, 'transient'], [503, 'transient'],
    [302, 'transient'],
  ])('classes an HTTP %i answer as %s', async (status, outcome) => {
    const endpoint = await startEndpoint(() => status);
    const publisher = openHttpPublisher({ url: endpoint.url });
    try {
      const failure = await publisher.publish(outboundEvent(sampleEvent())).then(() => null, (error: unknown) => error);
      if (outcome === 'delivered') expect(failure).toBeNull();
      else {
        expect((failure as Error).message).toContain(`answered ${status}`);
        expect(isPermanent(failure)).toBe(outcome === 'permanent');
      }
    } finally {
      await publisher.close();
      await endpoint.close();
    }
  });

  it('treats an unreachable endpoint as transient and reports it', async () => {
    const endpoint = await startEndpoint();
    await endpoint.close();
    const publisher = openHttpPublisher({ url: endpoint.url });
    const failure = await publisher.publish(outboundEvent(sampleEvent())).then(() => null, (error: unknown) => error);
    expect((failure as Error).message).toMatch(/ECONNREFUSED/);
    expect(isPermanent(failure)).toBe(false);
    expect(publisher.status().connected).toBe(false);
  });

  it('gives up on a silent endpoint after the timeout, as transient', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const publisher = openHttpPublisher({ url: `http://127.0.0.1:${port}/events`, timeoutMs: 200 });
    try {
      const failure = await publisher.publish(outboundEvent(sampleEvent())).then(() => null, (error: unknown) => error);
      expect((failure as Error).message).toMatch(/timed out/);
      expect(isPermanent(failure)).toBe(false);
    } finally {
      await publisher.close();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('sends URL credentials as Basic auth and never shows them in its status', async () => {
    const endpoint = await startEndpoint();
    const url = endpoint.url.replace('http://', 'http://merchant:s3cret@');
    const publisher = openHttpPublisher({ url });
    try {
      await publisher.publish(outboundEvent(sampleEvent()));
      expect(endpoint.received[0]!.headers.authorization).toBe(`Basic ${Buffer.from('merchant:s3cret').toString('base64')}`);
      expect(publisher.status().detail).not.toContain('s3cret');
    } finally {
      await publisher.close();
      await endpoint.close();
    }
  });
});
