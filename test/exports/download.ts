import type request from 'supertest';

/** The body of a download as bytes, whatever its type. */
export const bytes = (res: request.Response) => res.body as Buffer;

/** A request whose answer is kept as the bytes sent (supertest parses only the types it knows). */
export function binary(req: request.Test): request.Test {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}
