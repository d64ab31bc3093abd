import type { MessagePort } from 'node:worker_threads';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';

/** What the main thread gives the gateway listener's thread when it starts it. */
export interface IngestSetup {
  /** The keys of the simulator's mark (simulator-mark.ts), as bytes. */
  simulatorKeys: Uint8Array[];
  /** SQLite: the first port to the one writer (transferred); null on PostgreSQL. */
  writerPort: MessagePort | null;
}

export type ToIngest =
  /** SQLite: the writer restarted; its writes go to this port now. */
  | { type: 'writer-port'; port: MessagePort }
  /** This thread's metrics, for the main thread's /metrics. */
  | { type: 'metrics'; id: number }
  /** Whether the loop answers, and its delay: /readyz. */
  | { type: 'health'; id: number }
  /** Stop taking requests, answer the ones in flight (at most `timeoutMs`), commit, then exit. */
  | { type: 'drain'; timeoutMs: number };

export type FromIngest =
  | { type: 'listening'; port: number }
  /** The listener could not start (the port taken, the store not opened): the process exits. */
  | { type: 'failed'; error: string }
  | { type: 'metrics'; id: number; metrics: Array<MetricObjectWithValues<MetricValue<string>>> }
  | { type: 'health'; id: number; loopDelayP99Ms: number | null }
  | { type: 'drained' };
