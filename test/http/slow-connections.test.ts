import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { LISTENER_TIMEOUTS } from '../../src/http/listener-timeouts';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { DEV_GATEWAY_IP, startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

/**
 * A client that is slow or silent must not hold a socket past its time-out. Node checks the
 * header and request time-outs on a timer of its own (every 30 s unless told otherwise), so a
 * 20 s time-out used to cut a connection after up to 50 s. These run the real listener with
 * shortened time-outs and speak raw HTTP/1.1; the test's own time-out is the generous bound.
 */
describe('slow and idle connections are cut at their time-outs', () => {
  let receiver: TestReceiver;
  let server: Server;
  const timeouts = { headersMs: 300, requestMs: 600, keepAliveMs: 300 };

  beforeEach(async () => {
    receiver = await startTestReceiver({}, { relay: false });
    server = receiver.app.listen(0, '127.0.0.1', timeouts);
    await once(server, 'listening');
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await receiver.close();
  });

  /** A connected raw socket and everything it receives until it is closed. */
  async function open(): Promise<{ socket: Socket; closed: Promise<string> }> {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1'))));
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    return { socket, closed };
  }

  it('headers sent one line at a time, never finished, get 408 and the socket is closed', async () => {
    const { socket, closed } = await open();
    socket.write('POST /notifications HTTP/1.1\r\nHost: x\r\n');
    // Each line well inside any per-byte idle timer: only the header time-out can stop this.
    let n = 0;
    const trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${(n += 1)}: y\r\n`), 50);
    try {
      const answer = await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"resCd":"5001"');
    } finally {
      clearInterval(trickle);
    }
  }, 8_000);

  it('a client that ignores the 408 and keeps sending header lines is cut off, not held until the header size limit', async () => {
    // allowHalfOpen: the server's FIN does not close this side, as a slowloris would not.
    const socket = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // EPIPE or ECONNRESET when the server cuts it: the close is what is awaited.
    socket.on('error', () => undefined);
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await once(socket, 'connect');
    socket.write('POST /notifications HTTP/1.1\r\nHost: x\r\n');
    let n = 0;
    const trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${(n += 1)}: y\r\n`), 50);
    try {
      await closed;
      expect(Buffer.concat(chunks).toString('latin1')).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  }, 8_000);

  it('a body sent byte by byte, never finished, is cut at the request time-out', async () => {
    const { socket, closed } = await open();
    socket.write(
      `POST /notifications HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${DEV_GATEWAY_IP}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    const trickle = setInterval(() => socket.writable && socket.write(' '), 50);
    try {
      await closed;
    } finally {
      clearInterval(trickle);
    }
  }, 8_000);

  it('a connection that never sends a byte is closed', async () => {
    const { closed } = await open();
    await closed;
  }, 8_000);

  it('an idle keep-alive connection is closed after its request was answered', async () => {
    const { socket, closed } = await open();
    const body = JSON.stringify(approvalNotification());
    socket.write(
      `POST /notifications HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${DEV_GATEWAY_IP}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"resCd":"0000"');
  }, 8_000);
});

describe("the notification listener's time-outs", () => {
  it('are 20 s for the headers and 30 s for the whole request, checked at least every second', async () => {
    const receiver = await startTestReceiver({}, { relay: false });
    const server = receiver.app.listen(0, '127.0.0.1');
    try {
      await once(server, 'listening');
      expect(LISTENER_TIMEOUTS).toMatchObject({ headersMs: 20_000, requestMs: 30_000 });
      expect(server.headersTimeout).toBe(20_000);
      expect(server.requestTimeout).toBe(30_000);
      expect(server.keepAliveTimeout).toBe(LISTENER_TIMEOUTS.keepAliveMs);
      // Node's own field (not in its typings): how often it looks for connections past their time-out.
      expect((server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBeLessThanOrEqual(1_000);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await receiver.close();
    }
  });
});
