import { EOL } from 'node:os';
import TransportStream from 'winston-transport';

/** Where winston keeps a record's formatted line (triple-beam's MESSAGE). */
export const MESSAGE = Symbol.for('message');

export interface LineSink {
  write(text: string): unknown;
}

/**
 * Log lines to stdout, every line of one event-loop turn in one write: under load each
 * notification logs a line, and a write per line (a system call each, and winston's Console
 * transport schedules an event per line besides) was a visible share of the main thread.
 *
 * Lines are written when the turn's I/O callbacks are done (setImmediate), and synchronously
 * when the process exits (process.exit, which a graceful SIGTERM stop ends in, an uncaught
 * error's exit included), so nothing logged before a graceful stop is lost. A kill -9, or a
 * crash of the process itself, loses the lines of the turn it interrupts: a few milliseconds
 * of log, never an ack (acks wait for the commit, not for the log).
 */
export class StdoutLines extends TransportStream {
  private text = '';
  private scheduled = false;
  private watchingExit = false;
  private readonly sink: LineSink;

  constructor(sink: LineSink = process.stdout) {
    super();
    this.sink = sink;
  }

  override log(info: Record<string | symbol, unknown>, next: () => void): void {
    this.text += `${String(info[MESSAGE])}${EOL}`;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
    // On the first line, not at construction: a logger that never writes (a silent one) adds no listener.
    if (!this.watchingExit) {
      this.watchingExit = true;
      process.on('exit', this.flush);
    }
    next();
  }

  /** Writes what is buffered now; stdout is synchronous for files, pipes and terminals on Linux. */
  readonly flush = (): void => {
    this.scheduled = false;
    if (this.text === '') return;
    const text = this.text;
    this.text = '';
    this.sink.write(text);
  };

  override close(): void {
    this.flush();
    process.off('exit', this.flush);
  }
}
