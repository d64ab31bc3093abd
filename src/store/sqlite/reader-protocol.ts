import type { ReadName } from '../procedures';

/** What the main thread and the SQLite reader worker say to each other. */
export interface ReaderSetup {
  path: string;
  busyTimeoutMs: number;
  /** The ledger's reader: its thread runs below the acks' priority (thread-priority.ts) and keeps the projector's fold cache. */
  background?: boolean;
}

export interface ReadMessage {
  id: number;
  name: ReadName;
  args: unknown[];
}

export type ReadReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };
