import { connect, createServer } from 'node:net';

/**
 * A TCP proxy that holds every chunk for `delayMs` each way: the database on another host, a
 * round trip of 2 × delayMs away, for the store bench (STORE_LINK_MS). Run as its own process so
 * its timers do not share the measured event loop. TCP_NODELAY on both sides, as pgbouncer and
 * cloud database proxies set it: a proxy that waits for acknowledgements before sending the next
 * small packet (Nagle) would hold pipelined answers back by the peer's delayed-ACK timer instead.
 *
 * Listens on a port the system picks and sends it to its parent (fork's IPC channel):
 *
 *   fork('dist-bench/bench/link-delay-proxy.js', [<target host>, <target port>, <delay ms>])
 */
const [targetHost, targetPort, delayMs] = process.argv.slice(2);
const delay = Number(delayMs);

const server = createServer((client) => {
  const upstream = connect(Number(targetPort), targetHost);
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  // Timers of equal delay fire in the order they were set: bytes keep their order.
  client.on('data', (chunk) => setTimeout(() => upstream.write(chunk), delay));
  upstream.on('data', (chunk) => setTimeout(() => client.write(chunk), delay));
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close).on('close', close);
  upstream.on('error', close).on('close', close);
});
server.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
