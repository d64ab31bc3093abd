import http from 'node:http';
import https from 'node:https';

export interface PostResult {
  status: number;
  body: Buffer;
}

export interface Poster {
  post(body: Buffer, headers: Record<string, string>): Promise<PostResult>;
  close(): void;
}

/** Keep-alive POSTs to one URL, at most `maxSockets` at a time; a network error or timeout rejects. */
export function createPoster(url: string, options: { maxSockets: number; timeoutMs: number }): Poster {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: options.maxSockets });
  return {
    post(body, headers) {
      return new Promise((resolve, reject) => {
        const req = client.request(
          target,
          { method: 'POST', agent, headers: { ...headers, 'Content-Length': String(body.length) }, timeout: options.timeoutMs },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
