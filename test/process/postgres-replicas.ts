import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonNotification } from '../../src/simulator/notification-builders';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { createTestSchema, type TestSchema } from '../store/pg-test-database';

export interface PostgresReplicas {
  /** This test's fresh schema (its URL is the replicas' DATABASE_URL). */
  readonly schema: TestSchema;
  /** This test's working folder (the replicas' cwd, where their file queue goes). */
  readonly dir: string;
  /** The built receiver on this test's schema, killed after the test. */
  spawn(env?: Record<string, string>): Promise<SpawnedReceiver>;
}

/**
 * Built receivers on one fresh PostgreSQL schema per test, inside a `describePostgres`: each test
 * gets its own schema and folder, and every replica it started is killed (-9) and reaped after it.
 */
export function postgresReplicas(prefix: string): PostgresReplicas {
  let schema: TestSchema | null = null;
  let dir = '';
  const running: SpawnedReceiver[] = [];
  beforeEach(async () => {
    schema = await createTestSchema();
    dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  });
  afterEach(async () => {
    for (const r of running.splice(0)) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get schema() {
      return schema!;
    },
    get dir() {
      return dir;
    },
    async spawn(env = {}) {
      const r = await spawnReceiver(dir, { DATABASE_URL: schema!.url, ...env });
      running.push(r);
      return r;
    },
  };
}

/** A notification POSTed as the development gateway sends it (through the test's trusted proxy address). */
export async function postAsGateway(url: string, body: JsonNotification): Promise<{ status: number; resCd?: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '61.33.205.151' },
    body: JSON.stringify(body),
  });
  return { status: res.status, resCd: ((await res.json()) as { resCd?: string }).resCd };
}
