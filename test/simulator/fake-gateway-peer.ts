import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer = { status: number; body: string; contentType?: string };

/**
 * A stand-in receiver whose answers a test scripts: `answer(try, isForm)` is called with how
 * many times this exact body has been received so far (1 for the first), so a test can make
 * it fail the first tries of every notification and see the simulator retry.
 */
export async function scriptedReceiver(answer: (tryNumber: number, isForm: boolean) => Answer) {
  const tries = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const key = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
      const tryNumber = (tries.get(key) ?? 0) + 1;
      tries.set(key, tryNumber);
      const reply = answer(tryNumber, /x-www-form-urlencoded/.test(req.headers['content-type'] ?? ''));
      res.writeHead(reply.status, { 'Content-Type': reply.contentType ?? 'text/plain' }).end(reply.body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notifications`,
    /** How many times each distinct body arrived. */
    triesPerBody: () => [...tries.values()],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const ACK = {
  json: { status: 200, body: '{"resCd":"0000","resMsg":"SUCCESS"}', contentType: 'application/json' },
  form: { status: 200, body: 'res_cd=0000\x1fres_msg=SUCCESS' },
  jsonFail: (status: number) => ({ status, body: '{"resCd":"5001","resMsg":"FAIL"}', contentType: 'application/json' }),
  formFail: (status: number) => ({ status, body: 'res_cd=5001\x1fres_msg=FAIL' }),
};
