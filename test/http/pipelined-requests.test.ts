import { once } from 'node:events';
import { connect } from 'node:net';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { eventually } from '../helpers/eventually';
import { DEV_GATEWAY_IP, startListeningReceiver, type ListeningReceiver, type TestReceiver } from '../helpers/test-receiver';

/**
 * HTTP/1.1 lets a client send its next request before the first is answered. When the next
 * one is malformed, node's parser fails while the first is still being stored: the first must
 * still get its own answer (it was stored, so 0000) before the 400 that closes the connection,
 * or the gateway retries a notification we hold. Raw HTTP/1.1 on the real listener.
 */
describe('a malformed request pipelined behind a valid one', () => {
  let listening: ListeningReceiver;
  let receiver: TestReceiver;

  beforeEach(async () => {
    listening = await startListeningReceiver();
    receiver = listening.receiver;
  });
  afterEach(() => listening.close());

  function post(body: string): string {
    return (
      `POST /notifications HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${DEV_GATEWAY_IP}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    );
  }

  /** Writes each part as its own packet, in order; answers everything received until the server closes. */
  async function exchange(...parts: string[]): Promise<string> {
    const socket = connect(listening.port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = once(socket, 'close');
    await once(socket, 'connect');
    for (const part of parts) socket.write(part);
    await closed;
    return text;
  }

  /** Status lines in the order they came. */
  const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

  it('in the same packet: the first is stored and answered 0000, then the second gets 400', async () => {
    const answer = await exchange(post(JSON.stringify(approvalNotification())) + 'BLAH / HTTP/9.9\r\n\r\n');
    expect(statuses(answer)).toEqual([200, 400]);
    expect(answer.indexOf('"resCd":"0000"')).toBeLessThan(answer.indexOf('malformed HTTP request'));
    expect(await receiver.count('inbox')).toBe(1);
  });

  it('two valid requests then a malformed one: both answered 0000 in order, then 400', async () => {
    const answer = await exchange(post(JSON.stringify(approvalNotification())) + post(JSON.stringify(approvalNotification())) + '\x00\x01garbage\r\n\r\n');
    expect(statuses(answer)).toEqual([200, 200, 400]);
    expect(answer.match(/"resCd":"0000"/g)).toHaveLength(2);
    expect(await receiver.count('inbox')).toBe(2);
  });

  it('a malformed chunk inside the only request is answered 400 at once and kept as incomplete', async () => {
    const head = `POST /notifications HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${DEV_GATEWAY_IP}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const answer = await exchange(`${head}5\r\n{"res\r\nZZZ\r\n`);
    expect(statuses(answer)).toEqual([400]);
    const [rejection] = await eventually(async () => {
      const rows = await receiver.store.listRejections(1);
      return rows.length > 0 ? rows : undefined;
    }, 5_000, 'the incomplete request to be kept');
    expect(rejection?.reason).toBe('incomplete request body');
  });
});
