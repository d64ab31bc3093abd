import net from 'node:net';

/**
 * A TCP forwarder the test controls, standing in for the broker: `down()` closes the listener
 * and destroys every piped socket (what a broker crash looks like to the client), `up()`
 * listens again on the same port. The machine's real broker is never touched.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly targetHost: string, private readonly targetPort: number) {}

  static async start(target: string): Promise<TcpProxy> {
    const url = new URL(target);
    const proxy = new TcpProxy(url.hostname, Number(url.port));
    await proxy.up();
    return proxy;
  }

  /** The broker URL with the host and port swapped for the proxy's. */
  urlFor(target: string): string {
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  async up(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
