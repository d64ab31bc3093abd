import Database from 'better-sqlite3';
import { Client } from 'pg';
import { LatencySamples } from './latency-samples';

/**
 * The projector's lag read from the database, as noti_receiver_ledger_lag_seconds reports it: the
 * age of the oldest stored gateway notification the projector has not applied (0 when none).
 */
const LAG_SQL = `SELECT (SELECT received_at FROM inbox WHERE seq > (SELECT inbox_seq FROM ledger_projector WHERE id = 1)
  AND origin = 'gateway' ORDER BY seq LIMIT 1) AS oldest`;

export type LagReader = { read(): Promise<number>; close(): Promise<void> };

export async function sqliteLag(file: string): Promise<LagReader> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const statement = db.prepare(LAG_SQL);
  return {
    read: async () => {
      const row = statement.get() as { oldest: string | null };
      return row.oldest === null ? 0 : Math.max(0, Date.now() - Date.parse(row.oldest));
    },
    close: async () => {
      db.close();
    },
  };
}

export async function postgresLag(url: string): Promise<LagReader> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return {
    read: async () => {
      const { rows } = await client.query<{ oldest: string | null }>(LAG_SQL);
      return rows[0]!.oldest === null ? 0 : Math.max(0, Date.now() - Date.parse(rows[0]!.oldest));
    },
    close: () => client.end(),
  };
}

/** Samples the lag every `everyMs` until stopped. */
export function sampleLag(reader: LagReader, everyMs = 50): { stop(): Promise<LatencySamples> } {
  const samples = new LatencySamples();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      samples.add(await reader.read());
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return samples;
    },
  };
}
