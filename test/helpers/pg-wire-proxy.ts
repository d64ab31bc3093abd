import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A proxy in front of PostgreSQL that reads the client's side of the wire protocol: it names each
 * statement the client sends (a simple Query, or an extended-protocol statement at its Sync), and
 * it can hold the server's answers back. While they are held, what the client sends is what it
 * sent without waiting for an answer: one round trip's worth.
 */
export class PgWireProxy {
  private server: Server | null = null;
  private held: Array<() => void> | null = null;
  private armed = false;
  /** Every statement clients sent, in order: the text of a Query, or of the Parse before a Sync. */
  readonly statements: string[] = [];
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /**
   * The server's answers to what clients send from now on wait until `release`. The hold starts
   * with the client's next bytes, not at once: answers to a trip just released may still be on
   * their way from a busy server, and held they would stop the client from ever sending the next
   * trip (a CI run under load waited out its query timeout that way).
   */
  holdAnswers(): void {
    if (this.held === null) this.armed = true;
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    this.armed = false;
    for (const send of held) send();
  }

  async close(): Promise<void> {
    this.release();
    const server = this.server;
    this.server = null;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  private accept(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    const reader = new FrontendReader((statement) => this.statements.push(statement));
    client.on('data', (chunk) => {
      if (this.armed) {
        this.armed = false;
        this.held = [];
      }
      reader.push(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (this.held) this.held.push(() => client.write(chunk));
      else client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  }
}

/** Splits the client's bytes into messages (type byte, int32 length including itself). */
class FrontendReader {
  private buffer = Buffer.alloc(0);
  private started = false;
  private readonly texts = new Map<string, string>();
  private bound: string | null = null;

  constructor(private readonly onStatement: (text: string) => void) {}

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      // The startup message has no type byte: just its length.
      const header = this.started ? 5 : 4;
      if (this.buffer.length < header) return;
      const length = this.buffer.readInt32BE(this.started ? 1 : 0);
      const total = (this.started ? 1 : 0) + length;
      if (this.buffer.length < total) return;
      const message = this.buffer.subarray(0, total);
      this.buffer = this.buffer.subarray(total);
      if (!this.started) {
        this.started = true;
        continue;
      }
      this.read(String.fromCharCode(message[0]!), message.subarray(5));
    }
  }

  private read(type: string, body: Buffer): void {
    if (type === 'Q') {
      this.onStatement(cString(body, 0));
    } else if (type === 'P') {
      // Parse: the statement's name, then its text; a named one is later bound without a Parse.
      const name = cString(body, 0);
      this.texts.set(name, cString(body, Buffer.byteLength(name) + 1));
    } else if (type === 'B') {
      // Bind: the portal's name, then the statement's.
      const portal = cString(body, 0);
      this.bound = this.texts.get(cString(body, Buffer.byteLength(portal) + 1)) ?? null;
    } else if (type === 'S') {
      this.onStatement(this.bound ?? '(unknown statement)');
      this.bound = null;
    }
  }
}

function cString(buffer: Buffer, start: number): string {
  return buffer.subarray(start, buffer.indexOf(0, start)).toString('utf8');
}
