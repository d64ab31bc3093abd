import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A fresh schema for one bench store, so the bench never touches another user's tables. */
export async function createBenchSchema(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_${randomBytes(5).toString('hex')}`;
  await admin(baseUrl, `CREATE SCHEMA ${name}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  return { url: url.toString(), drop: () => admin(baseUrl, `DROP SCHEMA IF EXISTS ${name} CASCADE`) };
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
