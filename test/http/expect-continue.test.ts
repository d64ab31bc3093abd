import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { MAX_BODY_BYTES } from '../../src/http/read-body';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { DEV_GATEWAY_IP, startListeningReceiver, type ListeningReceiver, type TestReceiver } from '../helpers/test-receiver';

/**
 * `Expect: 100-continue` asks the server whether to send the body. The answer must come after
 * the checks that need no body: a stranger is refused (403) and an oversized declared body
 * (413) before it is invited, so neither ever sends its bytes. Raw HTTP/1.1 on the real listener.
 */
describe('Expect: 100-continue', () => {
  let listening: ListeningReceiver;
  let receiver: TestReceiver;

  beforeEach(async () => {
    listening = await startListeningReceiver();
    receiver = listening.receiver;
  });
  afterEach(() => listening.close());

  /** Sends only the headers, as a client waiting for `100 Continue` does; collects what comes back. */
  async function headersOnly(forwardedFor: string, contentLength: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
    const socket = connect(listening.port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = once(socket, 'close').then(() => undefined);
    await once(socket, 'connect');
    socket.write(
      `POST /notifications HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${forwardedFor}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${contentLength}\r\nExpect: 100-continue\r\n\r\n`,
    );
    return { socket, received: () => text, closed };
  }

  async function until(received: () => string, pattern: RegExp): Promise<string> {
    while (!pattern.test(received())) await new Promise((resolve) => setTimeout(resolve, 10));
    return received();
  }

  it('a stranger gets 403 without 100 Continue first, and the connection is closed', async () => {
    const { received, closed } = await headersOnly('198.51.100.7', 500);
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 403 /);
    expect(received()).not.toContain('100 Continue');
    expect(received()).toContain('"resCd":"5001"');
  });

  it('a declared body over the limit gets 413 without 100 Continue first, and the connection is closed', async () => {
    const { received, closed } = await headersOnly(DEV_GATEWAY_IP, MAX_BODY_BYTES + 1);
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(received()).not.toContain('100 Continue');
  });

  it('the gateway with a body within the limit is invited, sends it, and gets 0000', async () => {
    const body = JSON.stringify(approvalNotification());
    const { socket, received } = await headersOnly(DEV_GATEWAY_IP, Buffer.byteLength(body));
    expect(await until(received, /\r\n\r\n/)).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    socket.write(body);
    const answer = await until(received, /"resCd":"0000"/);
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(await receiver.count('inbox')).toBe(1);
    socket.destroy();
  });
});
