import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * PostgreSQL suites run only when TEST_POSTGRES_URL names a database they may create schemas
 * in (e.g. postgres://postgres@127.0.0.1:5432/test); elsewhere they are skipped, saying so.
 */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL;

export function describePostgres(name: string, body: () => void): void {
  if (!TEST_POSTGRES_URL) {
    console.warn(`skipping "${name}": set TEST_POSTGRES_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it`);
    describe.skip(name, body);
    return;
  }
  describe(name, body);
}

export interface TestSchema {
  /** TEST_POSTGRES_URL with search_path set to a fresh, empty schema. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Each test gets its own schema, so runs (and CI re-runs) never see each other's rows. */
export async function createTestSchema(): Promise<TestSchema> {
  const base = TEST_POSTGRES_URL!;
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin(base, `CREATE SCHEMA ${name}`);
  return {
    url: withSearchPath(base, name),
    name,
    drop: async () => void (await admin(base, `DROP SCHEMA IF EXISTS ${name} CASCADE`)),
  };
}

/**
 * The URL with search_path set to `schema`, and 15 s to open a connection instead of the store's
 * 2 s: under a full test run (two cores, many suites creating and dropping schemas, browsers beside
 * them) a new connection once took longer than 2 s, and a store failed to open.
 */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  if (!parsed.searchParams.has('connect_timeout')) parsed.searchParams.set('connect_timeout', '15');
  return parsed.toString();
}

/** Rewrites host and port, e.g. to route a store through a test-controlled proxy. */
export function withAddress(url: string, host: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = host;
  parsed.port = String(port);
  return parsed.toString();
}

export function postgresAddress(): { host: string; port: number } {
  const parsed = new URL(TEST_POSTGRES_URL!);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 5432) };
}

export async function admin(url: string, sql: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}
