import http from 'node:http';

/**
 * An OTLP/HTTP endpoint that reads and drops what it is sent: the traced receiver pays for
 * making, batching, encoding and sending its spans, as it would to a real collector.
 */
export async function startTraceSink(port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
