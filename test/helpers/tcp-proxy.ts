import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a database or broker that a test can cut, restore or freeze, to
 * stand in for an outage without touching the machine's real services.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private frozen = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  /** A started proxy in front of the host and port of `url`. */
  static async forUrl(url: string): Promise<TcpProxy> {
    const parsed = new URL(url);
    const proxy = new TcpProxy({ host: parsed.hostname, port: Number(parsed.port) });
    await proxy.start();
    return proxy;
  }

  /** `url` with its host and port swapped for the proxy's. */
  urlFor(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  /** Listen (again, on the same port after a cut): the service is back. */
  async start(): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Like the database host going away: open connections reset, new ones refused. */
  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** Like a network that swallows packets: connections stay open but nothing gets through. */
  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
  }

  private accept(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    this.sockets.add(client).add(upstream);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (!this.frozen) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  }
}
