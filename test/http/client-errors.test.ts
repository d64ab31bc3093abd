import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientErrors } from '../../src/http/client-errors';
import { createLogger } from '../../src/observability/logger';
import { eventually } from '../helpers/eventually';
import { DEV_GATEWAY_IP, startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

/**
 * Requests node's HTTP parser refuses before any handler runs. These test the listener
 * itself, so they open a real port and speak raw HTTP/1.1.
 */
describe("node's own refusals come in the gateway's form", () => {
  let receiver: TestReceiver;
  let server: Server;

  async function listen(make: () => Server): Promise<void> {
    server = make();
    if (!server.listening) server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  }

  function rawExchange(bytes: string): Promise<string> {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.write(bytes);
    return new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    });
  }

  function parse(response: string) {
    const [head, body] = response.split('\r\n\r\n') as [string, string];
    return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) as unknown };
  }

  beforeEach(async () => (receiver = await startTestReceiver({}, { relay: false })));
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await receiver.close();
  });

  it('a malformed request line is 400 with 5001 in JSON, logged as a warning', async () => {
    await listen(() => receiver.app.listen(0, '127.0.0.1'));
    const answer = parse(await rawExchange('BLAH /notifications HTTP/9.9\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.head).toMatch(/content-type: application\/json; charset=utf-8/i);
    expect(answer.body).toEqual({ resCd: '5001', resMsg: 'malformed HTTP request' });
    expect(receiver.logs()).toContainEqual(expect.objectContaining({ level: 'warn', status: 400 }));
  });

  it('headers over the limit are 431 with 5001 in JSON', async () => {
    await listen(() => receiver.app.listen(0, '127.0.0.1'));
    const huge = `X-Padding: ${'x'.repeat(20_000)}\r\n`;
    const answer = parse(await rawExchange(`POST /notifications HTTP/1.1\r\nHost: x\r\n${huge}\r\n`));
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ resCd: '5001', resMsg: 'request headers too large' });
  });

  it('a request not finished within the request timeout is 408 with 5001 in JSON', async () => {
    await listen(() => {
      const s = createServer({ requestTimeout: 200, connectionsCheckingInterval: 50 }, receiver.app);
      answerClientErrors(s, createLogger({ level: 'error', silent: true }));
      return s.listen(0, '127.0.0.1');
    });
    const answer = parse(await rawExchange(`POST /notifications HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${DEV_GATEWAY_IP}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"resCd"`));
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({ resCd: '5001', resMsg: 'request not received in time' });
  });

  it('a client gone mid-body is kept as an incomplete request, and its handler finishes', async () => {
    await listen(() => receiver.app.listen(0, '127.0.0.1'));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(`POST /notifications HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${DEV_GATEWAY_IP}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"resCd"`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const [rejection] = await eventually(async () => {
      const rows = await receiver.store.listRejections(1);
      return rows.length > 0 ? rows : undefined;
    }, 5_000, 'the incomplete request to be kept');
    expect(rejection?.reason).toBe('incomplete request body');
  });
});
